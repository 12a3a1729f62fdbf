"""Files of code or settings read for their comments (--format comments, service.comments)."""

from service import comments
from service.batch import Settings, read_items
from tests.test_batch_jobs import SHORT, alone, batch, server  # noqa: F401 (a fixture)

PRESEED = ["#_preseed_V1",
           "### Localization",
           "# Preseeding only locale sets language, country and",
           "# locale.",
           "d-i debian-installer/locale string en_US",
           "#",
           "# The values can also be preseeded individually.",
           "#d-i debian-installer/language string en",
           "# d-i keyboard-configuration/toggle select No toggling",
           "  // Keep the bus alive.",
           "  ; another mark, another run",
           "#!/bin/sh",
           "#Port 22",
           "# Configuration data is parsed as follows:",
           "#  1. command line options",
           "#   Port 22",
           "#   GSSAPIKeyExchange no",
           "# DHOME=/home"]


def test_each_run_of_comment_lines_is_a_text_and_commented_out_code_is_kept():
    """Read as paragraphs, the installation guide's example preseed file came back with 132 of its 136 settings
    changed ("d-i debian-installer/locale string en_US" as "... lokale Zeichenkette en_US"). A run of comment lines
    with the same indentation and marks is one text (a mark alone ends it, a list item starts one); no space after
    the marks, more than one (but a list item's), an assignment, a key in CamelCase with a value, or a first word
    that starts another line of the file, is commented-out code."""
    assert [(comment.first, comment.lines, comment.text) for comment in comments.comments(PRESEED)] == [
        (1, 1, "Localization"), (2, 2, "Preseeding only locale sets language, country and locale."),
        (6, 1, "The values can also be preseeded individually."), (9, 1, "Keep the bus alive."),
        (10, 1, "another mark, another run"), (13, 1, "Configuration data is parsed as follows:"),
        (14, 1, "1. command line options")]
    run = next(comments.comments(PRESEED[2:4]))
    assert run.written("Nur die Vorgabe der Locale setzt Sprache, Land und Locale.") == (
        "# Nur die Vorgabe der Locale\n# setzt Sprache, Land und Locale.")  # cut nearest the middle
    assert run.written("Kurz") == "# Kurz\n#"  # a line with no word keeps its mark alone


def test_a_comments_job_reads_every_line_and_sends_only_the_comments(tmp_path):
    source = tmp_path / "preseed.cfg"
    source.write_text("\n".join(PRESEED) + "\n", encoding="utf-8")
    items = list(read_items(source, Settings(format="comments")))
    assert [(item.line, item.lines, item.text) for item in items if item.text] == [
        (2, 1, "Localization"), (3, 2, "Preseeding only locale sets language, country and locale."),
        (7, 1, "The values can also be preseeded individually."), (10, 1, "Keep the bus alive."),
        (11, 1, "another mark, another run"), (14, 1, "Configuration data is parsed as follows:"),
        (15, 1, "1. command line options")]
    assert "\n".join(item.source for item in items) == "\n".join(PRESEED)
    assert items[2].written_as(items[2].text) == "# Preseeding only locale sets\n# language, country and locale."


def test_a_configuration_files_comments_are_translated_through_the_server(server, tmp_path):  # noqa: F811
    """Its settings and commented-out settings come back as written, its comments translated over as many lines."""
    source = tmp_path / "preseed.cfg"
    source.write_text("\n".join(PRESEED) + "\n", encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "out.cfg", "--format", "comments", *SHORT)
    assert code == 0, err
    written = (tmp_path / "out.cfg").read_text(encoding="utf-8").split("\n")
    assert len(written) == len(PRESEED) + 1
    for number in (0, 4, 5, 7, 8, 11, 12, 15, 16, 17):
        assert written[number] == PRESEED[number]
    translation = alone(server.target, ["Preseeding only locale sets language, country and locale."])[0]
    assert [line[:2] for line in written[2:4]] == ["# ", "# "]
    assert " ".join(line[2:] for line in written[2:4]) == " ".join(translation.split())
    assert written[1].startswith("### ") and written[9].startswith("  // ") and written[10].startswith("  ; ")
