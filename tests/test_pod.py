"""Perl's POD (service.pod): paragraphs, headings and items sent as HTML with their formatting codes kept, the document
written back in place, a module's code untouched."""

import re

import pytest
from hypothesis import given, settings, strategies as st

from service import pod
from service.batch import JobRefused, Settings, format_named, read_items
from tests.test_batch_jobs import (SHORT, alone, batch, server,  # noqa: F401 (a fixture)
                                    written_back_in_linear_time)

# A module as CPAN's are written: code, then its documentation after __END__, a manual page's sections
MODULE = """package Tea;
use strict;
# =head1 not POD: a comment
sub brew { return "=head1 not POD either" }
1;
__END__

=head1 NAME

Tea - brew a pot of tea

=head1 DESCRIPTION

B<Tea> brews I<green> tea, see L</"Brewing it"> and
C<< $pot->brew >>; E<lt>hotE<gt> is cafE<eacute>.

    my $pot = Tea->new;

=over

=item B<--steep>=I<minutes>

Steeps it for B<not> too long.

=item *

Pour it.

=back

=begin html

<p>Raw HTML.</p>

=end html

=head2 Brewing it

Use B<debian/control> as B<S<two words>>.

=cut

sub more { }
"""


def test_ordinary_paragraphs_headings_and_items_are_texts_their_codes_kept():
    """Headings (not a manual page's standard section: NAME, DESCRIPTION are written as German pages name them), an
    item's words after its bullet, ordinary paragraphs (in NAME only what follows the dash), sent as
    HTML: bold, italic and unbreakable words their elements, other codes kept (translate="no"), bold of a path or
    option kept, characters by name the characters; the code around the POD, verbatim paragraphs, =over/=back, an
    item's bare bullet and =begin to =end not sent."""
    pod.check(MODULE)
    assert [(name, text) for _, name, text in pod.items(MODULE)] == [
        ("10:paragraph", "brew a pot of tea"),
        ("14:paragraph", '<b>Tea</b> brews <i>green</i> tea, see <code translate="no">L&lt;/"Brewing it"&gt;</code> '
                         'and <code translate="no">C&lt;&lt; $pot-&gt;brew &gt;&gt;</code>; &lt;hot&gt; is café.'),
        ("21:=item", '<code translate="no">B&lt;--steep&gt;</code>=<i>minutes</i>'),
        ("23:paragraph", "Steeps it for <b>not</b> too long."),
        ("27:paragraph", "Pour it."),
        ("37:=head2", "Brewing it"),
        ("39:paragraph", 'Use <code translate="no">B&lt;debian/control&gt;</code> as <b><nobr>two words</nobr></b>.')]


def test_translations_are_written_in_place_escaped_and_linked_to_translated_headings():
    """Each translation replaces its source, its elements the codes they were (a code inside one of its own kind
    left out), "<" and ">" in a code written as E<lt> and E<gt>; a link to a section names its translated heading; a
    translation that would start a command is not written; German characters make an undeclared encoding UTF-8;
    the code outside the POD is as it was."""
    numbers = {text: number for number, _, text in pod.items(MODULE)}
    description = next(text for text in numbers if text.startswith("<b>Tea</b>"))
    translated = {
        numbers["brew a pot of tea"]: "eine Kanne Tee brühen",
        numbers[description]: '<b>Tea</b> brüht <i><i>grünen</i></i> Tee, siehe <code translate="no">L&lt;/"Brewing '
                              'it"&gt;</code> und <code translate="no">C&lt;&lt; $pot-&gt;brew &gt;&gt;</code>; '
                              '<b>a &lt; b &gt; c</b> ist E&lt;x&gt;.',
        numbers["Steeps it for <b>not</b> too long."]: "= Lässt ihn <b>nicht</b> zu lange ziehen.",  # a command
        numbers["Pour it."]: "Gießen Sie ihn ein.",
        numbers["Brewing it"]: "Ihn brühen"}
    filled = pod.filled(MODULE, translated)
    assert filled.startswith(MODULE[:MODULE.index("\n=head1") + 1] + "=encoding UTF-8\n\n=head1 BEZEICHNUNG\n")
    assert "\nTea - eine Kanne Tee brühen\n" in filled
    assert ('B<Tea> brüht I<grünen> Tee, siehe L</"Ihn brühen"> und C<< $pot->brew\n'
            '>>; B<a E<lt> b E<gt> c> ist EE<lt>x>.\n') in filled  # (wrapped to 72 columns; ">" outside a code is one)
    assert "\nSteeps it for B<not> too long.\n" in filled and "=item *\n\nGießen Sie ihn ein.\n" in filled
    assert "=head2 Ihn brühen\n" in filled and filled.endswith("=cut\n\nsub more { }\n")
    for kept in ("    my $pot = Tea->new;\n", "=begin html\n\n<p>Raw HTML.</p>\n\n=end html\n", "__END__\n"):
        assert kept in filled
    standard = MODULE.replace("=head1 NAME", "=head1 BEZEICHNUNG").replace("=head1 DESCRIPTION", "=head1 BESCHREIBUNG")
    assert pod.filled(MODULE, {}) == standard  # (a manual page's standard sections as German pages name them)
    assert "=head1 BESCHREIBUNG\n" in filled
    declared = "=encoding latin1\n\n=head1 Tea\n"  # an encoding it declares is kept
    assert pod.filled(declared, {1: "Tee"}) == "=encoding latin1\n\n=head1 Tee\n"
    undeclared = "# © 2024\n\n=head1 Tea\n"  # German where none was declared: UTF-8, even after a © in code
    assert pod.filled(undeclared, {1: "Tee für"}) == "# © 2024\n\n=encoding UTF-8\n\n=head1 Tee für\n"
    # written in a job's --encoding: declared as Perl names it (UTF-8 declared over Latin-1 was read as mojibake)
    assert pod.filled("=head1 Tea\n", {1: "Tee für"}, encoding="latin-1") == "=encoding iso8859-1\n\n=head1 Tee für\n"
    assert pod.filled("=head1 Tea\n", {1: "Tee für"}, encoding="ascii") == "=head1 Tee für\n"  # (approximated)


def test_pod_is_read_by_its_name_and_binary_refused(tmp_path):
    """.pod, .pm and .pl by their names, a script of no suffix by its first line (a directory's modules and scripts
    were copied, a file alone read line by line as text: its code translated); a module of no POD sends nothing; a
    binary file is refused."""
    assert [format_named(tmp_path / name) for name in ("perlpod.pod", "Tea.pm", "brew.pl")] == ["pod"] * 3
    for name, opening, format in (("dh_tea", "#!/usr/bin/perl -w\n", "pod"), ("brew", "#! /usr/bin/env perl\n", "pod"),
                                  ("steep", "#!/bin/sh\n", "text"), ("README", "Tea\n", "text")):
        (tmp_path / name).write_text(opening, encoding="utf-8")
        assert format_named(tmp_path / name) == format  # a script of no suffix by its first line
    (tmp_path / "Plain.pm").write_text("package Plain;\n1;\n", encoding="utf-8")
    assert list(read_items(tmp_path / "Plain.pm", Settings(format="pod"))) == []
    (tmp_path / "binary.pod").write_text("=head1 A\0B\n", encoding="utf-8")
    with pytest.raises(JobRefused, match=r"binary"):
        list(read_items(tmp_path / "binary.pod", Settings(format="pod")))


PIECES = ["=head1 ", "=head2 ", "=item ", "=item *\n\n", "=over\n\n", "=back\n\n", "=cut\n\n", "=pod\n\n",
          "=begin html\n\n", "=end html\n\n", "=for text\n\n", "=encoding utf8\n\n", "B<", "I<", "C<", "C<< ", " >>",
          "L</\"Tea\">", "L<Tea time>", "E<lt>", "E<eacute>", "E<x>", "S<", "<", ">", "|", "\n\n", "\n", "    ",
          "Tea is hot.", "tea", "42", "=", "NAMES", " - ", "é", "\r\n"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=6), max_size=40))
def test_any_document_is_read_and_written_back_with_its_own_texts_as_it_was(pieces):
    """Whatever the document (garbage and broken codes too): it is read without an error; written back with no
    translation it is as it was; written back with each text's own words as its translation it holds the same texts
    again (but a code inside one of its own kind, B<B<x>y>, written as one, B<xy>: `pod._pod`)."""
    document = "".join(pieces)
    found = list(pod.items(document))
    assert pod.filled(document, {}) == document
    again = pod.filled(document, {number: text for number, _, text in found})
    assert [text for _, _, text in pod.items(again)] == [without_nested_codes(text) for _, _, text in found]


def without_nested_codes(text: str) -> str:
    """A text as sent, but for each element inside one of its own kind ("<b><b>x</b>y</b>": "<b>xy</b>")."""
    pieces, open_codes = [], []  # (name, whether written) of each open element
    for piece in re.split(r"(</?(?:b|i|nobr)>)", text):
        tag = re.fullmatch(r"<(/?)(\w+)>", piece)
        if tag and not tag.group(1):
            open_codes.append((tag.group(2), not open_codes or open_codes[-1][0] != tag.group(2)))
            piece = piece if open_codes[-1][1] else ""
        elif tag:
            piece = piece if open_codes.pop()[1] else ""
        pieces.append(piece)
    return "".join(pieces)


def test_hostile_documents_are_read_in_linear_time():
    """Codes never closed, nested deep, opened by many brackets, many links to many headings and items are read and
    written back in time linear in their size (in a child process, so that a regression fails here instead of
    hanging the suite)."""
    written_back_in_linear_time("pod", (
        "('=pod\\n\\n' + 'B<' * 100_000, '=pod\\n\\n' + 'B<' * 20_000 + 'a' + '>' * 20_000,"
        " '=pod\\n\\n' + 'C<<<< ' * 50_000, '=pod\\n\\n' + '>' * 200_000,"
        " ''.join(f'=head2 H{k}\\n\\nL</H{k}> ' * 2 + '\\n\\n' for k in range(20_000)),"
        " '=over\\n\\n' + '=item *\\n\\nTea B<x> I<y>.\\n\\n' * 20_000)"))


def test_a_perl_distribution_is_translated_through_the_server(server, tmp_path):  # noqa: F811 (the fixture)
    """A distribution's directory: its module's documentation and a .pod file translated in place (each text its
    translation sent alone), the code kept, and the job succeeds."""
    source, output = tmp_path / "lib", tmp_path / "lib.de"
    source.mkdir()
    (source / "Tea.pm").write_text(MODULE, encoding="utf-8")
    (source / "green.pod").write_text("=head1 Green tea\n\n    code\n", encoding="utf-8")
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0, err
    assert "2 files: 2 translated, 0 finished before, 0 copied, 0 failed" in out
    title = alone(server.target, ["Green tea"])[0]
    assert (output / "green.pod").read_text(encoding="utf-8") == f"=head1 {title}\n\n    code\n"
    code, out, err = batch(server.target, source / "green.pod", tmp_path / "green.de.pod", "--encoding", "latin-1",
                           *SHORT)  # written in Latin-1, and declared so where German came in
    assert code == 0, err
    declared = "" if title.isascii() else "=encoding iso8859-1\n\n"
    assert (tmp_path / "green.de.pod").read_text(encoding="latin-1") == f"{declared}=head1 {title}\n\n    code\n"
    module = (output / "Tea.pm").read_text(encoding="utf-8")
    assert module.startswith(MODULE[:MODULE.index("__END__")]) and module.endswith("=cut\n\nsub more { }\n")
