"""Office documents in batch jobs (Word's .docx, OpenDocument's .odt, PowerPoint's .pptx, Excel's .xlsx): which
paragraphs (an Excel workbook's strings) are sent and how, and the package written back."""

import contextlib
import json
import re
import xml.etree.ElementTree as ElementTree
import zipfile
from pathlib import Path

import pytest

from service import docx, epub, odt, office, pptx, xlsx
from service.batch import JobRefused, Settings, format_named, read_items
from tests.test_batch_jobs import SHORT, batch, server  # noqa: F401 (a fixture)

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
PACKAGE_START = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                 f'<w:document xmlns:w="{W}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
                 'relationships" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
                 'mc:Ignorable="w14"><w:body>')
BOLD = "<w:rPr><w:b/></w:rPr>"
LINK_STYLE = '<w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr>'
FIELD = ('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText>'
         '</w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>3</w:t></w:r>'
         '<w:r><w:fldChar w:fldCharType="end"/></w:r>')
PICTURE = '<w:r><w:drawing><wp:inline xmlns:wp="urn:wp"><wp:extent cx="1" cy="1"/></wp:inline></w:drawing></w:r>'
BODY = [
    # a heading: its properties, a bookmark a table of contents links to, a spell-check mark, a run split by Word
    '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:bookmarkStart w:id="0" w:name="_Toc1"/><w:proofErr '
    'w:type="spellStart"/><w:r><w:t>Where is</w:t></w:r><w:r><w:t xml:space="preserve"> the station</w:t></w:r>'
    '<w:bookmarkEnd w:id="0"/></w:p>',
    # words in bold, a link, a tab, a field and a picture
    f'<w:p><w:r><w:t xml:space="preserve">The </w:t></w:r><w:r>{BOLD}<w:t>apples</w:t></w:r><w:r><w:t xml:space='
    f'"preserve"> were cheap &amp; </w:t></w:r><w:hyperlink r:id="rId9"><w:r>{LINK_STYLE}<w:t>good</w:t></w:r>'
    f'</w:hyperlink><w:r><w:tab/><w:t>on page</w:t></w:r>{FIELD}{PICTURE}</w:p>',
    '<w:p><w:r><w:t>I eat </w:t></w:r><w:del w:id="1" w:author="A"><w:r><w:delText>an</w:delText></w:r></w:del>'
    '<w:ins w:id="2" w:author="A"><w:r><w:t>the</w:t></w:r></w:ins><w:r><w:t> apple.</w:t></w:r></w:p>',
    '<w:p/>', '<w:p><w:r><w:t>42</w:t></w:r></w:p>',
    # a text box: its paragraph is read after the one that holds it, which keeps it
    '<w:p><w:r><w:t>Around</w:t></w:r><w:r><w:pict><w:txbxContent><w:p><w:r><w:t>The dog.</w:t></w:r></w:p>'
    '</w:txbxContent></w:pict></w:r></w:p>',
]
HEADER = (f'<?xml version="1.0" encoding="UTF-8"?><w:hdr xmlns:w="{W}"><w:p><w:r><w:t>The cat</w:t></w:r></w:p>'
          '</w:hdr>')
STYLES = (f'<?xml version="1.0"?><w:styles xmlns:w="{W}"><w:docDefaults><w:rPrDefault><w:rPr><w:lang w:val="en-US" '
          'w:eastAsia="en-US" w:bidi="ar-SA"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:styleId="Code"><w:rPr>'
          '<w:lang w:val="en-GB"/></w:rPr></w:style></w:styles>')


def package(path: Path, body: list[str], header: str = HEADER) -> Path:
    """A .docx package as Word lays one out: the content types first, the document, a header, a picture's bytes."""
    with zipfile.ZipFile(path, "w") as written:
        written.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="urn:ct"/>')
        written.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="urn:rel"/>')
        written.writestr("word/document.xml", PACKAGE_START + "".join(body) + "<w:sectPr/></w:body></w:document>",
                         compress_type=zipfile.ZIP_DEFLATED)
        written.writestr("word/header1.xml", header)
        written.writestr("word/styles.xml", STYLES)
        written.writestr("word/media/image1.png", b"\x89PNG\r\n\x1a\n\x00\xff")
    return path


def shown(xml: str) -> list[str]:
    """Each paragraph's text as Word shows it, tabs as "\\t", in document order (a text box's after its anchor's)."""
    return ["".join(node.text or "" if node.tag == f"{{{W}}}t" else "\t" for node in paragraph.iter()
                    if node.tag in (f"{{{W}}}t", f"{{{W}}}tab"))
            for paragraph in ElementTree.fromstring(xml.encode()).iter(f"{{{W}}}p")]


def test_a_word_documents_paragraphs_are_sent_as_html_of_their_runs(tmp_path):
    """Each paragraph with a letter is one item, numbered across the parts (body, then headers); its runs' text as
    HTML: the most used format as text (Word's runs of it, split by editing sessions, joined), others in spans, a
    link as <a>, a tab, a whole field and a picture kept (<x/>), a text box too, whose paragraph is sent after the
    one that holds it. A paragraph with tracked changes, one without a letter and an empty one are not sent."""
    source = package(tmp_path / "report.docx", BODY)
    assert [(item.line, item.id, item.text) for item in read_items(source, Settings(format="docx"))] == [
        (1, "word/document.xml#1", "Where is the station"),
        (2, "word/document.xml#2", 'The <span id="1">apples</span> were cheap &amp; <a id="0"><span id="2">good'
                                   '</span></a><x id="0"/>on page<x id="1"/><x id="2"/>'),
        (5, "word/document.xml#5", 'Around<x id="0"/>'),
        (6, "word/document.xml#6", "The dog."),
        (7, "word/header1.xml#1", "The cat")]
    assert docx.FORMAT.count(docx.FORMAT.read(source)) == 7


def test_a_word_document_written_back_with_its_own_texts_shows_the_same():
    """Filled with each paragraph's own HTML, every part shows the same text in the same places, its field, picture,
    bookmark, properties and link kept; spell-check marks are gone."""
    parts = {"word/document.xml": PACKAGE_START + "".join(BODY) + "</w:body></w:document>", "word/header1.xml": HEADER}
    same = docx.FORMAT.filled(parts, {number: text for number, _, text in docx.FORMAT.items(parts)})
    for name, xml in parts.items():
        assert shown(same[name]) == shown(xml)
    document = same["word/document.xml"]
    for kept in (FIELD, PICTURE, '<w:pStyle w:val="Heading1"/>', '<w:bookmarkStart w:id="0" w:name="_Toc1"/>',
                 '<w:hyperlink r:id="rId9">', BODY[2]):
        assert kept in document
    assert "proofErr" not in document


def test_a_word_documents_comments_are_sent_after_its_notes():
    """A comment's paragraphs are items too, after the body's, headers', footers' and notes' (Word's comments part),
    its annotation mark kept."""
    comments = (f'<?xml version="1.0"?><w:comments xmlns:w="{W}"><w:comment w:id="0" w:author="Ann"><w:p><w:r>'
                '<w:annotationRef/></w:r><w:r><w:t>Check the price.</w:t></w:r></w:p></w:comment></w:comments>')
    parts = {"word/document.xml": PACKAGE_START + BODY[0] + "</w:body></w:document>", "word/comments.xml": comments}
    assert list(docx.FORMAT.items(parts)) == [(1, "word/document.xml#1", "Where is the station"),
                                                (2, "word/comments.xml#1", '<x id="0"/>Check the price.')]
    filled = docx.FORMAT.filled(parts, {2: '<x id="0"/>Prüfe den Preis.'})["word/comments.xml"]
    assert shown(filled) == ["Prüfe den Preis."] and "<w:annotationRef/>" in filled


WRAPPED = [
    '<w:p><w:r><w:t xml:space="preserve">Name: </w:t></w:r><w:sdt><w:sdtPr><w:id w:val="1"/><w:showingPlcHdr/>'
    '<w:text/></w:sdtPr><w:sdtEndPr/><w:sdtContent><w:r><w:t>Type the name here.</w:t></w:r></w:sdtContent></w:sdt>'
    '</w:p>',
    '<w:p><w:r><w:t xml:space="preserve">We met in </w:t></w:r><w:smartTag w:element="City"><w:smartTagPr>'
    '<w:attr w:name="a" w:val="b"/></w:smartTagPr><w:r><w:t>Munich</w:t></w:r></w:smartTag><w:r>'
    '<w:t xml:space="preserve"> last year.</w:t></w:r></w:p>',
    '<w:p><w:sdt><w:sdtPr><w:alias w:val="Client"/><w:dataBinding w:xpath="/ns0:order[1]/ns0:client[1]"/>'
    '</w:sdtPr><w:sdtContent><w:r><w:t>Annual report</w:t></w:r></w:sdtContent></w:sdt></w:p>',
    # bound to the document's title, which is translated too: read as Word would write it from the title
    '<w:p><w:sdt><w:sdtPr><w:alias w:val="Title"/><w:dataBinding w:xpath="/ns1:coreProperties[1]/ns0:title[1]"/>'
    '</w:sdtPr><w:sdtContent><w:r><w:t>The station</w:t></w:r></w:sdtContent></w:sdt></w:p>',
]


def test_a_content_controls_and_a_smart_tags_runs_are_translated_their_marks_kept():
    """Runs inside a content control (a form's field) or a smart tag are sent, the element around them kept as a
    link's tags are; a content control bound to data is kept as written (Word writes it again from the data), but
    one bound to the document's title, subject or description, which are translated too."""
    parts = {"word/document.xml": PACKAGE_START + "".join(WRAPPED) + "</w:body></w:document>"}
    assert list(docx.FORMAT.items(parts)) == [
        (1, "word/document.xml#1", 'Name: <a id="0">Type the name here.</a>'),
        (2, "word/document.xml#2", 'We met in <a id="0">Munich</a> last year.'),
        (4, "word/document.xml#4", '<a id="0">The station</a>')]
    filled = docx.FORMAT.filled(parts, {1: 'Name: <a id="0">Den Namen hier eingeben.</a>',
                                        2: 'Wir trafen uns letztes Jahr in <a id="0">München</a>.'})
    assert shown(filled["word/document.xml"]) == ["Name: Den Namen hier eingeben.",
                                                  "Wir trafen uns letztes Jahr in München.", "Annual report",
                                                  "The station"]
    for mark in ('<w:sdtPr><w:id w:val="1"/><w:showingPlcHdr/><w:text/></w:sdtPr><w:sdtEndPr/><w:sdtContent><w:r>',
                 '</w:sdtContent></w:sdt>', '<w:smartTagPr><w:attr w:name="a" w:val="b"/></w:smartTagPr><w:r>'):
        assert mark in filled["word/document.xml"]

def test_a_text_box_keeps_its_translation_in_the_paragraph_that_holds_it():
    """The deepest paragraphs are filled first: the text box's translation stays in the paragraph around it, which
    is made from its own translation with the text box kept."""
    parts = {"word/document.xml": PACKAGE_START + BODY[5] + "</w:body></w:document>"}
    filled = docx.FORMAT.filled(parts, {1: 'Herum<x id="0"/>', 2: "Der Hund."})["word/document.xml"]
    assert shown(filled) == ["HerumDer Hund.", "Der Hund."]


def test_a_translation_puts_formats_links_and_kept_runs_where_its_markup_went():
    """The runs are made from the translation: text outside spans in the paragraph's main format, a span's in the
    format it names, a link where its tags are; a kept piece the translation lost goes at the paragraph's end."""
    parts = {"word/document.xml": PACKAGE_START + BODY[1] + "</w:body></w:document>"}
    translation = ('Die <a id="0"><span id="2">guten</span></a> Äpfel waren &lt;billig&gt; und <span id="1">rot'
                   '</span><x id="2"/>')
    document = docx.FORMAT.filled(parts, {1: translation})["word/document.xml"]
    assert shown(document) == ["Die guten Äpfel waren <billig> und rot\t3"]
    runs = re.findall(r"<w:r>(.*?)</w:r>", document.split("<w:body>")[1])
    assert runs[:4] == ['<w:t xml:space="preserve">Die </w:t>', f'{LINK_STYLE}<w:t xml:space="preserve">guten</w:t>',
                        '<w:t xml:space="preserve"> Äpfel waren &lt;billig&gt; und </w:t>',
                        f'{BOLD}<w:t xml:space="preserve">rot</w:t>']
    assert document.index(PICTURE) < document.index("<w:tab/>") < document.index(FIELD)  # lost: after, in order


@contextlib.contextmanager
def translated_as_recorded(server, source: Path, document: office.PackageFormat, summary: str):  # noqa: F811
    """The source and its job's output (ZIP packages, open), after checking each entry is the source's but for the
    parts, which are filled with the translations a JSONL job of the same source records."""
    output = source.with_name("translated" + source.suffix)
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and summary in out, err
    code, _, err = batch(server.target, source, source.with_suffix(".jsonl"), "--output-format", "jsonl", *SHORT)
    assert code == 0, err
    translated = {record["line"]: record["translation"]
                  for record in map(json.loads, source.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines())}
    expected = document.filled(document.read(source), translated)
    with zipfile.ZipFile(source) as before, zipfile.ZipFile(output) as after:
        for name in after.namelist():
            assert after.read(name) == (expected[name].encode() if name in expected else before.read(name))
        yield before, after


def test_a_word_document_is_translated_and_its_package_kept(server, tmp_path):  # noqa: F811 (the fixture)
    """Through the server: the output is the package entry for entry (the picture's bytes, the content types, each
    entry's compression), its parts well-formed, each translated paragraph filled from the job's record of it."""
    source = package(tmp_path / "report.docx", BODY)
    with translated_as_recorded(server, source, docx.FORMAT, "5 items: 5 translated, 0 failed") as (before, after):
        assert [(entry.filename, entry.compress_type) for entry in after.infolist()] == \
            [(entry.filename, entry.compress_type) for entry in before.infolist()]
        assert shown(after.read("word/document.xml").decode())[2] == "I eat the apple."  # tracked: as it was
        assert shown(after.read("word/document.xml").decode())[0] != "Where is the station"
        assert after.read("word/styles.xml").decode() == STYLES.replace('w:val="en-US"', 'w:val="de-DE"')


def test_a_job_says_how_many_paragraphs_stayed_as_they_were_for_their_tracked_changes(server, tmp_path):  # noqa: F811
    """A paragraph with tracked changes is not sent (translated, the changes would be lost or wrong): the job says
    so and what to do, rather than leave the reader to find English paragraphs in a German document."""
    source = package(tmp_path / "review.docx", BODY)
    assert docx.FORMAT.tracked(docx.FORMAT.read(source)) == 1
    code, _, err = batch(server.target, source, tmp_path / "review.de.docx", *SHORT)
    assert code == 0 and "1 paragraph has tracked changes and stayed as it was: accept or reject the changes" in err
    plain = package(tmp_path / "plain.docx", [paragraph for paragraph in BODY if "w:del" not in paragraph])
    code, _, err = batch(server.target, plain, tmp_path / "plain.de.docx", *SHORT)
    assert code == 0 and "tracked changes" not in err, err

def test_code_is_kept_as_it_is():
    """A paragraph in a code style is not sent, a run in one is kept whole (<x/>): sent, 490 code blocks of 60 Word
    documents pandoc made of Markdown files came back changed ("'deps/brotli/brotli.gyp:brotli'" lost its quotes)."""
    code = '<w:rPr><w:rStyle w:val="VerbatimChar"/></w:rPr>'
    parts = {"word/document.xml": PACKAGE_START + '<w:p><w:pPr><w:pStyle w:val="SourceCode"/></w:pPr><w:r>'
             f"<w:t>make the dog</w:t></w:r></w:p><w:p><w:r><w:t>Run </w:t></w:r><w:r>{code}<w:t>make the dog</w:t>"
             '</w:r><w:r><w:t xml:space="preserve"> now.</w:t></w:r></w:p></w:body></w:document>'}
    assert list(docx.FORMAT.items(parts)) == [(2, "word/document.xml#2", 'Run <x id="0"/> now.')]
    filled = docx.FORMAT.filled(parts, {2: 'Führe <x id="0"/> jetzt aus.'})["word/document.xml"]
    assert shown(filled) == ["make the dog", "Führe make the dog jetzt aus."]
    # by name, as each suite spells it: LibreOffice wrote pandoc's "Source_Text" as "Source_5f_Text" (hex for "_"),
    # and 889 paragraphs of code in 60 documents it saved were sent
    names = ("HTML Preformatted", "Source_5f_Text", "Preformatted_20_Text", "VerbatimChar", "Text_20_body", "Heading1")
    assert [office.code_style(name) for name in names] == [True] * 4 + [False] * 2


def test_translated_runs_are_marked_german():
    """A translated run's language is German where its properties name one (Word checks a run's spelling in its
    language), and so is the styles' default for runs that name none."""
    english = '<w:rPr><w:i/><w:lang w:val="en-US" w:eastAsia="ja-JP"/></w:rPr>'
    parts = {"word/document.xml": f"{PACKAGE_START}<w:p><w:r>{english}<w:t>The dog</w:t></w:r></w:p></w:body>"
                                  "</w:document>",
             "word/styles.xml": STYLES}
    filled = docx.FORMAT.filled(parts, {1: "Der Hund"})
    assert '<w:lang w:val="de-DE" w:eastAsia="ja-JP"/></w:rPr><w:t xml:space="preserve">Der Hund' in \
        filled["word/document.xml"]
    assert '<w:rPrDefault><w:rPr><w:lang w:val="de-DE" w:eastAsia="en-US"' in filled["word/styles.xml"]
    assert docx.FORMAT.filled(parts, {}) == parts  # nothing translated: nothing changed


def test_a_file_that_is_no_word_document_is_refused_with_what_to_do(tmp_path):
    (tmp_path / "old.docx").write_bytes(b"\xd0\xcf\x11\xe0 an OLE2 .doc renamed")
    with pytest.raises(JobRefused, match=r"not a ZIP package .*an older \.doc must be saved as \.docx first"):
        list(read_items(tmp_path / "old.docx", Settings(format="docx")))
    with zipfile.ZipFile(tmp_path / "sheet.docx", "w") as written:
        written.writestr("xl/workbook.xml", "<workbook/>")
    with pytest.raises(JobRefused, match="no word/document.xml: not a Word document"):
        list(read_items(tmp_path / "sheet.docx", Settings(format="docx")))
    bomb = tmp_path / "bomb.docx"  # a few kilobytes that unpack to more than a part may hold
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as written, written.open("word/document.xml", "w") as part:
        part.write(PACKAGE_START.encode())
        for _ in range(office.MAX_PART_BYTES >> 20):
            part.write(b" " * (1 << 20))
    assert bomb.stat().st_size < office.MAX_PART_BYTES // 500
    with pytest.raises(JobRefused, match=r"word/document\.xml holds 268,435,\d\d\d bytes unpacked, more than the "
                                         r"268,435,456 this job reads into memory: split the document"):
        list(read_items(bomb, Settings(format="docx")))
    broken = package(tmp_path / "broken.docx", ["<w:p><w:r><w:t>The dog</w:r></w:p>"])
    with pytest.raises(JobRefused, match="word/document.xml: not well-formed XML: mismatched tag at line 2"):
        list(read_items(broken, Settings(format="docx")))


TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
ODT_START = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:'
             f'opendocument:xmlns:office:1.0" xmlns:text="{TEXT}" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:'
             'style:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"><office:automatic-styles><style:style '
             'style:name="P1" style:family="paragraph" style:parent-style-name="Preformatted_20_Text"/>'
             '</office:automatic-styles><office:body><office:text>')
ODT_BODY = [
    '<text:h text:outline-level="1"><text:bookmark-start text:name="a"/>Where is the station<text:bookmark-end '
    'text:name="a"/></text:h>',
    '<text:p>The <text:span text:style-name="T1">apples</text:span> were<text:s text:c="2"/>cheap <text:a '
    'xlink:href="https://example.com">today</text:a><text:tab/>in <text:span text:style-name="Source_Text">~/.dog'
    '</text:span>.<text:note text:id="n1"><text:note-citation>1</text:note-citation><text:note-body><text:p>The '
    'dog.</text:p></text:note-body></text:note><text:soft-page-break/></text:p>',
    '<text:p text:style-name="P1">make the dog</text:p>',
    '<text:p><text:change-start text:change-id="c1"/>I eat<text:change-end text:change-id="c1"/> an apple.</text:p>',
]
ODT_STYLES = ('<?xml version="1.0"?><office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:'
              f'1.0" xmlns:text="{TEXT}" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
              'xmlns:fo="urn:fo">'
              '<office:styles><style:default-style style:family="paragraph"><style:text-properties fo:language="en" '
              'fo:country="US"/></style:default-style></office:styles><office:master-styles><style:master-page '
              'style:name="Standard"><style:header><text:p>The cat</text:p></style:header></style:master-page>'
              '</office:master-styles></office:document-styles>')


def odt_package(path: Path, body: list[str]) -> Path:
    """An .odt package as LibreOffice writes one: its mimetype first and stored, content, styles, a picture."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as written:
        written.writestr("mimetype", "application/vnd.oasis.opendocument.text", compress_type=zipfile.ZIP_STORED)
        written.writestr("content.xml", ODT_START + "".join(body) + "</office:text></office:body>"
                                                                     "</office:document-content>")
        written.writestr("styles.xml", ODT_STYLES)
        written.writestr("Pictures/1.png", b"\x89PNG\r\n\x1a\n\x00\xff")
    return path


def odt_shown(xml: str) -> list[str]:
    """Each paragraph's and heading's text as a reader shows it (a footnote's within its paragraph's too), in
    document order."""
    def text(element) -> str:
        shown = element.text or ""
        for child in element:
            if child.tag == f"{{{TEXT}}}s":
                shown += " " * int(child.get(f"{{{TEXT}}}c", "1"))
            elif child.tag == f"{{{TEXT}}}tab":
                shown += "\t"
            else:
                shown += text(child)
            shown += child.tail or ""
        return shown
    return [text(element) for element in ElementTree.fromstring(xml.encode()).iter()
            if element.tag in (f"{{{TEXT}}}p", f"{{{TEXT}}}h")]


def test_an_opendocument_texts_paragraphs_are_sent_as_html_of_their_spans(tmp_path):
    """Each paragraph and heading with a letter is one item (a footnote's after the paragraph that holds it, the
    headers' after the body's): text in another style's span in <span>, a link as <a>, runs of spaces as spaces, and
    a tab, code and a footnote kept (<x/>); bookmarks go to the start, a page break the layout made is dropped. A
    paragraph in a code style (an automatic style based on Preformatted Text) or with tracked changes is not
    sent."""
    source = odt_package(tmp_path / "report.odt", ODT_BODY)
    assert [(item.line, item.id, item.text) for item in read_items(source, Settings(format="odt"))] == [
        (1, "content.xml#1", "Where is the station"),
        (2, "content.xml#2", 'The <span id="1">apples</span> were  cheap <a id="0">today</a><x id="0"/>in '
                             '<x id="1"/>.<x id="2"/>'),
        (3, "content.xml#3", "The dog."),
        (6, "styles.xml#1", "The cat")]
    parts = odt.FORMAT.read(source)
    same = odt.FORMAT.filled(parts, {number: text for number, _, text in odt.FORMAT.items(parts)})
    assert odt_shown(same["content.xml"]) == odt_shown(parts["content.xml"])
    assert odt_shown(same["styles.xml"]) == ["The cat"] and 'fo:language="de" fo:country="DE"' in same["styles.xml"]
    assert "soft-page-break" not in same["content.xml"] and ODT_BODY[2] in same["content.xml"]
    assert odt.FORMAT.tracked(parts) == 1  # the paragraph with a change: the job says it stayed as it was


def test_an_opendocument_footnote_keeps_its_translation_in_its_paragraph():
    """The footnote's paragraph is filled first, then the paragraph that holds it, made from its own translation
    with the footnote kept; spaces a reader would join or drop go as <text:s/>: a run's second and later, a space
    after one a span ended with, a paragraph's first (LibreOffice's footnotes start with one)."""
    parts = {"content.xml": ODT_START + ODT_BODY[1] + "</office:text></office:body></office:document-content>"}
    translation = 'Die <span id="1">Äpfel</span> waren  <a id="0">heute</a> billig<x id="0"/>in <x id="1"/>.'
    filled = odt.FORMAT.filled(parts, {1: translation, 2: "Der Hund."})["content.xml"]
    assert odt_shown(filled) == ["Die Äpfel waren  heute billig\tin ~/.dog.1Der Hund.", "Der Hund."]
    assert '<text:span text:style-name="T1">Äpfel</text:span> waren <text:s text:c="1"/>' in filled
    spaced = odt.FORMAT.filled(parts, {1: 'Die <span id="1">Äpfel </span> waren.', 2: " Der Hund."})["content.xml"]
    assert '<text:p>Die <text:span text:style-name="T1">Äpfel </text:span><text:s text:c="1"/>waren.' in spaced
    assert '<text:p><text:s text:c="1"/>Der Hund.</text:p>' in spaced


def test_an_opendocument_text_is_translated_and_its_package_kept(server, tmp_path):  # noqa: F811 (the fixture)
    """Through the server: the package entry for entry, its mimetype first and stored (as readers need), each
    translated paragraph filled from the job's record of it."""
    source = odt_package(tmp_path / "report.odt", ODT_BODY)
    with translated_as_recorded(server, source, odt.FORMAT, "4 items: 4 translated, 0 failed") as (before, after):
        assert after.infolist()[0].filename == "mimetype" and after.infolist()[0].compress_type == zipfile.ZIP_STORED
        assert [entry.filename for entry in after.infolist()] == [entry.filename for entry in before.infolist()]
    with pytest.raises(JobRefused, match=r"no content\.xml: not an OpenDocument text, presentation or spreadsheet "
                                         r"\(\.odt, \.odp, \.ods\)"):
        list(read_items(package(tmp_path / "word.odt", BODY), Settings(format="odt")))  # a .docx named .odt


DRAWING = "http://schemas.openxmlformats.org/drawingml/2006/main"
SLIDE_START = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld xmlns:a="{DRAWING}" xmlns:p="urn:p" '
               'xmlns:r="urn:r"><p:cSld><p:spTree><p:sp><p:txBody><a:bodyPr/>')
SLIDE_END = "</p:txBody></p:sp></p:spTree></p:cSld></p:sld>"
SLIDE_BODY = [
    '<a:p><a:pPr lvl="1"/><a:r><a:rPr lang="en-US"/><a:t>The </a:t></a:r><a:r><a:rPr lang="en-US" b="1"/><a:t>apples'
    '</a:t></a:r><a:r><a:rPr lang="en-US"/><a:t> were cheap at </a:t></a:r><a:r><a:rPr lang="en-US"><a:hlinkClick '
    'r:id="rId2"/></a:rPr><a:t>the shop</a:t></a:r><a:br><a:rPr lang="en-US"/></a:br><a:r><a:rPr lang="en-US"><a:latin '
    'typeface="Courier"/></a:rPr><a:t>make the dog</a:t></a:r><a:fld id="{1}" type="slidenum"><a:t>4</a:t></a:fld>'
    '<a:endParaRPr lang="en-US"/></a:p>',
    '<a:p><a:r><a:rPr lang="en-US"/><a:t>42</a:t></a:r></a:p>',
]


def pptx_package(path: Path) -> Path:
    """A .pptx package: its presentation, a slide (a layout's prompt is not read), the slide's notes, a picture."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as written:
        written.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="urn:ct"/>')
        written.writestr("ppt/presentation.xml", '<?xml version="1.0"?><p:presentation xmlns:p="urn:p"/>')
        written.writestr("ppt/slides/slide1.xml", SLIDE_START + "".join(SLIDE_BODY) + SLIDE_END)
        written.writestr("ppt/slideLayouts/slideLayout1.xml", SLIDE_START + '<a:p><a:r><a:t>Click to edit Master '
                         "title style</a:t></a:r></a:p>" + SLIDE_END)
        written.writestr("ppt/notesSlides/notesSlide1.xml", SLIDE_START + "<a:p><a:r><a:t>Say where the station is."
                         "</a:t></a:r></a:p>" + SLIDE_END)
        written.writestr("ppt/media/image1.png", b"\x89PNG\r\n\x1a\n\x00\xff")
    return path


def slide_shown(xml: str) -> list[str]:
    return ["".join(text.text or "" for text in paragraph.iter(f"{{{DRAWING}}}t"))
            for paragraph in ElementTree.fromstring(xml.encode()).iter(f"{{{DRAWING}}}p")]


def test_a_presentations_slides_and_notes_are_sent_and_filled_in(tmp_path):
    """Each paragraph of the slides, then of their notes, with a letter is one item (layouts and masters are not
    read): runs in another format, a link's too, in spans; a line break, a field and code (a typewriter's font)
    kept. Written back with its own texts it shows the same, its properties first and its end-of-paragraph
    properties last; translated, its runs' language is German."""
    source = pptx_package(tmp_path / "talk.pptx")
    assert [(item.line, item.id, item.text) for item in read_items(source, Settings(format="pptx"))] == [
        (1, "ppt/slides/slide1.xml#1", 'The <span id="1">apples</span> were cheap at <span id="2">the shop</span>'
                                       '<x id="0"/><x id="1"/><x id="2"/>'),
        (3, "ppt/notesSlides/notesSlide1.xml#1", "Say where the station is.")]
    parts = pptx.FORMAT.read(source)
    same = pptx.FORMAT.filled(parts, {number: text for number, _, text in pptx.FORMAT.items(parts)})
    assert slide_shown(same["ppt/slides/slide1.xml"]) == slide_shown(parts["ppt/slides/slide1.xml"])
    translation = 'Die <span id="1">Äpfel</span> waren billig im <span id="2">Laden</span><x id="0"/><x id="2"/>'
    slide = pptx.FORMAT.filled(parts, {1: translation})["ppt/slides/slide1.xml"]
    assert slide_shown(slide) == ["Die Äpfel waren billig im Laden4make the dog", "42"]
    assert '<a:p><a:pPr lvl="1"/><a:r><a:rPr lang="de-DE"/><a:t>Die </a:t></a:r><a:r><a:rPr lang="de-DE" b="1"/>' \
           "<a:t>Äpfel</a:t>" in slide and '<a:endParaRPr lang="en-US"/></a:p>' in slide


CLASSIC_COMMENTS = ('<?xml version="1.0"?><p:cmLst xmlns:p="urn:p"><p:cm authorId="0" idx="1"><p:pos x="1" y="1"/>'
                    "<p:text>Check the price.\nAsk Ann &amp; Bob.</p:text></p:cm></p:cmLst>")
MODERN_COMMENTS = (f'<?xml version="1.0"?><p188:cmLst xmlns:a="{DRAWING}" xmlns:p188="urn:p188"><p188:cm id="{{1}}">'
                   '<p188:replyLst><p188:reply id="{2}"><p188:txBody><a:bodyPr/><a:p><a:r><a:t>Done.</a:t></a:r>'
                   '</a:p></p188:txBody></p188:reply></p188:replyLst><p188:txBody><a:bodyPr/><a:p><a:r><a:rPr b="1"/>'
                   '<a:t>Too</a:t></a:r><a:r><a:t> long.</a:t></a:r></a:p></p188:txBody></p188:cm><p188:cm id="{3}">'
                   '<p188:txBody><a:p><a:r><a:t>@Ann please look</a:t></a:r></a:p></p188:txBody><p188:extLst>'
                   '<p:ext xmlns:p="urn:p"><p223:mention xmlns:p223="urn:p223" start="0" len="4"/></p:ext>'
                   '</p188:extLst></p188:cm></p188:cmLst>')


def test_a_presentations_comments_are_sent_after_the_rest_but_threads_with_mentions(tmp_path):
    """PowerPoint's classic comments (their text characters alone, line breaks kept) and its modern ones (DrawingML's
    paragraphs, replies too) are items, numbered after every paragraph read before; a thread that mentions someone
    is not sent, since a translation would move the mention's place in its text."""
    source = pptx_package(tmp_path / "talk.pptx")
    before = pptx.FORMAT.count(pptx.FORMAT.read(source))
    modern = "ppt/comments/modernComment_256_4F1A2B3C.xml"
    with zipfile.ZipFile(source, "a") as package:
        package.writestr(modern, MODERN_COMMENTS)
        package.writestr("ppt/comments/comment1.xml", CLASSIC_COMMENTS)
    parts = pptx.FORMAT.read(source)
    assert list(pptx.FORMAT.items(parts))[-3:] == [
        (before + 1, "ppt/comments/comment1.xml#1", 'Check the price.<x id="0"/>Ask Ann &amp; Bob.'),
        (before + 2, f"{modern}#1", "Done."), (before + 3, f"{modern}#2", '<span id="0">Too</span> long.')]
    assert pptx.FORMAT.count(parts) == before + 4
    filled = pptx.FORMAT.filled(parts, {before + 1: 'Preis prüfen.<x id="0"/>Ann &amp; Bob fragen.',
                                        before + 3: '<span id="0">Zu</span> lang.'})
    assert "<p:text>Preis prüfen.\nAnn &amp; Bob fragen.</p:text>" in filled["ppt/comments/comment1.xml"]
    assert slide_shown(filled[modern]) == ["Done.", "Zu lang.", "@Ann please look"]

def test_a_presentation_is_translated_and_its_package_kept(server, tmp_path):  # noqa: F811 (the fixture)
    """Through the server: the package entry for entry, a layout's prompt as it was, the slide and the notes filled
    from the job's records."""
    source = pptx_package(tmp_path / "talk.pptx")
    with translated_as_recorded(server, source, pptx.FORMAT, "2 items: 2 translated, 0 failed") as (before, after):
        assert after.read("ppt/slideLayouts/slideLayout1.xml") == before.read("ppt/slideLayouts/slideLayout1.xml")
    with pytest.raises(JobRefused, match=r"no ppt/presentation\.xml: not a PowerPoint presentation \(\.pptx\)"):
        list(read_items(package(tmp_path / "word.pptx", BODY), Settings(format="pptx")))  # a .docx named .pptx


S = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
BOLD_RUN = '<rPr><b/><sz val="11"/></rPr>'
SHARED = [
    "<t>Where is the station?</t>",
    f'<r><t xml:space="preserve">The </t></r><r>{BOLD_RUN}<t>red</t></r><r><t xml:space="preserve"> car</t></r>',
    '<t xml:space="preserve">Total_x000D_\nper month</t>',  # a line break in the cell: Excel's CR escaped
    "<t>Done</t>", "<t>open</t>", "<t>Blocked</t>", "<t>Status</t>",  # named by a formula, a list, a filter, a table
    "<t>42</t>", "<t>Price &amp; tax</t>",
    '<t>Cats</t><rPh sb="0" eb="1"><t>kyatto</t></rPh><phoneticPr fontId="1"/>',  # a phonetic guide (Japanese's)
]
SHEET_XML = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="{S}"><sheetData><row r="1">'
             '<c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>The dog sleeps.</t></is></c>'
             '<c r="C1"><f>COUNTIF(D:D,"Done")</f><v>1</v></c><c r="D1" t="s"><v>3</v></c><c r="E1"><f>IF(A1="",'
             '"Cats, dogs","")</f></c></row></sheetData>'
             '<autoFilter ref="A1:D1"><filterColumn colId="3"><filters><filter val="Blocked"/></filters>'
             '</filterColumn></autoFilter><dataValidations count="1"><dataValidation type="list" sqref="D2">'
             '<formula1>"Done,Open"</formula1></dataValidation></dataValidations></worksheet>')
WORKBOOK_XML = (f'<?xml version="1.0"?><workbook xmlns="{S}"><sheets><sheet name="Sheet1" sheetId="1"/></sheets>'
                '</workbook>')
TABLE_XML = (f'<?xml version="1.0"?><table xmlns="{S}" id="1" name="T" ref="A1:B2"><tableColumns count="1">'
             '<tableColumn id="1" name="Status"/></tableColumns></table>')
COMMENTS_XML = (f'<?xml version="1.0"?><comments xmlns="{S}"><authors><author>Ann</author></authors><commentList>'
                '<comment ref="A1" authorId="0"><text><r><rPr><b/></rPr><t>Ann:</t></r><r><t xml:space="preserve">\n'
                'Check the price.</t></r></text></comment></commentList></comments>')


def shared_strings(strings: list[str]) -> str:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="{S}" count="{len(strings)}" '
            f'uniqueCount="{len(strings)}">' + "".join(f"<si>{string}</si>" for string in strings) + "</sst>")


def xlsx_package(path: Path, strings: list[str] = SHARED) -> Path:
    """An .xlsx package as Excel lays one out: the workbook, its shared strings, a sheet, a table, notes, a picture."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as written:
        written.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="urn:ct"/>')
        written.writestr("xl/workbook.xml", WORKBOOK_XML)
        written.writestr("xl/sharedStrings.xml", shared_strings(strings))
        written.writestr("xl/worksheets/sheet1.xml", SHEET_XML)
        written.writestr("xl/tables/table1.xml", TABLE_XML)
        written.writestr("xl/comments1.xml", COMMENTS_XML)
        written.writestr("xl/media/image1.png", b"\x89PNG\r\n\x1a\n\x00\xff", compress_type=zipfile.ZIP_STORED)
    return path


def xlsx_shown(xml: str, element: str = "si") -> list[str]:
    """Each string's text as Excel shows it (its runs' text joined, phonetic guides not), escapes read."""
    def text(node) -> str:
        return "".join(child.text or "" if child.tag == f"{{{S}}}t" else text(child) for child in node
                       if child.tag in (f"{{{S}}}t", f"{{{S}}}r"))
    return [xlsx.unescaped(text(node)) for node in ElementTree.fromstring(xml.encode()).iter(f"{{{S}}}{element}")]


def test_an_excel_workbooks_strings_are_sent_once_as_html_of_their_runs(tmp_path):
    """Each shared string with a letter is one item, whatever the cells showing it; then a sheet's inline string and a
    note. A run formatted otherwise goes in a span, a line break in the cell is kept (<x/>: HTML would read it as a
    space), a phonetic guide stays after the text. Not sent: a string a formula, a data validation's list, a filter
    or a table's column names as a value (any case, as Excel compares), and one without a letter."""
    source = xlsx_package(tmp_path / "book.xlsx")
    assert [(item.line, item.id, item.text) for item in read_items(source, Settings(format="xlsx"))] == [
        (1, "xl/sharedStrings.xml#1", "Where is the station?"),
        (2, "xl/sharedStrings.xml#2", 'The <span id="1">red</span> car'),
        (3, "xl/sharedStrings.xml#3", 'Total<x id="0"/>per month'),
        (9, "xl/sharedStrings.xml#9", "Price &amp; tax"),
        (10, "xl/sharedStrings.xml#10", "Cats"),
        (11, "xl/worksheets/sheet1.xml#1", "The dog sleeps."),
        (12, "xl/comments1.xml#1", '<span id="0">Ann:</span><x id="0"/>Check the price.')]
    parts = xlsx.FORMAT.read(source)
    assert set(parts) == {"xl/workbook.xml", "xl/sharedStrings.xml", "xl/worksheets/sheet1.xml",
                          "xl/tables/table1.xml", "xl/comments1.xml"}
    same = xlsx.FORMAT.filled(parts, {number: text for number, _, text in xlsx.FORMAT.items(parts)})
    for name, element in [("xl/sharedStrings.xml", "si"), ("xl/worksheets/sheet1.xml", "is"),
                          ("xl/comments1.xml", "text")]:
        assert xlsx_shown(same[name], element) == xlsx_shown(parts[name], element)
    assert '<si><t xml:space="preserve">Total_x000D_\nper month</t></si>' in same["xl/sharedStrings.xml"]  # one <t>
    assert '<rPh sb="0" eb="1"><t>kyatto</t></rPh><phoneticPr fontId="1"/></si>' in same["xl/sharedStrings.xml"]


def test_an_excel_translation_makes_runs_where_its_markup_went():
    """A rich string's runs are made from the translation, a span's text in its run's properties; a plain string
    stays one <t>, with its line break; Excel's escapes are written for what XML cannot hold and for text that would
    read as one."""
    parts = {"xl/sharedStrings.xml": shared_strings(SHARED[:3]), "xl/workbook.xml": WORKBOOK_XML}
    filled = xlsx.FORMAT.filled(parts, {1: "Wo ist _x0041_ der\x07 Bahnhof?", 2: 'Das <span id="1">rote</span> Auto',
                                        3: 'Gesamt<x id="0"/>pro Monat'})["xl/sharedStrings.xml"]
    assert xlsx_shown(filled) == ["Wo ist _x0041_ der\x07 Bahnhof?", "Das rote Auto", "Gesamt\r\npro Monat"]
    assert "<t xml:space=\"preserve\">Wo ist _x005F_x0041_ der_x0007_ Bahnhof?</t>" in filled
    assert f'<r>{BOLD_RUN}<t xml:space="preserve">rote</t></r>' in filled
    assert '<si><t xml:space="preserve">Gesamt_x000D_\npro Monat</t></si>' in filled


def test_an_excel_workbook_is_translated_and_its_package_kept(server, tmp_path):  # noqa: F811 (the fixture)
    """Through the server: the package entry for entry (each entry's compression kept), its strings filled from the
    job's record of them; what formulas, lists, filters and tables name stays as it was, so they still find it."""
    source = xlsx_package(tmp_path / "book.xlsx")
    with translated_as_recorded(server, source, xlsx.FORMAT, "7 items: 7 translated, 0 failed") as (before, after):
        assert [(entry.filename, entry.compress_type) for entry in after.infolist()] == \
            [(entry.filename, entry.compress_type) for entry in before.infolist()]
        strings = xlsx_shown(after.read("xl/sharedStrings.xml").decode())
        assert strings[3:8] == ["Done", "open", "Blocked", "Status", "42"]
        assert strings[0] != "Where is the station?"
        assert xlsx_shown(after.read("xl/worksheets/sheet1.xml").decode(), "is") != ["The dog sleeps."]
    with pytest.raises(JobRefused, match=r"not a ZIP package .*an older \.xls must be saved as \.xlsx first"):
        (tmp_path / "old.xlsx").write_bytes(b"\xd0\xcf\x11\xe0 an OLE2 .xls renamed")
        list(read_items(tmp_path / "old.xlsx", Settings(format="xlsx")))


OPF = ('<?xml version="1.0" encoding="UTF-8"?>\n<package version="3.0" xmlns="http://www.idpf.org/2007/opf" unique-'
       'identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:1'
       '</dc:identifier><dc:title>The Station</dc:title><dc:language>en-GB</dc:language><dc:description>A short '
       'book about &lt;trains&gt;.</dc:description></metadata><manifest/><spine/></package>')
NCX = ('<?xml version="1.0" encoding="UTF-8"?>\n<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">'
       '<docTitle><text>The Station</text></docTitle><navMap><navPoint id="n1"><navLabel><text>The first train'
       '</text></navLabel><content src="ch1.xhtml"/></navPoint></navMap></ncx>')
CHAPTER = ('<?xml version="1.0" encoding="UTF-8"?>\r\n<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">\r\n'
           '<head><title>The first train</title>\r\n<style>p { color: red; }</style></head>\r\n<body>\r\n\r\n'
           '<h1>The first train</h1>\r\n<p>The train was <em>late</em>,\r\nand the station was cold.</p>\r\n\r\n'
           '<pre>make install</pre>\r\n\r\n<p>42</p>\r\n</body></html>\r\n')
BROKEN_PAGE = '<html><body><p>Where is the dog?<br></p>\n</body></html>\n'  # HTML, not XML: read as a page is


def epub_package(path: Path, chapter: str = CHAPTER, opf: str = OPF) -> Path:
    """An .epub package as EPUB readers need one: its mimetype first and stored, the container, the package document,
    a table of contents, two pages, a style sheet and a picture."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as written:
        written.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        written.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:'
                         'names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" '
                         'media-type="application/oebps-package+xml"/></rootfiles></container>')
        written.writestr("OEBPS/content.opf", opf)
        written.writestr("OEBPS/toc.ncx", NCX)
        written.writestr("OEBPS/ch1.xhtml", chapter)
        written.writestr("OEBPS/ch2.html", BROKEN_PAGE)
        written.writestr("OEBPS/style.css", "p { margin: 0; }")
        written.writestr("OEBPS/cover.png", b"\x89PNG\r\n\x1a\n\x00\xff", compress_type=zipfile.ZIP_STORED)
    return path


def test_an_epub_books_pages_are_sent_as_web_pages_and_its_titles_too(tmp_path):
    """Each page's runs of lines between blank lines are items of HTML (numbered by their first line across the
    parts), a page that is not well-formed XML too; the package document's title and description and the table of
    contents' labels are items. Written back with their own texts, the book is as it was but for its language."""
    source = epub_package(tmp_path / "book.epub")
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en">\n'
            '<head><title>The first train</title>\n<style>p { color: red; }</style></head>\n<body>')
    assert [(item.line, item.id, item.text) for item in read_items(source, Settings(format="epub"))] == [
        (1, "OEBPS/content.opf#1", "The Station"),
        (2, "OEBPS/content.opf#2", "A short book about &lt;trains&gt;."),
        (3, "OEBPS/toc.ncx#3", "The Station"), (4, "OEBPS/toc.ncx#4", "The first train"),
        (5, "OEBPS/ch1.xhtml#5", head),
        (11, "OEBPS/ch1.xhtml#11", "<h1>The first train</h1>\n<p>The train was <em>late</em>,\nand the station was "
                                   "cold.</p>"),
        (15, "OEBPS/ch1.xhtml#15", "<pre>make install</pre>"), (17, "OEBPS/ch1.xhtml#17", "<p>42</p>\n</body></html>"),
        (19, "OEBPS/ch2.html#19", "<html><body><p>Where is the dog?<br></p>\n</body></html>")]
    parts = epub.FORMAT.read(source)
    same = epub.FORMAT.filled(parts, {number: text for number, _, text in epub.FORMAT.items(parts)})
    assert same == {**parts, "OEBPS/content.opf": OPF.replace("en-GB", "de")}


def test_a_packages_mimetype_is_written_first_and_stored(tmp_path):
    """Sphinx writes an EPUB book's mimetype after its container and style sheets (Debian's Developer's Reference:
    15th); EPUB's and OpenDocument's readers need it first and stored, so it is written so, the rest in order."""
    source = tmp_path / "sphinx.epub"
    with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as written:
        for name in ("META-INF/container.xml", "mimetype", "index.xhtml", "nav.xhtml"):
            written.writestr(name, "application/epub+zip" if name == "mimetype" else f"<html>{name}</html>")
    office.write(source, {"index.xhtml": "<html>Hallo</html>"}, tmp_path / "out.epub")
    with zipfile.ZipFile(tmp_path / "out.epub") as written:
        assert [(entry.filename, entry.compress_type) for entry in written.infolist()] == [
            ("mimetype", zipfile.ZIP_STORED), ("META-INF/container.xml", zipfile.ZIP_DEFLATED),
            ("index.xhtml", zipfile.ZIP_DEFLATED), ("nav.xhtml", zipfile.ZIP_DEFLATED)]
        assert written.read("mimetype") == b"application/epub+zip"
        assert written.read("index.xhtml") == b"<html>Hallo</html>"


def test_an_epub_book_is_translated_and_its_package_kept(server, tmp_path):  # noqa: F811 (the fixture)
    """Through the server: the package entry for entry, its mimetype first and stored, the pages well-formed where
    they were, the style sheet and the code as written, the language German, the page's line ends its own."""
    source = epub_package(tmp_path / "book.epub")
    with translated_as_recorded(server, source, epub.FORMAT, "9 items: 9 translated, 0 failed") as (before, after):
        assert after.infolist()[0].filename == "mimetype" and after.infolist()[0].compress_type == zipfile.ZIP_STORED
        assert [entry.filename for entry in after.infolist()] == [entry.filename for entry in before.infolist()]
        chapter = after.read("OEBPS/ch1.xhtml").decode()
        ElementTree.fromstring(chapter.encode())
        assert 'xml:lang="de"' in chapter and "<style>p { color: red; }</style>" in chapter
        assert "<pre>make install</pre>" in chapter and "The train" not in chapter
        assert "\n" not in chapter.replace("\r\n", "")  # every line ending the page's
        assert "<dc:language>de</dc:language>" in after.read("OEBPS/content.opf").decode()
    with pytest.raises(JobRefused, match=r"no META-INF/container\.xml: not an EPUB book \(\.epub\)"):
        list(read_items(xlsx_package(tmp_path / "book.xlsx").rename(tmp_path / "sheet.epub"), Settings(format="epub")))
    nested = tmp_path / "nested.epub"  # Debian Edu's manual: the book's parts zipped inside a folder
    with zipfile.ZipFile(epub_package(tmp_path / "inner.epub")) as inner, zipfile.ZipFile(nested, "w") as written:
        for entry in inner.infolist():
            written.writestr("epub/" + entry.filename, inner.read(entry))
    with pytest.raises(JobRefused, match=r"\(its parts lie in the folder epub/: zip them from inside it\)"):
        list(read_items(nested, Settings(format="epub")))
    locked = epub_package(tmp_path / "locked.epub", chapter="")
    with zipfile.ZipFile(locked, "a") as written:
        written.writestr("OEBPS/ch3.xhtml", bytes(range(256)))  # what an encrypted page reads as
        written.writestr("META-INF/encryption.xml", '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:'
                         'container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:CipherData>'
                         '<enc:CipherReference URI="OEBPS/ch3.xhtml"/></enc:CipherData></enc:EncryptedData>'
                         '</encryption>')
    with pytest.raises(JobRefused, match=r"its pages are encrypted \(OEBPS/ch3\.xhtml\.\.\.: DRM\)"):
        list(read_items(locked, Settings(format="epub")))
    broken = epub_package(tmp_path / "broken.epub", opf=OPF.replace("</metadata>", ""))
    with pytest.raises(JobRefused, match=r"OEBPS/content\.opf: not well-formed XML"):
        list(read_items(broken, Settings(format="epub")))


ODP_CONTENT = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:'
               f'opendocument:xmlns:office:1.0" xmlns:text="{TEXT}" xmlns:style="urn:oasis:names:tc:opendocument:'
               'xmlns:style:1.0" xmlns:draw="urn:draw" xmlns:presentation="urn:presentation" xmlns:svg="urn:svg" '
               'xmlns:fo="urn:fo"><office:font-face-decls><style:font-face style:name="Courier" svg:font-family='
               '"Courier" style:font-pitch="fixed"/><style:font-face style:name="Calibri1" svg:font-family="Calibri" '
               'style:font-pitch="variable"/></office:font-face-decls><office:automatic-styles><style:style '
               'style:name="T1" style:family="text"><style:text-properties style:font-name="Calibri1"/></style:style>'
               '<style:style style:name="T2" style:family="text"><style:text-properties style:font-name="Courier"/>'
               '</style:style><style:style style:name="P1" style:family="paragraph"/></office:automatic-styles>'
               '<office:body><office:presentation><draw:page draw:name="page1"><draw:frame><draw:text-box><text:p '
               'text:style-name="P1"><text:span text:style-name="T1">Run </text:span><text:span text:style-name="T2">'
               'npx the dog</text:span><text:span text:style-name="T1"> now.</text:span></text:p><text:p><text:span '
               'text:style-name="T2">make the dog</text:span></text:p></draw:text-box></draw:frame><presentation:notes>'
               '<draw:frame><draw:text-box><text:p>Say hello.</text:p></draw:text-box></draw:frame>'
               '</presentation:notes></draw:page></office:presentation></office:body></office:document-content>')
ODP_STYLES = ('<?xml version="1.0"?><office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:'
              f'1.0" xmlns:text="{TEXT}" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
              'xmlns:draw="urn:draw"><office:master-styles><style:master-page style:name="Default"><draw:frame>'
              '<draw:text-box><text:p>Click to edit Master title style</text:p></draw:text-box></draw:frame>'
              '</style:master-page></office:master-styles></office:document-styles>')


def test_an_opendocument_presentations_slides_and_notes_are_sent_its_masters_and_code_not(tmp_path):
    """An Impress presentation is read as an OpenDocument text: each paragraph of its slides and notes; not its
    masters' prompts; text in a typewriter's font (its declaration's fixed pitch) is code, kept (<x/>), and a
    paragraph of code alone is not sent."""
    source = tmp_path / "talk.odp"
    with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as written:
        written.writestr("mimetype", "application/vnd.oasis.opendocument.presentation",
                         compress_type=zipfile.ZIP_STORED)
        written.writestr("content.xml", ODP_CONTENT)
        written.writestr("styles.xml", ODP_STYLES)
    assert [(item.line, item.id, item.text) for item in read_items(source, Settings(format="odp"))] == [
        (1, "content.xml#1", 'Run <x id="0"/> now.'), (3, "content.xml#3", "Say hello.")]
    parts = odt.FORMAT.read(source)
    filled = odt.FORMAT.filled(parts, {1: 'Führe <x id="0"/> jetzt aus.', 3: "Sag hallo."})
    assert odt_shown(filled["content.xml"]) == ["Führe npx the dog jetzt aus.", "make the dog", "Sag hallo."]
    assert "Click to edit Master title style" in filled["styles.xml"]


CHART = ('<?xml version="1.0"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" '
         'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:bodyPr/>'
         '<a:p><a:r><a:rPr lang="en-US" b="1"/><a:t>Sales by month</a:t></a:r></a:p></c:rich></c:tx></c:title>'
         '<c:plotArea><c:barChart><c:ser><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:pt idx="0"><c:v>Sales'
         '</c:v></c:pt></c:strCache></c:strRef></c:tx></c:ser></c:barChart></c:plotArea><c:txPr><a:bodyPr/><a:p>'
         '<a:pPr><a:defRPr sz="1000"/></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr></c:chart></c:chartSpace>')


@pytest.mark.parametrize("document, parts, chart", [
    (docx.FORMAT, {"word/document.xml": PACKAGE_START + BODY[0] + "</w:body></w:document>"}, "word/charts/chart1.xml"),
    (pptx.FORMAT, {}, "ppt/charts/chart1.xml"),
    (xlsx.FORMAT, {"xl/workbook.xml": WORKBOOK_XML, "xl/sharedStrings.xml": shared_strings(SHARED[:1])},
     "xl/charts/chart1.xml"),
])
def test_a_charts_titles_are_sent_after_the_documents_own_paragraphs(document, parts, chart):
    """Word's, PowerPoint's and Excel's charts: each paragraph of their rich text (a title, an axis's) is an item,
    numbered after the document's own (whose numbers stay as they were); the series' names, which cells give, are
    not, nor the text properties' paragraphs without text. The translated run's language is German."""
    own = list(document.items(parts))
    parts = {**parts, chart: CHART}
    assert list(document.items(parts)) == [*own, (len(own) + 1, f"{chart}#1", "Sales by month")]
    filled = document.filled(parts, {len(own) + 1: "Verkauf nach Monat"})[chart]
    assert '<a:r><a:rPr lang="de-DE" b="1"/><a:t>Verkauf nach Monat</a:t></a:r>' in filled
    assert "<c:v>Sales</c:v>" in filled


THREADED_XML = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<ThreadedComments xmlns="urn:tc">'
                '<threadedComment ref="A1" personId="{P}" id="{1}"><text>Is the price right?</text></threadedComment>'
                '<threadedComment ref="A1" personId="{P}" id="{2}" parentId="{1}"><text>Yes &amp; no:_x000D_\n'
                'ask</text></threadedComment><threadedComment ref="B1" personId="{P}" id="{3}"><text>@Ann Sutton check '
                'this</text><mentions><mention mentionpersonId="{A}" mentionId="{M}" startIndex="0" length="11"/>'
                '</mentions></threadedComment></ThreadedComments>')


def test_excels_threaded_comments_are_sent_after_the_rest_but_those_with_mentions(tmp_path):
    """Excel 365's comment threads: each comment's text is an item, numbered after every paragraph read before;
    its line breaks and escapes are kept. A comment that mentions someone is not sent: the mention's place in it is
    counted in characters, which a translation would move."""
    source = xlsx_package(tmp_path / "book.xlsx")
    before = xlsx.FORMAT.count(xlsx.FORMAT.read(source))
    with zipfile.ZipFile(source, "a") as package:
        package.writestr("xl/threadedComments/threadedComment1.xml", THREADED_XML)
    parts = xlsx.FORMAT.read(source)
    name = "xl/threadedComments/threadedComment1.xml"
    assert list(xlsx.FORMAT.items(parts))[-2:] == [(before + 1, f"{name}#1", "Is the price right?"),
                                                   (before + 2, f"{name}#2", 'Yes &amp; no:<x id="0"/>ask')]
    assert xlsx.FORMAT.count(parts) == before + 3
    filled = xlsx.FORMAT.filled(parts, {before + 1: "Stimmt der Preis?",
                                        before + 2: 'Ja &amp; nein:<x id="0"/>frag'})[name]
    assert filled == THREADED_XML.replace("Is the price right?", "Stimmt der Preis?").replace(
        "Yes &amp; no:_x000D_\nask", "Ja &amp; nein:_x000D_\nfrag")

CORE_XML = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cp:coreProperties xmlns:cp="urn:cp" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Where is the station?</dc:title><dc:subject>'
            '</dc:subject><dc:creator>Ann</dc:creator><dc:description>Prices &amp; times</dc:description>'
            '<dc:language>en-US</dc:language></cp:coreProperties>')
META_XML = ('<?xml version="1.0" encoding="UTF-8"?><office:document-meta xmlns:office="urn:office" xmlns:dc="http://'
            'purl.org/dc/elements/1.1/"><office:meta><dc:title>Where is the station?</dc:title>'
            '<dc:subject></dc:subject><dc:description>Prices &amp; times</dc:description><dc:language>en-US'
            '</dc:language></office:meta></office:document-meta>')


@pytest.mark.parametrize("document, made, part, xml", [
    (docx.FORMAT, lambda path: package(path, BODY), "docProps/core.xml", CORE_XML),
    (pptx.FORMAT, pptx_package, "docProps/core.xml", CORE_XML),
    (xlsx.FORMAT, xlsx_package, "docProps/core.xml", CORE_XML),
    (odt.FORMAT, lambda path: odt_package(path, ODT_BODY), "meta.xml", META_XML),
])
def test_a_documents_title_subject_and_description_are_sent_after_the_rest(tmp_path, document, made, part, xml):
    """A document's properties (its title, subject and description: shown in its properties, in a PDF made of it, in a
    cover page's fields bound to them) are items after every other, so earlier numbers stay; the author is not
    sent, and the language they name becomes German."""
    source = made(tmp_path / "document")
    before = document.count(document.read(source))
    with zipfile.ZipFile(source, "a") as written:
        written.writestr(part, xml)
    parts = document.read(source)
    assert list(document.items(parts))[-2:] == [(before + 1, f"{part}#1", "Where is the station?"),
                                                (before + 3, f"{part}#3", "Prices &amp; times")]
    filled = document.filled(parts, {before + 1: "Wo ist der Bahnhof?", before + 3: "Preise &amp; Zeiten"})[part]
    assert filled == xml.replace("Where is the station?", "Wo ist der Bahnhof?").replace(
        "Prices &amp; times", "Preise &amp; Zeiten").replace("en-US", "de-DE")

ALT_PICTURES = {  # a picture whose alternative text Office wrote (with its line breaks), and one named by its file
    "word/document.xml": ('<w:p><w:r><w:t>See the chart.</w:t></w:r><w:r><w:drawing><wp:inline xmlns:wp="urn:wp">'
                          '<wp:docPr id="1" name="Picture 1" descr="A chart of sales &amp; costs&#xA;&#xA;Description '
                          'automatically generated"/></wp:inline></w:drawing></w:r><w:r><w:drawing><wp:inline '
                          'xmlns:wp="urn:wp"><wp:docPr id="2" name="Picture 2" descr="logo.png"/></wp:inline>'
                          '</w:drawing></w:r></w:p>'),
    "ppt/slides/slide1.xml": ('<p:pic><p:nvPicPr><p:cNvPr id="4" name="Picture 3" descr="A chart of sales &amp; costs'
                              '&#xA;&#xA;Description automatically generated"/></p:nvPicPr></p:pic><p:pic><p:nvPicPr>'
                              '<p:cNvPr id="5" name="Picture 4" descr="logo.png"/></p:nvPicPr></p:pic>'),
    "xl/drawings/drawing1.xml": ('<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="2" name="Picture 1" descr="A chart of sales '
                                 '&amp; costs&#xA;&#xA;Description automatically generated"/></xdr:nvPicPr></xdr:pic>'
                                 '<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="3" name="Picture 2" descr="logo.png"/>'
                                 '</xdr:nvPicPr></xdr:pic>'),
}


@pytest.mark.parametrize("document, part", [(docx.FORMAT, "word/document.xml"), (pptx.FORMAT, "ppt/slides/slide1.xml"),
                                            (xlsx.FORMAT, "xl/drawings/drawing1.xml")])
def test_a_pictures_alternative_text_is_sent_last_its_line_breaks_kept(document, part):
    """A picture's alternative text (what a reader who cannot see it hears) is an item after all others, its line
    breaks kept; written where the same text was, escaped as an attribute's value. A file's name is not sent."""
    body = ALT_PICTURES[part]
    xml = (PACKAGE_START + body + "</w:body></w:document>" if part.startswith("word/")
           else f'<?xml version="1.0"?><root xmlns:p="urn:p" xmlns:xdr="urn:xdr">{body}</root>')
    parts = {part: xml, **({"xl/workbook.xml": WORKBOOK_XML} if part.startswith("xl/") else {})}
    items = list(document.items(parts))
    number = document.count(parts) - 1  # the first of the two alternative texts
    assert items[-1] == (number, f"{part}#descr1",
                         'A chart of sales &amp; costs<x id="0"/><x id="1"/>Description automatically generated')
    filled = document.filled(parts, {number: 'Ein Diagramm "Umsatz &amp; Kosten"<x id="0"/><x id="1"/>Beschreibung'})
    assert 'descr="Ein Diagramm &quot;Umsatz &amp; Kosten&quot;&#xA;&#xA;Beschreibung"' in filled[part]
    assert 'descr="logo.png"' in filled[part]


def test_an_opendocument_pictures_title_and_description_are_sent_last_their_line_breaks_kept():
    """LibreOffice's alternative text is a frame's (or a shape's) <svg:title> and <svg:desc>: items after all others,
    their line breaks kept, written back as an element's characters (a quotation mark as it was). A file's name is
    not sent."""
    frames = ('<text:p>See the chart.<draw:frame draw:name="Image1"><draw:image xlink:href="Pictures/1.png"/>'
              '<svg:title>Sales</svg:title><svg:desc>A chart of sales &amp; costs\n\nDescription automatically '
              'generated</svg:desc></draw:frame><draw:frame><draw:image xlink:href="Pictures/2.png"/>'
              '<svg:desc>logo.png</svg:desc><svg:title/></draw:frame></text:p>')
    parts = {"content.xml": ODT_START.replace("<office:document-content ", '<office:document-content xmlns:draw="urn:d"'
                                              ' xmlns:svg="urn:s" ') + frames + "</office:text></office:body>"
                                                                            "</office:document-content>"}
    items = list(odt.FORMAT.items(parts))
    assert items == [(1, "content.xml#1", 'See the chart.<x id="0"/><x id="1"/>'),
                     (2, "content.xml#descr1", "Sales"),
                     (3, "content.xml#descr2", 'A chart of sales &amp; costs<x id="0"/><x id="1"/>Description '
                                               'automatically generated')]
    filled = odt.FORMAT.filled(parts, {1: 'Siehe das Diagramm.<x id="0"/><x id="1"/>', 2: "Umsatz",
                                       3: 'Ein Diagramm "Umsatz &amp; Kosten"<x id="0"/><x id="1"/>Beschreibung'})
    content = filled["content.xml"]
    assert '<svg:title>Umsatz</svg:title><svg:desc>Ein Diagramm "Umsatz &amp; Kosten"\n\nBeschreibung</svg:desc>' \
        in content
    assert "<svg:desc>logo.png</svg:desc><svg:title/>" in content
    assert '<text:p>Siehe das Diagramm.<draw:frame draw:name="Image1">' in content


def test_a_pictures_alternative_text_goes_with_it_where_the_translation_moved_it():
    """Filled after the paragraphs, into what they wrote: the paragraph's translation put its pictures the other
    way round, and the alternative text is still the chart's."""
    parts = {"word/document.xml": PACKAGE_START + ALT_PICTURES["word/document.xml"] + "</w:body></w:document>"}
    assert list(docx.FORMAT.items(parts))[0] == (1, "word/document.xml#1", 'See the chart.<x id="0"/><x id="1"/>')
    filled = docx.FORMAT.filled(parts, {1: 'Siehe <x id="1"/>das Diagramm.<x id="0"/>',
                                        2: 'Ein Diagramm<x id="0"/><x id="1"/>Beschreibung'})
    document = filled["word/document.xml"]
    assert shown(document) == ["Siehe das Diagramm."]
    assert document.index('descr="logo.png"') < document.index('descr="Ein Diagramm&#xA;&#xA;Beschreibung"')

DIAGRAM_DATA = ('<?xml version="1.0"?><dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/'
                'diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst>'
                '<dgm:pt modelId="{1}" type="doc"><dgm:prSet phldr="1"/></dgm:pt><dgm:pt modelId="{2}">'
                '<dgm:prSet phldrT="[Text]"/><dgm:t><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t>Plan the trip</a:t>'
                '</a:r></a:p></dgm:t></dgm:pt><dgm:pt modelId="{3}" type="parTrans" cxnId="{4}"><dgm:t><a:bodyPr/>'
                '<a:p><a:endParaRPr lang="en-US"/></a:p></dgm:t></dgm:pt></dgm:ptLst></dgm:dataModel>')
DIAGRAM_DRAWING = ('<?xml version="1.0"?><dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/'
                   '2008/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dsp:spTree>'
                   '<dsp:sp modelId="{5}"><dsp:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t>Plan the trip'
                   '</a:t></a:r></a:p></dsp:txBody></dsp:sp></dsp:spTree></dsp:drawing>')


@pytest.mark.parametrize("document, entries, folder", [
    (docx.FORMAT, {"word/document.xml": PACKAGE_START + BODY[0] + "</w:body></w:document>",
                   "word/charts/chart1.xml": CHART}, "word/diagrams"),
    (pptx.FORMAT, {"ppt/presentation.xml": "<p:presentation xmlns:p='urn:p'/>", "ppt/charts/chart1.xml": CHART},
     "ppt/diagrams"),
    (xlsx.FORMAT, {"xl/workbook.xml": WORKBOOK_XML, "xl/sharedStrings.xml": shared_strings(SHARED[:1]),
                   "xl/charts/chart1.xml": CHART}, "xl/diagrams"),
])
def test_a_smartart_diagrams_text_is_sent_after_the_charts(tmp_path, document, entries, folder):
    """A SmartArt diagram's text is in its data (what Office lays it out from) and in its drawing (the shapes as last
    laid out, which LibreOffice shows): both are read, numbered after every paragraph read before (whose numbers stay
    as they were, so a resumed job's too); its connections' empty paragraphs are not sent."""
    def parts(diagram: dict[str, str]) -> dict[str, str]:
        with zipfile.ZipFile(tmp_path / "package", "w") as written:
            for name, xml in {**entries, **diagram}.items():
                written.writestr(name, xml)
        return document.read(tmp_path / "package")

    own, before = list(document.items(parts({}))), document.count(parts({}))
    parts = parts({f"{folder}/data1.xml": DIAGRAM_DATA, f"{folder}/drawing1.xml": DIAGRAM_DRAWING})
    data, drawing = before + 1, before + 3  # the drawing's after the data's two paragraphs (one empty)
    assert list(document.items(parts)) == [*own, (data, f"{folder}/data1.xml#1", "Plan the trip"),
                                           (drawing, f"{folder}/drawing1.xml#1", "Plan the trip")]
    filled = document.filled(parts, {data: "Die Reise planen", drawing: "Die Reise planen"})
    for part in ("data1.xml", "drawing1.xml"):
        assert '<a:r><a:rPr lang="de-DE"/><a:t>Die Reise planen</a:t></a:r>' in filled[f"{folder}/{part}"]
    assert 'phldrT="[Text]"' in filled[f"{folder}/data1.xml"]

ODS_CONTENT = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:'
               f'opendocument:xmlns:office:1.0" xmlns:text="{TEXT}" xmlns:table="urn:table" xmlns:dc="urn:dc">'
               '<office:body><office:spreadsheet><table:content-validations><table:content-validation table:name="v" '
               'table:condition="of:cell-content-is-in-list(&quot;Open&quot;;&quot;Done&quot;)"/>'
               '</table:content-validations><table:table table:name="Tasks"><table:table-row>'
               '<table:table-cell office:value-type="string"><text:p>Where is the station?</text:p></table:table-cell>'
               '<table:table-cell office:value-type="string"><text:p>done</text:p></table:table-cell>'
               '<table:table-cell office:value-type="float" office:value="3.5"><office:annotation><dc:creator>Ann'
               '</dc:creator><text:p>Check the price.</text:p></office:annotation><text:p>3.5</text:p>'
               '</table:table-cell><table:table-cell office:value-type="date" office:date-value="2026-12-04"><text:p>'
               'Dec 4, 2026</text:p></table:table-cell><table:table-cell table:formula="of:=IF([.B1]=&quot;Closed'
               '&quot;;&quot;finished&quot;;&quot;pending&quot;)" office:value-type="string" office:string-value='
               '"pending">'
               '<text:p>pending</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Closed'
               '</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet></office:body>'
               '</office:document-content>')


def test_an_opendocument_spreadsheets_strings_are_sent_not_its_values_nor_what_its_formulas_name():
    """A Calc spreadsheet is read as an OpenDocument text: each string cell's paragraph and each note's. Not sent: a
    cell whose text shows a value (a number, a date, a formula's result: written again from it), and a string that a
    formula or a validity condition names as a value (any case): translated, it would no longer match."""
    parts = {"content.xml": ODS_CONTENT}
    assert list(odt.FORMAT.items(parts)) == [(1, "content.xml#1", "Where is the station?"),
                                             (3, "content.xml#3", "Check the price.")]
    filled = odt.FORMAT.filled(parts, {1: "Wo ist der Bahnhof?", 3: "Prüfe den Preis."})["content.xml"]
    assert odt_shown(filled) == ["Wo ist der Bahnhof?", "done", "Prüfe den Preis.", "3.5", "Dec 4, 2026", "pending",
                                 "Closed"]


def test_templates_macro_enabled_files_and_shows_are_read_as_their_documents():
    """Word's, PowerPoint's and Excel's templates and macro-enabled files, PowerPoint's shows and OpenDocument's
    templates are the same packages (LibreOffice saved each; translated, it renders all 8): read by their names."""
    named = {".docm": "docx", ".dotx": "docx", ".dotm": "docx", ".pptm": "pptx", ".potx": "pptx", ".ppsx": "pptx",
             ".xlsm": "xlsx", ".xltx": "xlsx", ".ott": "odt", ".otp": "odp", ".ots": "ods", ".DOCX": "docx"}
    assert {suffix: format_named(Path(f"a{suffix}")) for suffix in named} == named
