"""Java properties values (service/java_properties.py): read as Java 17's `Properties.load` reads them (the expected
values below are its output for these lines), and a translation written so that Java reads it back as it was."""

import pytest
from hypothesis import given, settings, strategies as st

from service.java_properties import FileStyle, file_style, property_line, value

# (a line of a properties file, the key and separator kept, the value as Java 17 read it)
JAVA_READS = [
    ("a=Connection timeout\\: {0} seconds", "a=", "Connection timeout: {0} seconds"),
    ("b=Copyright \\u00a9 2024\\u2026", "b=", "Copyright \u00a9 2024\u2026"),
    ("c=Smile \\uD83D\\uDE00 please", "c=", "Smile \U0001F600 please"),
    ("d=\\ \\ two spaces", "d=", "  two spaces"),
    ("e=C\\:\\\\Program Files\\\\App", "e=", "C:\\Program Files\\App"),
    ("f=Name\\tValue\\nNext line", "f=", "Name\tValue\nNext line"),
    ("h=Press '{0}' on your keyboard", "h=", "Press '{0}' on your keyboard"),
    ("i = spaced\\=equal \\#hash \\!bang", "i = ", "spaced=equal #hash !bang"),
    ("j:colon separated", "j:", "colon separated"),
    ("k   whitespace separated", "k   ", "whitespace separated"),
    ("l\\ key\\:x = value", "l\\ key\\:x = ", "value"),
    ("m=trailing spaces   ", "m=", "trailing spaces   "),
]


@pytest.mark.parametrize("line,key,java", JAVA_READS)
def test_a_value_is_read_as_java_reads_it(line, key, java):
    kept, raw = property_line(line)
    assert kept == key and value(raw, FileStyle()).text == java


def test_a_comment_and_a_blank_line_are_kept_whole():
    for line in ("# The MIT License", "  ! note", "", "   "):
        assert property_line(line) == (line, "")


def test_a_message_format_pattern_sends_its_apostrophes_single_and_writes_them_doubled():
    """MessageFormat (Jenkins' messages, any value with an argument) swallows a lone apostrophe and the argument
    after it: "The plugin '{0}'" shows "The plugin {0}". A pattern's doubled apostrophes reach the model single and
    come back doubled; a value with a lone one is no such pattern and is left alone."""
    doubled = value("The plugin ''{0}'' was already disabled", FileStyle())
    assert doubled.text == "The plugin '{0}' was already disabled"
    assert doubled.written("Das Plugin '{0}' ist alt") == "Das Plugin ''{0}'' ist alt"
    assert value("Deleted {0} files", FileStyle()).written("'{0}' gelöscht") == "''{0}'' gelöscht"
    lone = value("Press '{0}' on your keyboard", FileStyle())
    assert lone.text == "Press '{0}' on your keyboard" and lone.written("Drücken Sie '{0}'") == "Drücken Sie '{0}'"
    assert value("Don't close it", FileStyle()).written("Nicht's") == "Nicht's"  # no argument: not formatted


def test_a_translation_is_escaped_as_its_value_was():
    source = value("Timeout\\: {0}", FileStyle())
    assert source.written("Zeitüberschreitung: {0}\nC:\\Pfad\tx") == "Zeitüberschreitung\\: {0}\\nC\\:\\\\Pfad\\tx"
    assert value("plain: text", FileStyle()).written(" a: b=c") == "\\ a: b=c"  # marks the value did not escape
    assert value("Loading\\u2026", FileStyle(True, True)).written("Lädt…") == "L\\u00e4dt\\u2026"
    assert value("x", FileStyle(True)).written("😀") == "\\uD83D\\uDE00"
    assert value("x", FileStyle()).written("Grüße 😀") == "Grüße 😀"
    assert value("Copyright \\u00A9", FileStyle(True)).written("Copyright \u00a9") == "Copyright \\u00A9"  # as written


def test_a_value_java_would_not_read_goes_as_written():
    assert value("broken \\u12G4", FileStyle()) is None
    assert value("lone \\uD83D surrogate", FileStyle()) is None
    assert value("ends in a backslash \\", FileStyle()) is None
    assert value("escaped \\\\u12G4 is text", FileStyle()).text == "escaped \\u12G4 is text"


def test_the_file_decides_whether_characters_beyond_ascii_are_escaped(tmp_path):
    """As \\uXXXX, which every Java reader reads, unless the file holds such characters itself (UTF-8, then)."""
    cases = {"a=Caf\\u00e9\n": FileStyle(True, True), "a=Caf\\u00E9\n": FileStyle(True, False),
             "a=Café \\u00e9\n": FileStyle(), "a=plain\nb=\\u0041 ascii escape\n": FileStyle(True),
             "a=\\\\u00e9 not an escape\n": FileStyle(True), "a=\\u2026 \\u00fc\n": FileStyle(True, True)}
    for number, (text, style) in enumerate(cases.items()):
        path = tmp_path / f"{number}.properties"
        path.write_text(text, encoding="utf-8")
        assert file_style(path) == style, text


def test_a_file_in_iso_8859_1_writes_as_unicode_escapes_only_what_it_has_no_byte_for():
    """Java's other encoding of properties files: "é" is its own, German quotes and dashes are not."""
    source = value("Caf\u00e9", FileStyle(encoding="iso8859-1"))
    assert source.written("„Café“ – ok") == "\\u201ECafé\\u201C \\u2013 ok"


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=40), escapes=st.booleans(),
       pattern=st.booleans(), marks=st.sampled_from(["", ":", "=:#!"]),
       encoding=st.sampled_from(["utf-8", "iso8859-1"]))
def test_a_written_translation_reads_back_as_it_was(text, escapes, pattern, marks, encoding):
    """Whatever the model answers, the value written for it reads back (as Java would) as that answer, in the file's
    encoding."""
    if not pattern and "''" in text:
        text = text.replace("'", "")  # a doubled apostrophe in a value makes it a pattern: its own case
    raw = "".join("\\" + mark for mark in marks) + ("{0}" if pattern else "x")
    style = FileStyle(escapes, encoding=encoding)
    written = value(raw, style).written(text)
    assert "\n" not in written and "\r" not in written and (not escapes or written.isascii())
    assert value(written.encode(encoding).decode(encoding), style).text == text
