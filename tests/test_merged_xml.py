"""XML files with their translations merged in (service.merged_xml): texts sent, German added as msgfmt adds it."""

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from service.merged_xml import METAINFO, MIME, POLICY
from service.batch import JobRefused, Settings, format_named, read_items
from tests.test_batch_jobs import SHORT, alone, batch, server  # noqa: F401 (a fixture)

LANG = "{http://www.w3.org/XML/1998/namespace}lang"
MINES = """<?xml version="1.0" encoding="UTF-8"?>
<!-- Copyright 2024 The Example Project <name>not a name</name> -->
<component type="desktop-application">
  <id>org.example.Mines</id>
  <metadata_license>CC0-1.0</metadata_license>
  <name>Mines</name>
  <name xml:lang="de">Minen</name>
  <name xml:lang="en-GB">Mines</name>
  <summary>Clear hidden mines from a minefield</summary>
  <description>
    <p>Mines is a puzzle game where you search for <em>hidden</em> mines.</p>
    <p>Features:</p>
    <ul>
      <li>Three board sizes</li>
      <li>Hints, with a time penalty; run <code>mines --help</code></li>
      <li>42</li>
    </ul>
  </description>
  <screenshots>
    <screenshot type="default"><image>https://example.org/mines.png</image><caption translate="no">The game board</caption></screenshot>
  </screenshots>
  <developer id="org.example"><name translate="no">The Example Project</name></developer>
  <keywords><keyword>minesweeper</keyword><keyword translate="no">GNOME</keyword></keywords>
  <releases>
    <release version="2.0" date="2024-01-01">
      <description>
        <p>Faster boards.</p>
      </description>
      <description xml:lang="de">
        <p>Schnellere Spielfelder.</p>
      </description>
    </release>
    <release version="1.0" date="2023-01-01">
      <description translate="no">
        <p>First release.</p>
      </description>
    </release>
  </releases>
</component>
"""


def test_the_texts_appstreams_rules_mark_are_sent_without_those_that_have_german():
    """Name, summary, each paragraph and list item of the description (its <em> and <code> kept), a caption (marked
    translate="no", which AppStream's rules override for captions), a keyword; not a name with German already, not a
    translation (British English's), a comment's element, a text of no letter, anything marked translate="no", nor
    a release's paragraph whose description has a German one."""
    assert list(METAINFO.items(MINES)) == [
        (2, "component/summary", "Clear hidden mines from a minefield"),
        (3, "component/description/p", "Mines is a puzzle game where you search for <em>hidden</em> mines."),
        (4, "component/description/p", "Features:"),
        (5, "component/description/ul/li", "Three board sizes"),
        (6, "component/description/ul/li", "Hints, with a time penalty; run <code>mines --help</code>"),
        (8, "component/screenshots/screenshot/caption", "The game board"),
        (10, "component/keywords/keyword", "minesweeper")]
    assert METAINFO.count(MINES) == 13  # numbered across the unsent too: the name, "42", the developer's, ...
    namespace = "https://specifications.freedesktop.org/metainfo/1.0"
    namespaced = MINES.replace("<component ", f'<component xmlns="{namespace}" ')
    METAINFO.check(namespaced)
    assert list(METAINFO.items(namespaced)) == list(METAINFO.items(MINES))


def test_each_translation_is_added_after_its_english_as_msgfmt_adds_it():
    """The same element with xml:lang="de", on a line of its own indented as the English one (on its line where that
    one shares a line), its markup kept; the rest of the file character for character as it was."""
    translated = {2: "Versteckte Minen räumen", 3: "Ein Spiel, in dem Sie <em>versteckte</em> Minen suchen.",
                  5: "Drei Größen", 8: "Das Spielfeld", 10: "Minensucher", 6: "Tipps & <code>mines --help</code"}
    filled = METAINFO.filled(MINES, translated)
    added = ['\n  <summary xml:lang="de">Versteckte Minen räumen</summary>',
             '\n    <p xml:lang="de">Ein Spiel, in dem Sie <em>versteckte</em> Minen suchen.</p>',
             '\n      <li xml:lang="de">Drei Größen</li>',
             # a translation that is no well-formed XML is written as text
             '\n      <li xml:lang="de">Tipps &amp; &lt;code&gt;mines --help&lt;/code</li>',
             ' <caption xml:lang="de" translate="no">Das Spielfeld</caption>',
             ' <keyword xml:lang="de">Minensucher</keyword>']
    rest = filled
    for german in added:
        assert german in rest, german
        rest = rest.replace(german, "", 1)
    assert rest == MINES
    root = ElementTree.fromstring(filled.encode())
    assert [element.text for element in root.iter("summary") if element.get(LANG) == "de"] == [
        "Versteckte Minen räumen"]
    assert METAINFO.filled(MINES, {}) == MINES


def test_a_metainfo_file_is_named_so_and_anything_else_is_refused(tmp_path):
    for name in ("org.gnome.Mines.metainfo.xml", "gnome-mines.appdata.xml"):
        assert format_named(Path(name)) == "metainfo", name
    assert format_named(Path("org.gnome.Mines.metainfo.xml.in")) == "text"  # a template the build merges into
    assert format_named(Path("res/values/strings.xml")) == "android"
    source = tmp_path / "app.metainfo.xml"
    source.write_text('<?xml version="1.0"?>\n<components><component/></components>\n', encoding="utf-8")
    with pytest.raises(JobRefused, match=r"its root element is <components>, not AppStream's <component>"):
        list(read_items(source, Settings(format="metainfo")))


def test_a_metainfo_file_is_translated_through_the_server(server, tmp_path):  # noqa: F811 (the fixture)
    """Each text's German is its translation sent alone, after its English; appstreamcli, where installed, finds
    nothing the source did not have."""
    source = tmp_path / "org.example.Mines.metainfo.xml"
    source.write_text(MINES, encoding="utf-8")
    output = tmp_path / "org.example.Mines.de.metainfo.xml"
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0, err
    assert "7 items: 7 translated, 0 failed" in out
    root = ElementTree.fromstring(output.read_bytes())
    german = [element for element in root.iter() if element.get(LANG) == "de"]
    summary = next(element for element in german if element.tag == "summary")
    assert summary.text == alone(server.target, ["Clear hidden mines from a minefield"])[0]
    assert len(german) == 2 + 7  # the name's and the release's, and one for each text sent
    if shutil.which("appstreamcli"):
        checks = [subprocess.run(["appstreamcli", "validate", "--no-net", str(path)], capture_output=True, text=True)
                  for path in (source, output)]
        assert checks[1].returncode == checks[0].returncode, checks[1].stdout


POLICY_FILE = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE policyconfig PUBLIC "-//freedesktop//DTD PolicyKit Policy Configuration 1.0//EN"
        "https://www.freedesktop.org/standards/PolicyKit/1/policyconfig.dtd">
<policyconfig>
        <vendor>The systemd Project</vendor>
        <action id="org.freedesktop.hostname1.set-hostname">
                <description gettext-domain="systemd">Set hostname</description>
                <description xml:lang="de">Rechnername festlegen</description>
                <message gettext-domain="systemd">Authentication is required to set the local hostname.</message>
                <defaults><allow_any>auth_admin_keep</allow_any></defaults>
        </action>
</policyconfig>
"""
MIME_PACKAGE = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE mime-info [
<!ELEMENT mime-info (mime-type)+>
<!ATTLIST mime-info xmlns CDATA #FIXED "http://www.freedesktop.org/standards/shared-mime-info">
]>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="application/epub+zip">
    <comment>electronic book document</comment>
    <comment xml:lang="fr">document livre électronique</comment>
    <acronym>EPUB</acronym>
    <expanded-acronym>Electronic Publication</expanded-acronym>
    <glob pattern="*.epub"/>
  </mime-type>
</mime-info>
"""


def test_polkits_actions_and_the_mime_databases_types_are_merged_files_too(tmp_path):
    """polkit's action's description and message (not its vendor, nor a description with German already); a MIME
    type's comment (not its acronym nor its expansion, which shared-mime-info's rules keep), the French kept. A .policy
    file is one by its name, a MIME package by its root element (its name is any .xml's)."""
    assert list(POLICY.items(POLICY_FILE)) == [
        (2, "policyconfig/action/message", "Authentication is required to set the local hostname.")]
    assert list(MIME.items(MIME_PACKAGE)) == [(1, "mime-info/mime-type/comment", "electronic book document")]
    filled = MIME.filled(MIME_PACKAGE, {1: "elektronisches Buch"})
    assert filled == MIME_PACKAGE.replace("document</comment>\n", 'document</comment>\n    <comment xml:lang="de">'
                                          "elektronisches Buch</comment>\n")
    policy, package, android = tmp_path / "org.example.policy", tmp_path / "example.xml", tmp_path / "strings.xml"
    policy.write_text(POLICY_FILE, encoding="utf-8")
    package.write_text(MIME_PACKAGE, encoding="utf-8")
    android.write_text('<?xml version="1.0"?>\n<resources><string name="a">A</string></resources>\n', encoding="utf-8")
    assert [format_named(path) for path in (policy, package, android)] == ["policy", "mime", "android"]
    # what comes before the root element is read once: "<?a?>" * 20 took 0.09 s, each 2 more twice as long (in a
    # child process, so that a regression fails here instead of hanging the suite); no root there, Android's by name
    for number, unit in enumerate((b"<?a?>", b"<!--a-->", b"<!DOCTYPE [a]>")):
        (tmp_path / f"hostile{number}.xml").write_bytes(unit * 13_000 + b"!")
    script = ("import sys\nfrom pathlib import Path\nfrom service.batch import format_named\n"
              "for number in range(3):\n"
              "    assert format_named(Path(sys.argv[1]) / f'hostile{number}.xml') == 'android'")
    subprocess.run([sys.executable, "-c", script, str(tmp_path)], check=True, timeout=60,
                   cwd=Path(__file__).parent.parent)
    assert [item.text for item in read_items(package, Settings(format="mime"))] == ["electronic book document"]
    with pytest.raises(JobRefused, match=r"its root element is <policyconfig>, not the shared MIME database's"):
        list(read_items(policy, Settings(format="mime")))
