"""Word documents (.docx) in batch jobs: which paragraphs are sent and how, and the package written back."""

import json
import re
import xml.etree.ElementTree as ElementTree
import zipfile
from pathlib import Path

import pytest

from service import docx
from service.batch import JobRefused, Settings, read_items
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
    # a text box: its paragraph is read on its own, the one that holds it is not sent
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
    link as <a>, a tab, a whole field and a picture kept (<x/>). A paragraph with tracked changes, one without a
    letter, an empty one and one that holds a text box (whose own paragraph is sent) are not sent."""
    source = package(tmp_path / "report.docx", BODY)
    assert [(item.line, item.id, item.text) for item in read_items(source, Settings(format="docx"))] == [
        (1, "word/document.xml#1", "Where is the station"),
        (2, "word/document.xml#2", 'The <span id="1">apples</span> were cheap &amp; <a id="0"><span id="2">good'
                                   '</span></a><x id="0"/>on page<x id="1"/><x id="2"/>'),
        (5, "word/document.xml#5", "The dog."),
        (6, "word/header1.xml#1", "The cat")]
    assert docx.count(docx.read(source)) == 6


def test_a_word_document_written_back_with_its_own_texts_shows_the_same():
    """Filled with each paragraph's own HTML, every part shows the same text in the same places, its field, picture,
    bookmark, properties and link kept; spell-check marks are gone."""
    parts = {"word/document.xml": PACKAGE_START + "".join(BODY) + "</w:body></w:document>", "word/header1.xml": HEADER}
    same = docx.filled(parts, {number: text for number, _, text in docx.items(parts)})
    for name, xml in parts.items():
        assert shown(same[name]) == shown(xml)
    document = same["word/document.xml"]
    for kept in (FIELD, PICTURE, '<w:pStyle w:val="Heading1"/>', '<w:bookmarkStart w:id="0" w:name="_Toc1"/>',
                 '<w:hyperlink r:id="rId9">', BODY[2]):
        assert kept in document
    assert "proofErr" not in document


def test_a_translation_puts_formats_links_and_kept_runs_where_its_markup_went():
    """The runs are made from the translation: text outside spans in the paragraph's main format, a span's in the
    format it names, a link where its tags are; a kept piece the translation lost goes at the paragraph's end."""
    parts = {"word/document.xml": PACKAGE_START + BODY[1] + "</w:body></w:document>"}
    translation = ('Die <a id="0"><span id="2">guten</span></a> Äpfel waren &lt;billig&gt; und <span id="1">rot'
                   '</span><x id="2"/>')
    document = docx.filled(parts, {1: translation})["word/document.xml"]
    assert shown(document) == ["Die guten Äpfel waren <billig> und rot\t3"]
    runs = re.findall(r"<w:r>(.*?)</w:r>", document.split("<w:body>")[1])
    assert runs[:4] == ['<w:t xml:space="preserve">Die </w:t>', f'{LINK_STYLE}<w:t xml:space="preserve">guten</w:t>',
                        '<w:t xml:space="preserve"> Äpfel waren &lt;billig&gt; und </w:t>',
                        f'{BOLD}<w:t xml:space="preserve">rot</w:t>']
    assert document.index(PICTURE) < document.index("<w:tab/>") < document.index(FIELD)  # lost: after, in order


def test_a_word_document_is_translated_and_its_package_kept(server, tmp_path):  # noqa: F811 (the fixture)
    """Through the server: the output is the package entry for entry (the picture's bytes, the content types, each
    entry's compression), its parts well-formed, each translated paragraph filled from the job's record of it."""
    source = package(tmp_path / "report.docx", BODY)
    code, out, err = batch(server.target, source, tmp_path / "report.de.docx", *SHORT)
    assert code == 0 and "4 items: 4 translated, 0 failed" in out, err
    code, _, err = batch(server.target, source, tmp_path / "report.jsonl", "--output-format", "jsonl", *SHORT)
    assert code == 0, err
    translated = {record["line"]: record["translation"] for record in map(json.loads, (tmp_path / "report.jsonl")
                                                                          .read_text(encoding="utf-8").splitlines())}
    expected = docx.filled(docx.read(source), translated)
    with zipfile.ZipFile(source) as before, zipfile.ZipFile(tmp_path / "report.de.docx") as after:
        assert [(entry.filename, entry.compress_type) for entry in after.infolist()] == \
            [(entry.filename, entry.compress_type) for entry in before.infolist()]
        for name in after.namelist():
            assert after.read(name) == (expected[name].encode() if name in expected else before.read(name))
        assert shown(after.read("word/document.xml").decode())[2] == "I eat the apple."  # tracked: as it was
        assert shown(after.read("word/document.xml").decode())[0] != "Where is the station"
        assert after.read("word/styles.xml").decode() == STYLES.replace('w:val="en-US"', 'w:val="de-DE"')


def test_code_is_kept_as_it_is():
    """A paragraph in a code style is not sent, a run in one is kept whole (<x/>): sent, 490 code blocks of 60 Word
    documents pandoc made of Markdown files came back changed ("'deps/brotli/brotli.gyp:brotli'" lost its quotes)."""
    code = '<w:rPr><w:rStyle w:val="VerbatimChar"/></w:rPr>'
    parts = {"word/document.xml": PACKAGE_START + '<w:p><w:pPr><w:pStyle w:val="SourceCode"/></w:pPr><w:r>'
             f"<w:t>make the dog</w:t></w:r></w:p><w:p><w:r><w:t>Run </w:t></w:r><w:r>{code}<w:t>make the dog</w:t>"
             '</w:r><w:r><w:t xml:space="preserve"> now.</w:t></w:r></w:p></w:body></w:document>'}
    assert list(docx.items(parts)) == [(2, "word/document.xml#2", 'Run <x id="0"/> now.')]
    filled = docx.filled(parts, {2: 'Führe <x id="0"/> jetzt aus.'})["word/document.xml"]
    assert shown(filled) == ["make the dog", "Führe make the dog jetzt aus."]


def test_translated_runs_are_marked_german():
    """A translated run's language is German where its properties name one (Word checked German words as English:
    every word underlined), and so is the styles' default for runs that name none."""
    english = '<w:rPr><w:i/><w:lang w:val="en-US" w:eastAsia="ja-JP"/></w:rPr>'
    parts = {"word/document.xml": f"{PACKAGE_START}<w:p><w:r>{english}<w:t>The dog</w:t></w:r></w:p></w:body>"
                                  "</w:document>",
             "word/styles.xml": STYLES}
    filled = docx.filled(parts, {1: "Der Hund"})
    assert '<w:lang w:val="de-DE" w:eastAsia="ja-JP"/></w:rPr><w:t xml:space="preserve">Der Hund' in \
        filled["word/document.xml"]
    assert '<w:rPrDefault><w:rPr><w:lang w:val="de-DE" w:eastAsia="en-US"' in filled["word/styles.xml"]
    assert docx.filled(parts, {}) == parts  # nothing translated: nothing changed


def test_a_file_that_is_no_word_document_is_refused_with_what_to_do(tmp_path):
    (tmp_path / "old.docx").write_bytes(b"\xd0\xcf\x11\xe0 an OLE2 .doc renamed")
    with pytest.raises(JobRefused, match=r"not a ZIP package .*an older \.doc must be saved as \.docx first"):
        list(read_items(tmp_path / "old.docx", Settings(format="docx")))
    with zipfile.ZipFile(tmp_path / "sheet.docx", "w") as written:
        written.writestr("xl/workbook.xml", "<workbook/>")
    with pytest.raises(JobRefused, match="no word/document.xml: not a Word document"):
        list(read_items(tmp_path / "sheet.docx", Settings(format="docx")))
    broken = package(tmp_path / "broken.docx", ["<w:p><w:r><w:t>The dog</w:r></w:p>"])
    with pytest.raises(JobRefused, match="word/document.xml: not well-formed XML: mismatched tag at line 2"):
        list(read_items(broken, Settings(format="docx")))
