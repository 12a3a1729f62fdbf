"""SVG (service.svg): a drawing's texts, flowed paragraphs, titles and descriptions sent as HTML with their <tspan>
markup, the drawing written back in place."""

import pytest
from hypothesis import given, settings, strategies as st

from service import svg
from service.batch import JobRefused, Settings, format_named, read_items
from tests.test_batch_jobs import (SHORT, alone, batch, server,  # noqa: F401 (a fixture)
                                    written_back_in_linear_time)
from tests.test_docbook import written_back_with_its_own_texts

# As Inkscape writes a drawing: a style sheet, metadata, a label over two lines, a run in bold, a flowed text, a tool
# tip, an axis's numbers and a translation a <switch> chooses
DRAWING = """<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
     width="200" height="100">
  <style>.label { font-family: sans-serif; }</style>
  <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><dc:title>Tea</dc:title></rdf:RDF>
  </metadata>
  <g id="layer1">
    <text x="10" y="20" class="label"><tspan sodipodi:role="line" x="10" y="20">Pour the</tspan>
      <tspan sodipodi:role="line" x="10" y="40">hot <tspan style="font-weight:bold">water</tspan></tspan></text>
    <flowRoot><flowRegion><rect width="100" height="50"/></flowRegion><flowPara>Wait three minutes.</flowPara>
    </flowRoot>
    <rect width="10" height="10"><title>A cup</title><desc>The cup holds the tea.</desc></rect>
    <text x="0" y="90">0</text><text x="50" y="90">100 %</text>
    <switch><text systemLanguage="de">Tee</text><text>Tea</text></switch>
  </g>
</svg>
"""


def test_each_text_flowed_paragraph_title_and_description_is_one_text():
    """A <text>'s words with its <tspan> lines and runs (one sentence over two lines), a flowed paragraph, a title and a
    description, in document order; style, metadata, numbers and a <switch>'s German not sent."""
    svg.check(DRAWING)
    assert [(path, text) for _, path, text in svg.items(DRAWING)] == [
        ("svg/g/text", '<tspan sodipodi:role="line" x="10" y="20">Pour the</tspan> <tspan sodipodi:role="line" x="10" '
                       'y="40">hot <tspan style="font-weight:bold">water</tspan></tspan>'),
        ("svg/g/flowRoot/flowPara", "Wait three minutes."),
        ("svg/g/rect/title", "A cup"), ("svg/g/rect/desc", "The cup holds the tea."),
        ("svg/g/switch/text", "Tea")]


def test_translations_are_written_in_place_and_the_drawing_is_german():
    """Each translation replaces its source's content, the rest of the drawing as it was, its root's xml:lang de; a
    drawing of no text (an icon) is written as it was."""
    translated = {1: '<tspan sodipodi:role="line" x="10" y="20">Gießen Sie das</tspan> <tspan sodipodi:role="line" '
                     'x="10" y="40">heiße <tspan style="font-weight:bold">Wasser</tspan> ein</tspan>',
                  2: "Drei Minuten warten.", 3: "Eine Tasse", 5: "Tee"}
    filled = svg.filled(DRAWING, translated)
    assert '<svg xml:lang="de" xmlns="http://www.w3.org/2000/svg"' not in filled  # (added at the tag's end)
    assert 'width="200" height="100" xml:lang="de">' in filled
    assert ('y="40">heiße <tspan style="font-weight:bold">Wasser</tspan> ein</tspan></text>' in filled  # (on one line)
            and "<flowPara>Drei Minuten warten.</flowPara>" in filled and "<title>Eine Tasse</title>" in filled)
    assert "<desc>The cup holds the tea.</desc>" in filled  # (no translation: as it was)
    assert '<switch><text systemLanguage="de">Tee</text><text>Tee</text></switch>' in filled
    assert filled.replace(' xml:lang="de"', "", 1).startswith(DRAWING[:DRAWING.index("<g id")])
    icon = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h16v16z"/></svg>\n'
    assert list(svg.items(icon)) == [] and svg.filled(icon, {}) == icon


def test_svg_is_read_by_its_name_and_other_xml_refused(tmp_path):
    assert format_named(tmp_path / "diagram.svg") == "svg"
    (tmp_path / "page.svg").write_text("<html><body>Tea</body></html>", encoding="utf-8")
    with pytest.raises(JobRefused, match=r"its first element is <html>, not <svg>"):
        list(read_items(tmp_path / "page.svg", Settings(format="svg")))



# As Graphviz draws a graph (dot -Tsvg): each group titled by its name in the graph's source, a node's label its text
GRAPH = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<g id="graph0" class="graph"><title>G</title>
<g id="clust1" class="cluster"><title>cluster_box</title><text x="9" y="9">Storage</text></g>
<g id="node1" class="node"><title>pinned_box</title><text x="18" y="20">Pinned value</text></g>
<g id="node2" class="node important"><title>ready</title><text x="18" y="40">Ready</text></g>
<g id="edge1" class="edge"><title>pinned_box&#45;&gt;ready</title><text x="30" y="30">polls</text></g>
<g id="legend"><title>What the arrows mean</title></g>
</g>
</svg>
"""


def test_the_names_graphviz_titles_its_groups_with_are_not_sent():
    """Graphviz titles each graph, cluster, node and edge group (its class's first word) by its name in the graph's
    source: an identifier, which came back translated ("pin" as "stecken", "table0" as "Tabelle0": 514 of 1,504 texts in
    the 80 Graphviz drawings of this machine's documentation). Its labels are sent, and a title of any other group."""
    assert [text for _, _, text in svg.items(GRAPH)] == ["Storage", "Pinned value", "Ready", "polls",
                                                          "What the arrows mean"]
    filled = svg.filled(GRAPH, {1: "Speicher"})
    assert "<title>pinned_box</title>" in filled and "<title>pinned_box&#45;&gt;ready</title>" in filled
    assert '<text x="9" y="9">Speicher</text>' in filled


def test_html_in_a_foreign_object_is_a_web_pages_text():
    """diagrams.net writes each label as HTML in a <foreignObject> (and an SVG <text> for viewers without it): its
    <b> and <br/> had been blocks, "Start the <placeholder-1/> server<placeholder-2/>on port 80" sent and "web" alone.
    They are its markup now, and <code> holds code, as on a web page."""
    drawing = ('<svg xmlns="http://www.w3.org/2000/svg"><switch><foreignObject>'
               '<div xmlns="http://www.w3.org/1999/xhtml"><div style="display: inline-block">'
               'Start the <b>web</b> server<br/>on port <code>80</code></div></div>'
               '</foreignObject><text x="60" y="34">Start the web server...</text></switch></svg>')
    assert [text for _, _, text in svg.items(drawing)] == [
        "Start the <b>web</b> server<br/>on port <code>80</code>", "Start the web server..."]
    filled = svg.filled(drawing, {1: "Starten Sie den <b>Web</b>-Server<br/>auf Port <code>80</code>"})
    assert '<div style="display: inline-block">Starten Sie den <b>Web</b>-Server<br/>auf Port <code>80</code></div>' \
        in filled


PIECES = ["<svg>", "</svg>", "<g>", "</g>", "<text>", "</text>", "<tspan>", "</tspan>", "<title>", "</title>",
          "<style>", "</style>", "<flowPara>", "</flowPara>", '<text systemLanguage="de">', "<rect/>", "<!--", "-->",
          "<![CDATA[", "]]>", "<b>", "</b>", "<br/>",
          "&amp;", "&lt;", "&tea;", "Tea is hot.", "tea", "42", " ", "\n", "<", ">", "ü"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=6), max_size=40))
def test_any_drawing_is_read_and_written_back_with_its_own_texts_as_it_was(pieces):
    """Whatever the drawing (garbage and broken markup too): read without an error; written back with no translation
    it is as it was but for its language (where it has a text); written back with each text's own words as its
    translation it holds the same texts again."""
    document = '<svg xmlns="http://www.w3.org/2000/svg">' + "".join(pieces) + "</svg>"
    written_back_with_its_own_texts(svg, svg.NotSvg, document,
                                    document.replace('2000/svg">', '2000/svg" xml:lang="de">', 1))


def test_hostile_drawings_are_read_in_linear_time():
    """Many texts, many runs in one text and groups nested to the limit are read and written back in time linear in
    their size (in a child process, so that a regression fails here instead of hanging the suite)."""
    written_back_in_linear_time("svg", (
        "('<svg>' + '<text>Tea <tspan>is</tspan> hot.</text>' * 20_000 + '</svg>',"
        " '<svg><text>' + 'Tea <tspan>x</tspan> ' * 50_000 + '</text></svg>',"
        " '<svg>' + '<g>' * 198 + '<text>Tea</text>' + '</g>' * 198 + '</svg>')"))


def test_a_directory_of_drawings_is_translated_through_the_server(server, tmp_path):  # noqa: F811 (the fixture)
    """A documentation's figures: a drawing's texts translated in place (each its translation sent alone), an icon of no
    text written as it was, and the job succeeds."""
    source, output = tmp_path / "figures", tmp_path / "figures.de"
    source.mkdir()
    (source / "cup.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><text>A cup of tea</text></svg>\n',
                                    encoding="utf-8")
    icon = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0h16v16z"/></svg>\n'
    (source / "icon.svg").write_text(icon, encoding="utf-8")
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0, err
    assert "2 files: 2 translated, 0 finished before, 0 copied, 0 failed" in out
    cup = alone(server.target, ["A cup of tea"])[0]
    assert (output / "cup.svg").read_text(encoding="utf-8") == (
        f'<svg xmlns="http://www.w3.org/2000/svg" xml:lang="de"><text>{cup}</text></svg>\n')
    assert (output / "icon.svg").read_text(encoding="utf-8") == icon
