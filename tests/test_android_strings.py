"""Android string resources for batch jobs (service/android_strings.py): what is sent, and the file written back,
judged by what Android's own resource compiler, aapt2 (Debian's package `aapt`, which `make test` installs), reads
from it."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from service import android_strings

needs_aapt2 = pytest.mark.skipif(shutil.which("aapt2") is None, reason="aapt2 not installed (Debian: aapt)")

RESOURCES = """<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:tools="http://schemas.android.com/tools" xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2"
    tools:locale="en">
    <!-- <string name="commented">Not a string</string> -->
    <string name="app_name" translatable="false">Apples</string>
    <string name="hello">Hello, <xliff:g id="name" example="Anna">%1$s</xliff:g>! You don\\'t have mail.</string>
    <string name="quoted">"Don't panic,   it's fine"</string>
    <string name="two_lines">First line\\nSecond line</string>
    <string name="wrapped">This is a long
        sentence over lines.  </string>
    <string name="ref">@string/app_name</string>
    <string name="at_sign">\\@home is where \\"we\\" are</string>
    <string name="suffix">An error occurred during syncing:\\u0020</string>
    <string name="bold">I eat <b>apples</b> &amp; pears &lt;3</string>
    <string name="html"><![CDATA[Read the <a href="https://example.com">terms</a>.]]></string>
    <string name="empty"/>
    <string-array name="planets">
        <item>Mercury</item>
        <item/>
        <item>@string/ref</item>
        <item>Earth is big</item>
    </string-array>
    <plurals name="songs">
        <item quantity="one">%d song found.</item>
        <item quantity="other">%d songs found.</item>
    </plurals>
    <integer name="count">3</integer>
    <string name="breaks">One\\nTwo<br/>Three</string>
    <string name="question"><![CDATA[?attr/title]]></string>
</resources>
"""
SENT = {
    "hello": 'Hello, <xliff:g id="name" example="Anna">%1$s</xliff:g>! You don\'t have mail.',
    "quoted": "Don't panic,   it's fine",
    "two_lines": "First line<br>Second line",
    "wrapped": "This is a long sentence over lines.",
    "at_sign": '@home is where "we" are',
    "suffix": "An error occurred during syncing: ",
    "bold": "I eat <b>apples</b> &amp; pears &lt;3",
    "html": 'Read the <a href="https://example.com">terms</a>.',
    "planets[0]": "Mercury", "planets[3]": "Earth is big",  # an array's index counts its empty items
    "songs:one": "%d song found.", "songs:other": "%d songs found.",
    "breaks": "One<br>Two<br/>Three",  # a line break sent as <br>, the string's own <br/> as written
}


def aapt2_values(tmp_path: Path, document: str) -> dict[str, str]:
    """What aapt2 compiles a resource file to, by resource ("string/hello", "plurals/songs"): its dump's text of
    each, white space runs as one space (the dump indents the lines of a value). AssertionError where it refuses."""
    res = tmp_path / "res" / "values"
    res.mkdir(parents=True, exist_ok=True)
    (res / "strings.xml").write_text(document, encoding="utf-8")
    compiled = tmp_path / "compiled"
    compiled.mkdir(exist_ok=True)
    run = subprocess.run(["aapt2", "compile", "-o", str(compiled), str(res / "strings.xml")], capture_output=True,
                         text=True)
    assert run.returncode == 0 and "warn" not in run.stderr, run.stderr
    dump = subprocess.run(["aapt2", "dump", "apc", *map(str, compiled.glob("*.flat"))], capture_output=True,
                          text=True, check=True).stdout
    values = {}
    for block in re.split(r"\n\s*resource 0x[0-9a-f]+ ", dump)[1:]:
        name, _, value = block.partition("\n")
        value = re.sub(r" src=\S+|\n\s*type \S+ entryCount=\d+", "", value)
        values[name.strip()] = " ".join(value.split())
    return values


def test_each_string_array_item_and_plural_is_sent_as_android_reads_it():
    """Read line by line, `<string name="save">Save</string>` went to the model markup and all. Each string, array
    item and quantity is one item named by its resource, its escapes undone and white space read as Android reads
    it; references, untranslatable strings, strings without a letter and comments are not sent."""
    android_strings.check(RESOURCES)
    sent = list(android_strings.items(RESOURCES))
    assert {name: text for _, name, text in sent} == SENT
    assert [number for number, _, _ in sent] == [1, 2, 3, 4, 6, 7, 8, 9, 10, 12, 13, 14, 15]
    assert android_strings.count(RESOURCES) == 16


@pytest.mark.parametrize("translation, content, written", [
    ("Das geht's.", "It's fine.", "Das geht\\'s."),
    ('Er sagte "ja" \\ nein', "x", 'Er sagte \\"ja\\" \\\\ nein'),
    ("Erste<br>Zweite", "First\\nSecond", "Erste\\nZweite"),
    ("Eins<br>Zwei<br/>Drei", "One\\nTwo<br/>Three", "Eins\\nZwei<br/>Drei"),  # a bare <br> was not XML
    ("Fehler: ", "Error:\\u0020", '"Fehler: "'),
    ("@Zuhause", "\\@home", "\\@Zuhause"),
    ("?Warum", "\\?Why", "\\?Warum"),
    ("Äpfel &amp; Birnen &lt;3 &quot;gut&quot;", "x", 'Äpfel &amp; Birnen &lt;3 \\"gut\\"'),
    ("<b>Ich</b> esse", "<b>I</b> eat", "<b>Ich</b> esse"),
    ('Lies die <a href="u">Bedingungen</a>', '<![CDATA[Read the <a href="u">terms</a>]]>',
     '<![CDATA[Lies die <a href="u">Bedingungen</a>]]>'),
])
def test_a_translation_is_written_escaped_as_android_reads_it(translation, content, written):
    assert android_strings.as_written(translation, content) == written


@needs_aapt2
def test_strings_sent_and_written_back_unchanged_compile_to_the_same_values(tmp_path):
    """The round trip a translation takes (read as sent, written back), with each string's own text as its
    translation: aapt2 reads every value as it read the original's; the untranslatable string is left out and
    the file says it is German."""
    numbers = {name: number for number, name, _ in android_strings.items(RESOURCES)}
    written = android_strings.filled(RESOURCES, {numbers[name]: text for name, text in SENT.items()})
    assert 'tools:locale="de"' in written and 'name="app_name"' not in written
    original, back = aapt2_values(tmp_path / "en", RESOURCES), aapt2_values(tmp_path / "de", written)
    assert original.pop("string/app_name") == '() "Apples"'
    assert back == original


@pytest.mark.parametrize("document, message", [
    ("<resources><string>Hi</resources>", "not well-formed XML: mismatched tag at line 1 column"),
    ("<html><p>Hi</p></html>", "its root element is <html>, not an Android resource file's <resources>"),
    ('<resources translatable="false"><string name="k">key</string></resources>', "Android translates none"),
    ('<resources xmlns:tools="t" tools:locale="fr"><string name="k">Oui</string></resources>',
     'its strings are in fr (tools:locale="fr")'),
    ('<!DOCTYPE resources [<!ENTITY a "b">]><resources/>', "an entity declaration"),
    # a traceback before (LookupError: unknown encoding), and the XML readers of the other formats share the check
    ('<?xml version="1.0" encoding="ut-8"?><resources/>', 'its XML declaration says encoding="ut-8"'),
    ('<?xml version="1.0" encoding="ISO-8859-1"?><resources/>', "convert it to UTF-8 (iconv)"),
])
def test_what_is_not_an_english_resource_file_is_refused(document, message):
    with pytest.raises(android_strings.NotResources, match=re.escape(message)):
        android_strings.check(document)
