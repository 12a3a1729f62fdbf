"""DocBook XML (service.docbook): each element's own words one text, blocks inside a paragraph placeholders, the
document written back in place."""

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from service import docbook, documents
from service.batch import JobRefused, Settings, format_named, read_items
from tests.test_batch_jobs import SHORT, alone, batch, server  # noqa: F401 (a fixture)

# As KDE's manuals are written: entities declared by the DTD of their build, the language chosen in the document type
HANDBOOK = """<?xml version="1.0" ?>
<!DOCTYPE book PUBLIC "-//KDE//DTD DocBook XML V4.5-Based Variant V1.1//EN" "dtd/kdedbx45.dtd" [
  <!ENTITY kappname "&kteatime;">
  <!ENTITY % English "INCLUDE">
]>
<book id="kteatime" lang="&language;">
<bookinfo>
<title>The &kteatime; Handbook</title>
<authorgroup>
<author><firstname>Michael</firstname> <surname>Korman</surname></author>
<!-- <contrib>Developer</contrib> -->
</authorgroup>
<releaseinfo>1.3.0 (Applications 16.04)</releaseinfo>
<keywordset><keyword>KDE</keyword><keyword>tea</keyword></keywordset>
</bookinfo>
<chapter id="introduction">
<title>Introduction</title>
<para>&kteatime; is a handy timer for steeping tea. Click <guibutton>Start</guibutton>
or run <command>kteatime --help</command> to see its options, which
are listed below.<footnote><para>It runs on any desktop.</para></footnote></para>
<para>To install it, type:
<screen><prompt>$</prompt> <userinput>sudo apt install kteatime</userinput></screen>
and press <keycap>Enter</keycap>.</para>
<para><indexterm><primary>tea</primary></indexterm>It knows these teas:
<itemizedlist>
<listitem><para>Black tea</para></listitem>
<listitem><para>Green tea</para></listitem>
</itemizedlist>
</para>
<programlisting>set timer to 3 minutes</programlisting>
<para translate="no">Keep this sentence.</para>
<informaltable><tgroup cols="2"><tbody>
<row><entry><command>kteatime</command></entry><entry>Starts the timer</entry></row>
</tbody></tgroup></informaltable>
<mediaobject><textobject><phrase>The timer's window</phrase></textobject></mediaobject>
</chapter>
</book>
"""


def test_each_elements_own_words_are_one_text_and_blocks_inside_it_placeholders():
    """A paragraph's words with its inline markup (a footnote, a screen, a list, an index term inside it: a
    placeholder each, their own texts after it); not an author's name, a comment's element, a screen or a program
    listing, a paragraph marked translate="no", nor a cell whose only word is a command."""
    docbook.check(HANDBOOK)
    assert list(docbook.items(HANDBOOK)) == [
        (1, "book/bookinfo/title", "The &kteatime; Handbook"),
        (2, "book/bookinfo/releaseinfo", "1.3.0 (Applications 16.04)"),
        (3, "book/bookinfo/keywordset/keyword", "KDE"),
        (4, "book/bookinfo/keywordset/keyword", "tea"),
        (5, "book/chapter/title", "Introduction"),
        (6, "book/chapter/para", "&kteatime; is a handy timer for steeping tea. Click <guibutton>Start</guibutton> or "
                                 "run <command>kteatime --help</command> to see its options, which are listed below."
                                 "<placeholder-1/>"),
        (7, "book/chapter/para/footnote/para", "It runs on any desktop."),
        (8, "book/chapter/para", "To install it, type: <placeholder-1/> and press <keycap>Enter</keycap>."),
        (9, "book/chapter/para", "<placeholder-1/>It knows these teas: <placeholder-2/>"),
        (10, "book/chapter/para/indexterm/primary", "tea"),
        (11, "book/chapter/para/itemizedlist/listitem/para", "Black tea"),
        (12, "book/chapter/para/itemizedlist/listitem/para", "Green tea"),
        (13, "book/chapter/informaltable/tgroup/tbody/row/entry", "Starts the timer"),
        (14, "book/chapter/mediaobject/textobject", "<phrase>The timer's window</phrase>")]
    assert docbook.count(HANDBOOK) == 14
    # an inline element alone in a container of blocks is a text of its own (it made the book's info one text with
    # a placeholder for each of its blocks), one of a name is none; a container's own words are its text
    info = ("<book><bookinfo><title>Tea</title><date>July 2016</date><productname>KDE</productname>"
            "<author>Michael Korman</author></bookinfo><itemizedlist><listitem>Bare words</listitem></itemizedlist>"
            "</book>")
    assert list(docbook.items(info)) == [(1, "book/bookinfo/title", "Tea"), (2, "book/bookinfo/date", "July 2016"),
                                         (3, "book/itemizedlist/listitem", "Bare words")]


def test_translations_are_written_in_place_wrapped_as_the_source_and_the_book_is_german():
    """Each text's translation replaces its content, its words wrapped to the source's width where it spanned lines,
    each block where the translation put its placeholder with the white space that surrounded it (one the
    translation lost after it), a translation that is no well-formed XML not written; KDE's language entity German."""
    translated = {
        5: "Einleitung",
        6: "&kteatime; ist ein praktischer Zeitmesser zum Ziehenlassen von Tee. Klicken Sie auf "
           "<guibutton>Start</guibutton> oder führen Sie <command>kteatime --help</command> aus, um seine Optionen "
           "zu sehen, die unten aufgeführt sind.<placeholder-1/>",
        7: "Er läuft auf jeder Arbeitsfläche.",
        8: "Um ihn zu installieren, geben Sie <placeholder-1/> ein und drücken Sie <keycap>Enter</keycap>.",
        9: "Er kennt diese Teesorten:",  # the placeholders lost: the index term and the list after the words
        11: "Schwarzer <emphasis>Tee",  # not well-formed: the source stays
        12: "Grüner Tee"}
    filled = docbook.filled(HANDBOOK, translated)
    assert '<!ENTITY % German "INCLUDE">' in filled and '<book id="kteatime" lang="&language;">' in filled
    assert "<title>Einleitung</title>" in filled
    assert ("<para>&kteatime; ist ein praktischer Zeitmesser zum Ziehenlassen von Tee. Klicken Sie\n"
            "auf <guibutton>Start</guibutton> oder führen Sie <command>kteatime --help</command>\n"
            "aus, um seine Optionen zu sehen, die unten aufgeführt sind.<footnote><para>Er läuft auf jeder "
            "Arbeitsfläche.</para></footnote></para>") in filled  # (86 columns, as the source's longest line)
    assert ("<para>Um ihn zu installieren, geben Sie\n<screen><prompt>$</prompt> <userinput>sudo apt install "
            "kteatime</userinput></screen>\nein und drücken Sie <keycap>Enter</keycap>.</para>") in filled
    assert ("<para>Er kennt diese Teesorten: <indexterm><primary>tea</primary></indexterm>\n<itemizedlist>\n"
            "<listitem><para>Black tea</para></listitem>\n<listitem><para>Grüner Tee</para></listitem>\n"
            "</itemizedlist>\n</para>") in filled
    for kept in ("<programlisting>set timer to 3 minutes</programlisting>", "<!-- <contrib>Developer</contrib> -->",
                 "<author><firstname>Michael</firstname> <surname>Korman</surname></author>"):
        assert kept in filled
    # a block the translation puts before a mark goes there without the space the source had after it
    icon = '<para>Use the <inlinemediaobject><imageobject/></inlinemediaobject> button.</para>'
    assert docbook.filled(f"<section>{icon}</section>", {1: "Nutzen Sie <placeholder-1/>, um."}) == (
        '<section lang="de"><para>Nutzen Sie <inlinemediaobject><imageobject/></inlinemediaobject>, um.</para>'
        '</section>')
    # a Windows editor's line ends stay the only ones
    windows = "<section>\r\n<para>A paragraph that goes on\r\nover two lines.</para>\r\n</section>\r\n"
    german = docbook.filled(windows, {1: "Ein Absatz, der über zwei Zeilen geht, und der nun viel länger ist als "
                                         "der englische, so dass er umbrochen wird."})
    assert german.count("\r\n") == german.count("\n") == 4
    # nothing translated: the document as it was, but for its language
    assert docbook.filled(HANDBOOK, {}) == HANDBOOK.replace("% English", "% German")
    # a root that names English, or no language, is German; another language is kept
    for root, german in (('<article lang="en">', '<article lang="de">'), ("<chapter>", '<chapter lang="de">'),
                         ('<section xmlns="http://docbook.org/ns/docbook" version="5.0">',
                          '<section xmlns="http://docbook.org/ns/docbook" version="5.0" xml:lang="de">'),
                         ('<article lang="fr">', '<article lang="fr">')):
        name = root[1:].split()[0].rstrip(">")
        document = f"<!-- a part of a book -->\n{root}<title>Tea</title></{name}>\n"
        written = f"<!-- a part of a book -->\n{german}<title>Tee</title></{name}>\n"
        assert docbook.filled(document, {1: "Tee"}) == written


def test_a_docbook_5_link_with_its_namespace_prefix_is_written():
    """DocBook 5's links name their target by a prefixed attribute (xlink:href): a translation holding one is written
    (its prefix was refused as unbound, and each such paragraph kept its English), the root's xml:lang de."""
    book = ('<article xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink">'
            '<para>See <link xlink:href="https://tea.example">the tea site</link>.</para></article>')
    assert [text for _, _, text in docbook.items(book)] == [
        'See <link xlink:href="https://tea.example">the tea site</link>.']
    assert docbook.filled(book, {1: 'Siehe <link xlink:href="https://tea.example">die Teeseite</link>.'}) == (
        '<article xmlns="http://docbook.org/ns/docbook" xmlns:xlink="http://www.w3.org/1999/xlink" xml:lang="de">'
        '<para>Siehe <link xlink:href="https://tea.example">die Teeseite</link>.</para></article>')


def test_docbook_is_read_by_its_name_or_its_root_and_anything_else_refused(tmp_path):
    """.docbook and .dbk by their names, an .xml by its root (after comments: a chapter of the installation guide);
    Android's resources stay Android's; a file of comments alone is copied by a directory's job; an XML file that is
    no DocBook, elements nested deeper than a job reads and an encoding other than UTF-8 are refused."""
    files = {"index.docbook": HANDBOOK, "book.dbk": "<book><title>Tea</title></book>",
             "howto.xml": "<!-- retain these comments -->\n<appendix id='howto'><title>Howto</title></appendix>",
             "strings.xml": '<?xml version="1.0"?>\n<resources><string name="a">A</string></resources>\n'}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert [format_named(tmp_path / name) for name in files] == ["docbook", "docbook", "docbook", "android"]
    assert [item.text for item in read_items(tmp_path / "howto.xml", Settings(format="docbook"))] == ["Howto"]
    commented = tmp_path / "commented.xml"
    commented.write_text("<!-- retain these comments -->\n<!--\n<para>Old text.</para>\n-->\n", encoding="utf-8")
    assert documents.holds_no_element(commented) and not documents.holds_no_element(tmp_path / "howto.xml")
    for text, refusal in (
            (files["strings.xml"], r"its first element is <resources>, not one a DocBook document"),
            ("<book>" + "<para>" * 201 + "Deep", r"its elements nest more than 200 deep"),
            ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<book/>', r'says encoding="ISO-8859-1"'),
            ("<!-- nothing -->", "it holds no element")):
        (tmp_path / "refused.docbook").write_text(text, encoding="utf-8")
        with pytest.raises(JobRefused, match=refusal):
            list(read_items(tmp_path / "refused.docbook", Settings(format="docbook")))


PIECES = ["<para>", "</para>", "<title>", "</title>", "<itemizedlist>", "</itemizedlist>", "<listitem>", "</listitem>",
          "<emphasis>", "</emphasis>", "<command>", "</command>", "<screen>", "</screen>", "<footnote>", "</footnote>",
          "<xref linkend='a'/>", "<indexterm><primary>tea</primary></indexterm>", "<!-- <para>old</para> -->",
          "<![CDATA[<para>x</para>]]>", "&kappname;", "&amp;", "<date>", "</date>", "<placeholder-1/>", " ", "\n",
          "Tea is hot.", "tea", "42", "<", "&", "</x>", '<para translate="no">', "<sect1 id='s'>", "</sect1>"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=6), max_size=40))
def test_any_docbook_document_is_read_and_written_back_with_its_own_texts_as_it_was(pieces):
    """Whatever the document (garbage and broken markup too): it is read without an error; written back with no
    translation it is as it was (but for its root's language, where it has a text); written back with each text's own
    words as its translation it holds the same texts again."""
    document = "<chapter>" + "".join(pieces) + "</chapter>"
    written_back_with_its_own_texts(docbook, docbook.NotDocBook, document,
                                    document.replace("<chapter>", '<chapter lang="de">', 1))


def written_back_with_its_own_texts(reader, refusal: type[Exception], document: str, german: str) -> None:
    """Asserts that a document of a format read as DocBook's (`reader`: service.docbook, service.svg), unless its
    check refuses it (`refusal`), is written back with no translation as `german` (as it was where it has no text),
    and with each text's own words as its translation holds the same texts again."""
    try:
        reader.check(document)
    except refusal:
        return
    found = list(reader.items(document))
    assert reader.filled(document, {}) == (german if found else document)
    again = reader.filled(document, {number: text for number, _, text in found})
    assert [text for _, _, text in reader.items(again)] == [text for _, _, text in found]


def test_hostile_documents_are_read_in_linear_time(tmp_path):
    """End tags of nothing open, many placeholders in one paragraph, many paragraphs with footnotes and comments,
    processing instructions, CDATA sections and document types never ended are read and written back in time linear
    in their size: 64 KB of "<?" took 9 s (in a child process, so that a regression fails here instead of hanging the
    suite)."""
    script = ("from service import docbook\n"
              "for start in ('<!--', '<?', '<![CDATA[', '<!DOCTYPE [', '<!DOCTYPE a \"', '<!DOCTYPE [<!--'):\n"
              "    docbook.items('<book><para>a</para>' + start * 200_000)\n"
              "for document in ('<book>' + '</x>' * 200_000 + '<para>' * 150 + '</y>' * 200_000 + '</book>',\n"
              "                 '<book><para>a' + '<footnote><para>b</para></footnote>' * 20_000 + '</para></book>',\n"
              "                 '<book>' + '<para>a<footnote><para>b</para></footnote>c</para>' * 20_000\n"
              "                 + '</book>'):\n"
              "    docbook.check(document)\n"
              "    docbook.filled(document, {number: text for number, _, text in docbook.items(document)})\n")
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60, cwd=Path(__file__).parent.parent)


def test_a_docbook_tree_is_translated_through_the_server(server, tmp_path):  # noqa: F811 (the fixture)
    """A manual's directory: its book and chapters translated in place (each text its translation sent alone), a
    chapter of comments alone copied, and the job succeeds."""
    source, output = tmp_path / "doc", tmp_path / "doc.de"
    (source / "chapters").mkdir(parents=True)
    (source / "index.docbook").write_text(HANDBOOK, encoding="utf-8")
    (source / "chapters" / "tea.xml").write_text("<chapter id='tea'>\n<title>Green tea</title>\n</chapter>\n",
                                                 encoding="utf-8")
    (source / "chapters" / "old.xml").write_text("<!-- <chapter><title>Old</title></chapter> -->\n", encoding="utf-8")
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0, err
    assert "3 files: 2 translated, 0 finished before, 1 copied, 0 failed" in out
    old = (output / "chapters" / "old.xml").read_text(encoding="utf-8")
    assert old == "<!-- <chapter><title>Old</title></chapter> -->\n"
    title = alone(server.target, ["Green tea"])[0]
    assert (output / "chapters" / "tea.xml").read_text(encoding="utf-8") == (
        f"<chapter id='tea' lang=\"de\">\n<title>{title}</title>\n</chapter>\n")
    book = (output / "index.docbook").read_text(encoding="utf-8")
    assert "<programlisting>set timer to 3 minutes</programlisting>" in book and '% German "INCLUDE"' in book
