"""A configuration file's values (service/config_values.py) read as YAML, TOML and Apple strings files read them,
and a translation written back so that the file still reads, as PyYAML (YAML 1.1, as Rails' Psych) and Python's
tomllib read it, to that translation."""

import tomllib

import pytest
import yaml
from hypothesis import given, settings, strategies as st

from service.batch import Settings, format_named, read_items
from service.config_values import ConfigLines, ConfigValue, config_value, desktop_localized

YAML_READS = [  # (a line of a YAML file, what the model gets)
    ('  a: "Click \\"Save\\" to go on."', 'Click "Save" to go on.'),
    ("  b: 'Don''t close the window.'", "Don't close the window."),
    ('  c: "First line\\nSecond line\\tx \\u00e9\\x41"', "First line\nSecond line\tx \u00e9A"),
    ("  d: Press the 'Save' button", "Press the 'Save' button"),
    ('  e: "%{count} files"', "%{count} files"),
]


@pytest.mark.parametrize("line,text", YAML_READS)
def test_a_yaml_value_is_sent_as_yaml_reads_it(line, text):
    assert config_value(line).text == text == next(iter(yaml.safe_load(line.strip()).values()))


def test_an_assignments_key_with_escapes_stays_a_key():
    """Read as text, "key\\ with\\ spaces" came back as "Schlüssel\\ mit\\ Leerzeichen"."""
    assert config_value("key\\ with\\ spaces = Value with spaces") == ConfigValue("key\\ with\\ spaces = ",
                                                                                  "Value with spaces")


def test_what_is_not_a_plain_text_value_goes_as_written():
    """A block scalar's indicator, an anchor, a list, a number and a broken escape are no text to write as YAML."""
    for line in ("  g: |", "  h: >-", "  i: &name Text", "  j: [One, Two]", '  l: "bad \\q escape"'):
        value = config_value(line)
        assert value.written_as is str and value.before + value.text + value.after == line


def test_a_yaml_boolean_null_number_or_date_is_kept_not_sent():
    """An OpenAPI document's "required: false" came back as "required: fehlend", a string where a boolean was; "on",
    "~", a version and a date are no text either (YAML 1.1's types, as Psych and PyYAML read them)."""
    for line in ("required: false", "  enabled: yes", "- on", "value: ~", "  k: 42", "version: 1.0",
                 "since: 2024-01-01", "  - -3.5"):
        assert config_value(line) == ConfigValue(line, "")
    for line, text in (("answer: Yes, please", "Yes, please"), ('flag: "false"', "false"), ("name: Truecolor",
                                                                                               "Truecolor")):
        assert config_value(line).text == text


def test_an_assignments_boolean_number_or_array_is_kept_not_sent():
    """"Terminal=false" came back as "Terminal=falsch", "debug = true" as "debug = wahr"."""
    for line in ("Terminal=false", "debug = True", "count = 5", "ratio = -0.5e3", "when = 1979-05-27T07:32:00Z",
                 'colors = ["red", "green"]', "point = { x = 1 }"):
        assert config_value(line) == ConfigValue(line, "")
    for line, text in (("label = No", "No"), ("title = 2 files", "2 files"), ("name=Truecolor", "Truecolor")):
        assert config_value(line).text == text


def test_a_translation_is_quoted_where_plain_yaml_would_not_read_it():
    """Before, "note: Note the size" came back as "note: Hinweis: …", which no longer loaded."""
    value = config_value("  note: Note the size")
    for translation in ("Hinweis: die Größe", "'Speichern' drücken", "%{count} Dateien", "ja", "2024-01-01",
                        "# eins", "- eins", "eins #zwei", "Text ", ""):
        line = value.before + value.written_as(translation) + value.after
        assert yaml.safe_load(line.strip()) == {"note": translation}, line
    assert value.written_as("Beachten Sie die Größe") == "Beachten Sie die Größe"  # plain where it reads as plain
    for line in ("  - Note the size", '  - "Note the size"'):  # a list's item, plain or quoted
        value = config_value(line)
        assert yaml.safe_load((value.before + value.written_as("Hinweis: x") + value.after).strip()) == ["Hinweis: x"]


def test_an_apple_strings_value_is_unescaped_and_escaped_again():
    value = config_value('"save" = "Click \\"Save\\"\\nnow";')
    assert value.text == 'Click "Save"\nnow'
    assert value.before + value.written_as('Klicken Sie „Speichern"\\') + value.after == (
        '"save" = "Klicken Sie „Speichern\\"\\\\";')
    assert value.written_as(value.text) == 'Click \\"Save\\"\\nnow'  # as written
    assert config_value('"a" = "bad \\q";').written_as is str


def test_a_block_scalars_lines_are_text_whole():
    """Read alone, a block's "Note: …" was a key (kept English) and its "# 1" a comment."""
    lines = ["en:", "  help: |", "    Note: the file is big.", "", "    # 1 step", "  - >-", "    Folded: text",
             "  after: Done # 2"]
    reader = ConfigLines()
    values = [reader.value(line) for line in lines]
    assert [value.text for value in values] == ["", "", "Note: the file is big.", "", "# 1 step", "", "Folded: text",
                                                "Done"]
    written = [value.before + value.written_as(value.text.upper()) + value.after for value in values[:5]]
    assert yaml.safe_load("\n".join(written) + "\n") == {"de": {"help": "NOTE: THE FILE IS BIG.\n\n# 1 STEP\n"}}


def test_a_comment_is_kept_as_written():
    """Notes to developers and license headers: the German files of Greenlight, Jenkins and JMeter keep them."""
    for line in ("# The MIT License", "  # view: /artist", "; a note", "/* Button title */", "// a note"):
        assert config_value(line) == ConfigValue(line, "")
    reader = ConfigLines()  # a comment over lines, in an Apple strings file
    assert [reader.value(line).text for line in ("/* The title of", "   the button */", '"save" = "Save";')] == [
        "", "", "Save"]


def test_a_comment_after_a_value_is_kept_not_sent():
    """`title: Welcome  # page top` sent the note with the value: it came back translated, or its "#" gone and the
    note part of the value."""
    for line, text in (("  title: Welcome  # page top", "Welcome"), ('  one: "1 file" # singular', "1 file"),
                       ("  - 'Don''t' # a list's", "Don't"), ("  url: http://x.org/#top", "http://x.org/#top"),
                       ('  k: "a # b"', "a # b"), ("  empty: # nothing yet", "")):
        value = config_value(line)
        assert value.text == text and value.before + value.written_as(text) + value.after == line
        assert yaml.safe_load(line.strip()) in ({line.split(":")[0].strip(): text or None}, [text])
    value = config_value("  title: Welcome  # page top")
    assert value.after == "  # page top"
    assert yaml.safe_load((value.before + value.written_as("Hinweis: #1") + value.after).strip()) == {
        "title": "Hinweis: #1"}


def test_a_desktop_entrys_texts_are_read_as_desktops_read_them_and_their_german_goes_on_a_line_of_its_own():
    """The Desktop Entry Specification's escapes (\\s, \\n, \\t, \\r, \\\\, and \\; in a list) undone for the model
    and made again; Keywords' values one per line; every key but the four texts kept, and a text with German."""
    lines = ["[Desktop Entry]", "Name=Files", "Comment=\\sOpen a file\\nor a folder", "Keywords=folder;file\\;dir;",
             "Exec=nautilus %U", "Type=Application", "Icon=org.gnome.Files", "GenericName[de]=Dateiverwaltung",
             "GenericName=File Manager", "Name[fr]=Fichiers", "[Desktop Action new-window]", "Name=New Window",
             "[X-Other]", "Name=Other"]
    reader = ConfigLines(desktop_localized(lines))
    values = [reader.value(line) for line in lines]
    assert [value.text for value in values] == ["", "Files", " Open a file\nor a folder", "folder\nfile;dir", "", "",
                                                "", "", "", "", "", "New Window", "", ""]
    written = [value.before + value.written_as(translation) + value.after
               for value, translation in zip(values[1:4], ["Dateien", " Eine Datei\noder\tein \\ Ordner",
                                                           "Ordner\n  Datei;Verzeichnis \n\n"])]
    assert written == ["Name=Files\nName[de]=Dateien", "Comment=\\sOpen a file\\nor a folder\nComment[de]=\\sEine "
                       "Datei\\noder\\tein \\\\ Ordner", "Keywords=folder;file\\;dir;\nKeywords[de]=Ordner;Datei\\;Verzeichnis;"]
    assert all(value.added_lines == 1 and value.as_read == line for value, line in zip(values[1:4], lines[1:4]))
    assert config_value("Name=Other").text == "Other"  # an INI file's key like any other; an X- group's is the app's
    broken = ConfigLines().value  # an escape desktops refuse: kept as written, not sent
    assert broken("[Desktop Entry]").text == "" and broken("Name=Bad \\q").text == ""


def test_a_rails_locale_files_english_key_becomes_german():
    for line, written in (("en:", "de:"), ('"en":  # English', '"de":  # English'), ("en-US:", "de:")):
        value = config_value(line)
        assert value.before == written and value.text == "" and value.as_read == line
    assert config_value("  en: English").as_read is None  # not the top level: a key like any other


@settings(max_examples=400, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=30),
       line=st.sampled_from(['  k: "The \\"old\\" text"', "  k: 'The ''old'' text'", "  k: The old text",
                             '  k: "The old text"  # a note', "  k: The old text # a note"]))
def test_a_written_yaml_translation_loads_as_that_translation(text, line):
    value = config_value(line)
    written = value.before + value.written_as(text) + value.after
    assert yaml.safe_load("k:" + written.split("k:", 1)[1]) == {"k": text}


def test_a_toml_value_is_sent_as_toml_reads_it_and_quoted_again():
    """Hugo's i18n files: 'other = "Home"'. Before, the model read the quotes and escapes of the value."""
    for line, text in (('other = "Click \\"Save\\" now"', 'Click "Save" now'), ("other = 'C:\\Temp'", "C:\\Temp"),
                       ('one = "{{ .Count }} word" # Hugo', "{{ .Count }} word")):
        value = config_value(line)
        assert value.text == text == tomllib.loads(line)[line.split()[0]]
        for translation in ('Klicken Sie auf "Speichern"', "Geht's?", "Zeile\nZeile", "C:\\Temp\\neu"):
            assert tomllib.loads(value.before + value.written_as(translation) + value.after) == {
                line.split()[0]: translation}
    assert config_value('other = "bad \\q"').written_as is str and config_value("other = [1, 2]").written_as is str


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=30),
       line=st.sampled_from(['other = "The \\"old\\" text"', "other = 'The old text'"]))
def test_a_written_toml_translation_loads_as_that_translation(text, line):
    value = config_value(line)
    assert tomllib.loads(value.before + value.written_as(text) + value.after) == {"other": text}


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_a_written_strings_translation_reads_back_as_it(text):
    value = config_value('"key" = "The \\"old\\" text";')
    assert config_value(value.before + value.written_as(text) + value.after).text == text


COMPOSE = """services:
  web:
    image: nginx:latest
    restart: always
    environment:
      - MODE=production
"""
OPENAPI = """info:
  title: Pet Store API
  description: |
    Manage the pets
    in your store.
  version: 1.0.0
paths:
  /pets:
    get:
      summary: List all pets
      parameters:
        - name: limit
          in: query
          required: false
      tags:
        - pets
x-tagDescriptions:
  - A pet
"""
PACKAGE = '[project]\nname = "translator"\ndescription = "Machine translation"\n\n[mysqld]\nskip-name-resolve\n'


def sent(path, text: str) -> list[str]:
    """The texts a job sends of a configuration file (JSON's or another's, by its name)."""
    path.write_text(text, encoding="utf-8")
    return [item.text for item in read_items(path, Settings(format=format_named(path))) if item.text]


def test_a_programs_configuration_sends_only_the_values_its_keys_say_are_words(tmp_path):
    """A directory's job translated every value of docker-compose.yml ("restart: always" as "immer"), an OpenAPI
    document ("in: query" as "Abfrage") and pyproject.toml (its package "translator" as "Übersetzer"): now a
    configuration sends the values of keys that say words (description, summary, title...; a list item's or a
    block's key the one above it), a resource file every value."""
    assert sent(tmp_path / "docker-compose.yml", COMPOSE) == []
    assert sent(tmp_path / "openapi.yaml", OPENAPI) == ["Pet Store API", "Manage the pets", "in your store.",
                                                         "List all pets", "A pet"]
    assert sent(tmp_path / "pyproject.toml", PACKAGE) == ["Machine translation"]
    resource = "en:\n  restart: always\n  tags:\n    - pets\n"  # a Rails locale: its words
    assert sent(tmp_path / "app.yml", resource) == ["always", "pets"]
    for name in ("en.yml", "messages.en.yaml", "en-GB.com_tea.ini", "config/locales/app.yml", "i18n/site.toml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        assert sent(tmp_path / name, "restart = always\n" if name.endswith(("ini", "toml")) else "restart: always\n") \
            == ["always"], name


def test_a_programs_json_configuration_sends_only_its_words(tmp_path):
    """A directory's job translated package.json's name ("tea-app" came back as "Teezack"), its scripts ("node
    index.js" as "Knoten index.js") and tsconfig.json's "outDir": "dist" (as "trennen"): a program's JSON
    configuration sends the values of keys that say words; a resource file (by its name or directory) every string."""
    package = ('{"name": "tea-app", "description": "Brews tea", "scripts": {"start": "node index.js"}, '
               '"keywords": ["tea"]}')
    assert sent(tmp_path / "package.json", package) == ["Brews tea"]
    assert sent(tmp_path / "tsconfig.json", '{"compilerOptions": {"outDir": "dist"}}') == []
    for name in ("en.json", "locales/en/common.json", "_locales/en/messages.json", "strings.json", "package.nls.json",
                 "i18n/app.json", "app_en.arb"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        assert sent(tmp_path / name, '{"outDir": "Output"}') == ["Output"], name


def test_a_programs_properties_configuration_sends_only_its_words(tmp_path):
    """Spring's application.properties: "logging.level.root=INFO" came back as "INFORMATIONEN", a "jdbc:mysql:"
    address as "Rausch:mysql:"; a resource bundle (Messages.properties, LocalStrings.properties, app_en.properties)
    sends every value, a continued one whole."""
    spring = ("logging.level.root=INFO\nspring.datasource.url=jdbc:mysql://localhost/db\n"
              "app.description=A tea \\\n  shop\n")
    assert sent(tmp_path / "application.properties", spring) == ["A tea shop"]
    for name in ("Messages.properties", "LocalStrings.properties", "app_en.properties", "Bundle.properties"):
        assert sent(tmp_path / name, "root=INFO\nlong=A tea \\\n  shop\n") == ["INFO", "A tea shop"], name


def test_a_directory_copies_a_file_its_suffix_format_refuses(tmp_path):
    """A source tree's TypeScript (.ts, Qt Linguist's suffix), PHP program and CSV table of data failed a directory's
    job (exit 1, "not XML"); now each is copied, as an XML file that holds no Android resources is."""
    from service import batch
    (tmp_path / "tea.ts").write_text("export const tea = 'green';\n", encoding="utf-8")
    (tmp_path / "brew.php").write_text("<?php\nfunction brew() { echo 'Brewing'; }\n", encoding="utf-8")
    (tmp_path / "prices.csv").write_text("id,name\n1,Green tea\n", encoding="utf-8")
    (tmp_path / "lang.php").write_text("<?php\nreturn ['welcome' => 'Welcome'];\n", encoding="utf-8")
    (tmp_path / "table.csv").write_text("key,en,de\nwelcome,Welcome,\n", encoding="utf-8")
    assert [name for name in ("tea.ts", "brew.php", "prices.csv", "lang.php", "table.csv")
            if batch.is_format(tmp_path / name, batch.format_named(tmp_path / name))] == ["lang.php", "table.csv"]


def test_a_file_with_a_translation_beside_it_is_a_resource(tmp_path):
    """Jenkins' views keep their words in properties files named for the view (index.properties), their German beside
    them (index_de.properties): such a file sends every value; a profile's file beside a configuration
    (application-dev.properties, -qa) is no translation."""
    (tmp_path / "index_de.properties").write_text("blurb=Ein Projekt.\n", encoding="utf-8")
    assert sent(tmp_path / "index.properties", "blurb=A project.\nBuild\\ Now=Build Now\n") == [
        "A project.", "Build Now"]
    for profile in ("application-dev.properties", "application-qa.properties"):
        (tmp_path / profile).write_text("x=1\n", encoding="utf-8")
    assert sent(tmp_path / "application.properties", "logging.level.root=INFO\n") == []


def test_a_copy_read_for_its_encoding_is_told_by_the_input_it_copies(tmp_path):
    """A job reads an input that is not UTF-8 (a properties file in ISO-8859-1, as Java's are) from a UTF-8 copy in a
    temporary directory, where no translation lies beside it: the input's own name, directory and neighbours tell."""
    (tmp_path / "views").mkdir()
    (tmp_path / "views" / "index_de.properties").write_text("blurb=Ein Projekt.\n", encoding="latin-1")
    original = tmp_path / "views" / "index.properties"
    original.write_text("blurb=A caf\u00e9.\n", encoding="latin-1")
    copy = tmp_path / "index.properties"
    copy.write_text("blurb=A caf\u00e9.\n", encoding="utf-8")
    assert [item.text for item in read_items(copy, Settings(format="properties")) if item.text] == []
    assert [item.text for item in read_items(copy, Settings(format="properties", named=original))
            if item.text] == ["A caf\u00e9."]
