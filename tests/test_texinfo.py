"""Texinfo (service.texinfo): paragraphs, headings and the other texts of a manual sent as HTML with their commands
kept, the manual written back in place."""

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from service import texinfo
from service.batch import JobRefused, Settings, format_named, read_items
from tests.test_batch_jobs import (SHORT, alone, batch, server,  # noqa: F401 (a fixture)
                                    written_back_in_linear_time)

# As GNU's manuals are written (sed's, grep's, gzip's): a preamble, a title page, menus, examples, lists and tables
MANUAL = r"""\input texinfo   @c -*-texinfo-*-
@setfilename tea.info
@settitle Brewing Tea
@copying
This manual is for Tea, version @value{VERSION}.
@end copying
@titlepage
@title Brewing Tea
@author Jane Doe
@end titlepage

@node Top
@top Tea

@menu
* Overview::    What tea is.
@end menu

@node Overview
@chapter Overview
@cindex brewing
@cindex @command{tea}
@command{tea} brews a pot of @emph{green} tea in
@var{minutes}.@footnote{It runs on any
kettle.} See @ref{Top}, or ``the tea book'' and the caf@'e@dots{}

@example
tea --green 3
@end example

@itemize @bullet
@item Black tea
@item
Green tea
@end itemize

@table @code
@item --green
Brews green tea.
@end table

@table @asis
@item Water temperature
Hot enough.
@end table

@multitable @columnfractions .5 .5
@headitem Kind @tab Minutes
@item Black @tab @code{4}
@end multitable

@display
Keep the lid on.
Wait.
@end display

@quotation Note
Never boil @strong{green} tea.
@end quotation

@deffn Command tea @var{kind} @
  @var{minutes}
Brews it.
@end deffn

@c a comment
@ignore
Old text.
@ignore
Older text.
@end ignore
Still old.
@end ignore
@bye
Anything after the end.
"""


def test_each_paragraph_heading_and_item_is_one_text_its_commands_kept():
    """Paragraphs, titles, headings, concept index entries, a menu entry's description, list items, a table's terms
    of words, cells, a display's lines, a quotation's label and a footnote's words (a placeholder in its sentence),
    sent as HTML: the commands around words their elements, every other command kept (translate="no"), accents and
    glyphs their characters; examples, menu entries' nodes, nodes, a code table's terms, definition headers (continued
    over lines), comments, ignored text and what follows @bye not sent."""
    texinfo.check(MANUAL)
    assert [(name, text) for _, name, text in texinfo.items(MANUAL)] == [
        ("3:@settitle", "Brewing Tea"),
        ("5:paragraph", 'This manual is for Tea, version <value translate="no">@value{VERSION}</value>.'),
        ("8:@title", "Brewing Tea"),
        ("13:@top", "Tea"),
        ("16:menu", "What tea is."),
        ("20:@chapter", "Overview"),
        ("21:@cindex", "brewing"),
        ("23:paragraph", '<command translate="no">@command{tea}</command> brews a pot of <emph>green</emph> tea in '
                         '<var translate="no">@var{minutes}</var>.<placeholder-1/> See <ref translate="no">@ref{Top}'
                         '</ref>, or “the tea book” and the café…'),
        ("23:footnote", "It runs on any kettle."),
        ("32:paragraph", "Black tea"),
        ("34:paragraph", "Green tea"),
        ("39:paragraph", "Brews green tea."),
        ("43:@item", "Water temperature"),
        ("44:paragraph", "Hot enough."),
        ("48:cell", "Kind"), ("48:cell", "Minutes"), ("49:cell", "Black"),
        ("53:line", "Keep the lid on."), ("54:line", "Wait."),
        ("57:@quotation", "Note"),
        ("58:paragraph", "Never boil <strong>green</strong> tea."),
        ("63:paragraph", "Brews it.")]


def test_translations_are_written_in_place_wrapped_and_the_manual_is_german():
    """Each translation replaces its source, a paragraph's wrapped to the source's width, its elements the commands
    they were, German's letters accent commands in a manual that is not UTF-8, each footnote where the translation put
    its placeholder; a translation that is not well-formed is not written; the manual's language German."""
    numbers = {text: number for number, _, text in texinfo.items(MANUAL)}
    paragraph = next(text for text in numbers if text.startswith('<command'))
    translated = {
        numbers["Overview"]: "Überblick",
        numbers["What tea is."]: "Was Tee ist.",
        numbers[paragraph]: '<command translate="no">@command{tea}</command> brüht eine Kanne <emph>grünen</emph> Tee '
                            'in <var translate="no">@var{minutes}</var>.<placeholder-1/> Siehe <ref translate="no">'
                            '@ref{Top}</ref> oder „das Teebuch“ und das Café…',
        numbers["It runs on any kettle."]: "Er läuft auf jedem Kessel.",
        numbers["Black tea"]: "Schwarzer Tee",
        numbers["Water temperature"]: "Wassertemperatur",
        numbers["Kind"]: "Sorte",
        numbers["Keep the lid on."]: "Deckel drauf lassen.",
        numbers["Never boil <strong>green</strong> tea."]: "<strong>Grünen Tee nie kochen.",  # not well-formed
        numbers["Brews it."]: "Braut {ihn} @ 100°."}
    filled = texinfo.filled(MANUAL, translated)
    assert filled.startswith("\\input texinfo   @c -*-texinfo-*-\n@setfilename tea.info\n@documentlanguage de\n")
    assert "@chapter @\"Uberblick\n@cindex brewing\n@cindex @command{tea}\n" in filled
    assert ("@command{tea} br@\"uht eine Kanne @emph{gr@\"unen} Tee in\n@var{minutes}.@footnote{Er l@\"auft auf "
            "jedem Kessel.} Siehe @ref{Top}\noder @quotedblbase{}das Teebuch@quotedblleft{} und das Caf@'e@dots{}\n"
            ) in filled  # (wrapped to 72 columns, as the source's lines are shorter)
    assert "@itemize @bullet\n@item Schwarzer Tee\n@item\nGreen tea\n@end itemize" in filled
    assert "@item Wassertemperatur\n" in filled and "@headitem Sorte @tab Minutes\n" in filled
    assert "@display\nDeckel drauf lassen.\nWait.\n@end display" in filled
    assert "Never boil @strong{green} tea." in filled and "Braut @{ihn@} @@ 100@textdegree{}." in filled
    for kept in ("@example\ntea --green 3\n@end example", "@menu\n* Overview::    Was Tee ist.\n@end menu",
                 "@deffn Command tea @var{kind} @\n  @var{minutes}\n", "@bye\nAnything after the end.\n"):
        assert kept in filled
    # nothing translated: the manual as it was, but for its language; a language it names made German
    assert texinfo.filled(MANUAL, {}) == MANUAL.replace("tea.info\n", "tea.info\n@documentlanguage de\n")
    assert texinfo.filled("@documentlanguage en\n@node Top\n", {}) == "@documentlanguage de\n@node Top\n"
    # a menu: each entry's description a text, with its lines under it; a comment between entries a text; an entry
    # inside a conditional an entry
    menu = ("@menu\n* Green::       Green tea, which\n                steeps briefly.\nOther teas:\n"
            "* Black: Black tea.  Strong.\n* White::\n@ifhtml\n* Web::\n@end ifhtml\n@end menu\n")
    assert [text for _, _, text in texinfo.items(menu)] == ["Green tea, which steeps briefly.", "Other teas:",
                                                            "Strong."]
    assert texinfo.filled(menu, {1: "Grüner Tee, der kurz zieht.", 2: "Andere Tees:", 3: "Kräftig."}) == (
        "@menu\n* Green::       Gr@\"uner Tee, der kurz zieht.\nAndere Tees:\n* Black: Black tea.  Kr@\"aftig.\n"
        "* White::\n@ifhtml\n* Web::\n@end ifhtml\n@end menu\n")
    # a UTF-8 manual gets German as it is (symbols as their commands); a lost placeholder's footnote goes after the words; CRLF lines stay so
    utf8 = ("@documentencoding UTF-8\r\n\r\nA paragraph that goes on@footnote{Note.}\r\nover two lines.\r\n")
    written = texinfo.filled(utf8, {1: "Ein Absatz, der über zwei Zeilen geht, und der nun viel länger ist als der "
                                       "englische, so dass er umbrochen wird.", 2: "Anmerkung…"})
    assert written == ("@documentencoding UTF-8\r\n\r\nEin Absatz, der über zwei Zeilen geht, und der nun viel länger "
                       "ist als\r\nder englische, so dass er umbrochen wird.@footnote{Anmerkung@dots{}}\r\n")


def test_comments_index_entries_and_anchors_between_a_paragraphs_lines_leave_it_whole():
    """A comment, an index entry or an anchor line between a paragraph's lines goes on the paragraph, as Texinfo
    reads it (sed's manual cut a sentence with "@cindex", which came back as two halves translated apart): the
    paragraph is one text, the index entry's words one of their own, and the lines are written, each on its line,
    before the paragraph's translation (after it where an item's line starts it). An item's words on its line stay a
    text apart where an index entry follows (a label: "@item none"), and an anchor alone on its line stays there."""
    document = ("@anchor{Brewing}\nBrew the tea\n@cindex steeping\n@c a comment\nfor three minutes.\n@vindex end\n\n"
                "@itemize\n@item none\n@vindex none\nNo tea at all.\n@item Green tea,\nbrewed\n@cindex green\nslowly.\n"
                "@end itemize\n")
    assert [(name, text) for _, name, text in texinfo.items(document)] == [
        ("2:paragraph", "Brew the tea for three minutes."), ("3:@cindex", "steeping"),
        ("9:paragraph", "none"), ("11:paragraph", "No tea at all."),
        ("12:paragraph", "Green tea, brewed slowly."), ("14:@cindex", "green")]
    translated = {1: "Den Tee drei Minuten lang ziehen lassen.", 2: "Ziehen", 3: "keiner", 4: "Gar kein Tee.",
                  5: "Grüner Tee, langsam gebrüht.", 6: "grün"}
    assert texinfo.filled(document, translated) == (
        "@anchor{Brewing}\n@cindex Ziehen\n@c a comment\nDen Tee drei Minuten lang ziehen lassen.\n@vindex end\n\n"
        "@itemize\n@item keiner\n@vindex none\nGar kein Tee.\n"
        "@item Gr@\"uner Tee, langsam gebr@\"uht.\n@cindex gr@\"un\n"
        "@end itemize\n")
    assert texinfo.filled(document, {}) == document  # (a text not translated: as it was, its lines where they were)
    crlf = document.replace("\n", "\r\n")
    assert texinfo.filled(crlf, translated) == texinfo.filled(document, translated).replace("\n", "\r\n")


def test_a_block_texinfo_does_not_know_is_kept_as_written():
    """A preprocessor's block (lilypond-book's "@lilypond" to "@end lilypond": LilyPond's manuals sent 13 of the
    tutorial's 27 as words, "\\relative { c' d e f }" came back changed) is kept to its end; its inline form, options
    and all, is a kept element; a line command of no end is no block."""
    document = ("@lilypond[verbatim,quote]\n\\relative {\n  c' d e f\n}\n@end lilypond\n\n"
                "Play @lilypond[inline]{c d} now.\n\n@unknown\nA paragraph.\n")
    assert [text for _, _, text in texinfo.items(document)] == [
        'Play <lilypond translate="no">@lilypond[inline]{c d}</lilypond> now.', "A paragraph."]
    assert texinfo.filled(document, {1: 'Spiel <lilypond translate="no">@lilypond[inline]{c d}</lilypond> jetzt.',
                                     2: "Ein Absatz."}) == document.replace(
        "Play @lilypond[inline]{c d} now.", "Spiel @lilypond[inline]{c d} jetzt.").replace("A paragraph", "Ein Absatz")
    for name in ("manual.tely", "chapter.itely", "macros.itexi"):  # lilypond-book's Texinfo
        assert format_named(Path(name)) == "texinfo"


def test_the_manual_is_made_german_in_its_header_not_in_a_kept_block():
    """Its @documentlanguage, or one added after its @setfilename line, or after its first line where it has none
    (FFmpeg's manuals: a "@setfilename" for another tool inside "@ignore" got the line, the manual none); never in an
    example or ignored text; a chapter of no header is left as it is."""
    ffmpeg = ("\\input texinfo @c -*- texinfo -*-\r\n@settitle FFplay\r\n@ignore\r\n@setfilename ffplay\r\n"
              "@end ignore\r\n")
    assert texinfo.filled(ffmpeg, {}) == ffmpeg.replace("\r\n", "\r\n@documentlanguage de\r\n", 1)
    shown = "@setfilename a.info\n@example\n@documentlanguage en\n@end example\n"
    assert texinfo.filled(shown, {}) == shown.replace("info\n", "info\n@documentlanguage de\n")
    assert texinfo.filled("@setfilename a.info", {}) == "@setfilename a.info\n@documentlanguage de"
    assert texinfo.filled("@documentlanguage\n@node Top\n", {}) == "@documentlanguage\n@node Top\n"
    assert texinfo.filled("@node Chapter\n@chapter Tea\n", {}) == "@node Chapter\n@chapter Tea\n"
    # its encoding is its header's too: an example's "@documentencoding UTF-8" leaves German as accent commands
    latin = "@documentencoding ISO-8859-1\n\nTea\n\n@example\n@documentencoding UTF-8\n@end example\n"
    assert texinfo.filled(latin, {1: "Tee für"}).startswith("@documentencoding ISO-8859-1\n\nTee f@\"ur\n")


def test_texinfo_is_read_by_its_name_and_a_file_of_no_command_refused(tmp_path):
    for name in ("tea.texi", "tea.texinfo", "tea.txi"):
        assert format_named(tmp_path / name) == "texinfo"
    (tmp_path / "notes.texi").write_text("Just some notes.\n", encoding="utf-8")
    with pytest.raises(JobRefused, match=r"it has no Texinfo command"):
        list(read_items(tmp_path / "notes.texi", Settings(format="texinfo")))
    (tmp_path / "tea.texi").write_text(MANUAL, encoding="utf-8")
    assert len(list(read_items(tmp_path / "tea.texi", Settings(format="texinfo")))) == 22


PIECES = ["@node Top\n", "@chapter ", "@section ", "@cindex ", "@item ", "@tab ", "@itemize\n", "@end itemize\n",
          "@table @asis\n", "@table @code\n", "@end table\n", "@multitable\n", "@end multitable\n", "@example\n",
          "@end example\n", "@display\n", "@end display\n", "@emph{", "@code{", "@footnote{", "@caption{", "}", "{",
          "@verb{|a b|}", "@verb{|", "@@", "@{", "@}", "@'e", "@\"{u}", "@dots{}", "@U{00FC}", "@U{D800}", "@*", "@ ",
          "@c note\n", "@", "``", "''", "<", "&", " ", "\n", "\n\n", "Tea is hot.", "tea", "42", "@deffn a @\n",
          "@bye\n", "\\input texinfo\n", "\r\n", "ü", "@menu\n", "@end menu\n", "* Tea::  ", "* Hot: Tea.  ", "*",
          "@anchor{Tea}\n", "@vindex tea\n", "@cindex hot\n", "@lilypond[quote]\n", "@end lilypond\n",
          "@x[o]{"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=6), max_size=40))
def test_any_manual_is_read_and_written_back_with_its_own_texts_as_it_was(pieces):
    """Whatever the manual (garbage and broken commands too): it is read without an error; written back with no
    translation it is as it was (but for its language); written back with each text's own words as its translation
    it holds the same texts again."""
    document = "@setfilename t.info\n" + "".join(pieces).replace("@setfilename", "").replace("@documentlanguage", "")
    found = list(texinfo.items(document))
    assert texinfo.filled(document, {}) == document.replace("\n", "\n@documentlanguage de\n", 1)
    again = texinfo.filled(document, {number: text for number, _, text in found})
    # (in another order where lines read within a paragraph now come before it)
    assert sorted(text for _, _, text in texinfo.items(again)) == sorted(text for _, _, text in found)


def test_hostile_manuals_are_read_in_linear_time():
    """Unended commands and @verb, braces nested deep, footnotes in footnotes, blocks never ended, items deep inside
    blocks, ends of blocks never opened and lines continued to the end are read and written back in time linear in
    their size (in a child process, so that a regression fails here instead of hanging the suite)."""
    written_back_in_linear_time("texinfo", (
        "('@emph{' * 100_000, '@verb{|' * 100_000, '{' * 100_000 + '}' * 100_000,"
        " '@footnote{' * 20_000 + 'a' + '}' * 20_000, '@emph{' * 20_000 + 'a' + '}' * 20_000,"
        " '@' * 200_000, '@item\\n' * 50_000, '@end x\\n' * 50_000, '@example\\n' * 50_000,"
        " '@deffn a @\\n' * 50_000, 'Tea @code{a} is hot @footnote{b}. ' * 20_000,"
        " '@multitable\\n' + '@item a @tab b ' * 20_000,"
        " '@itemize\\n' + '@quotation\\n' * 20_000 + '@item a\\n' * 20_000,"
        " '@quotation\\n' * 50_000 + '@end x\\n' * 50_000, 'a\\n@cindex b\\n@c c\\n' * 50_000,"
        " 'a\\n' + '@anchor{a}\\n' * 100_000 + 'b\\n')"))


def test_a_texinfo_manual_is_translated_through_the_server(server, tmp_path):  # noqa: F811 (the fixture)
    """A manual's directory: its main file and an included chapter translated in place (each text its translation
    sent alone), a file of settings alone written as it was, and the job succeeds."""
    source, output = tmp_path / "doc", tmp_path / "doc.de"
    source.mkdir()
    (source / "tea.texi").write_text(MANUAL, encoding="utf-8")
    (source / "green.texi").write_text("@node Green\n@section Green tea\n", encoding="utf-8")
    (source / "version.texi").write_text("@set VERSION 1.0\n", encoding="utf-8")
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0, err
    assert "3 files: 3 translated, 0 finished before, 0 copied, 0 failed" in out
    title = alone(server.target, ["Green tea"])[0]
    assert (output / "green.texi").read_text(encoding="utf-8") == f"@node Green\n@section {title}\n"
    assert (output / "version.texi").read_text(encoding="utf-8") == "@set VERSION 1.0\n"
    manual = (output / "tea.texi").read_text(encoding="utf-8")
    assert "@example\ntea --green 3\n@end example" in manual and "@documentlanguage de" in manual
