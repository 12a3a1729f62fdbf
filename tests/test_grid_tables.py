"""Tables drawn with characters in plain text: their cells translated, the table drawn again (service.grid_tables)."""

from service import grid_tables
from service.batch import Settings, read_paragraphs
from tests.test_batch_jobs import SHORT, alone, batch, server  # noqa: F401 (a fixture)

# As w3m renders the Debian Reference's tables: indented by no-break spaces or spaces, the heading centered, a
# cell's words over its row's lines, a package's name and numbers in cells of their own
TABLE = ["    +---------------------------------------------+",
         "    | package |popcon|        description         |",
         "\xa0\xa0\xa0 |---------+------+----------------------------|",
         "    |mc       |V:54, |A text-mode full-screen file|",
         "    |         |I:226 |manager                     |",
         "    |---------+------+----------------------------|",
         "    |         |V:97, |Unix text editor Vi IMproved|",
         "    |vim-tiny |I:971 |(compact version)           |",
         "    |         |      |                            |",
         "    +---------------------------------------------+"]


def test_a_drawn_tables_cells_are_its_texts_and_it_is_drawn_again_around_their_translations():
    """Read line by line, each line's pieces of cells came back translated apart, the "|"s moved and numbers changed
    ("|vim-tiny |I:971 |1660 |" as "|vim-tiny |I:971 1660 | |", "V:55," as "V:5,"). A cell's words are one text; a
    package's name under the heading, numbers and empty cells are kept. Drawn again, each row keeps its lines (the
    table its height), a column is as wide as its widest translation needs to fit its row, the heading stays
    centered, each line's indentation its own; with its own texts the table is as written."""
    table = grid_tables.read(TABLE)
    assert table.texts == ["package", "popcon", "description", "A text-mode full-screen file manager",
                           "Unix text editor Vi IMproved (compact version)"]
    assert table.written(grid_tables.CELLS_APART.join(table.texts)) == "\n".join(TABLE)
    translations = ["Paket", "Beliebtheit", "Beschreibung", "Ein Dateimanager im Textmodus mit ganzem Bildschirm",
                    "Unix-Texteditor Vi IMproved (kompakte Version)"]
    assert table.written(grid_tables.CELLS_APART.join(translations)).split("\n") == [
        "    +---------------------------------------------------+",
        "    |  Paket  |Beliebtheit|        Beschreibung         |",
        "\xa0\xa0\xa0 |---------+-----------+-----------------------------|",
        "    |mc       |V:54,      |Ein Dateimanager im Textmodus|",
        "    |         |I:226      |mit ganzem Bildschirm        |",
        "    |---------+-----------+-----------------------------|",
        "    |         |V:97,      |Unix-Texteditor Vi IMproved  |",
        "    |vim-tiny |I:971      |(kompakte Version)           |",
        "    |         |           |                             |",
        "    +---------------------------------------------------+"]
    # a row of one line widens its column to hold the translation on it
    wider = ["Paket", "Beliebtheit unter Debians Nutzern", *translations[2:]]
    wide = table.written(grid_tables.CELLS_APART.join(wider))
    assert wide.split("\n")[1] == "    |  Paket  |Beliebtheit unter Debians Nutzern|        Beschreibung         |"
    # a translation of another number of texts changes nothing
    assert table.written("Paket") == "\n".join(TABLE)


def test_a_table_whose_bars_do_not_line_up_is_kept_and_other_paragraphs_are_no_tables():
    """A cell that spans columns, or a "|" in a cell's text (a regular expression's table), leaves no columns to draw
    again: the table is kept as written. Lines that only start with a rule are text."""
    spanned = ["+-------+-------+", "| a b   | c d   |", "|-------+-------|", "| one cell wide |", "+-------+-------+"]
    table = grid_tables.read(spanned)
    assert table.texts == [] and table.written("x") == "\n".join(spanned)
    assert grid_tables.read(["+---+", "not a row", "+---+"]) is None
    assert grid_tables.read(["+---+---+", "| a | b |"]) is None  # no closing rule
    assert grid_tables.read(["Some text", "+---+", "| a |", "+---+"]) is None


def test_a_paragraphs_job_sends_a_drawn_tables_cells_and_writes_the_table_drawn_again(tmp_path):
    source = tmp_path / "reference.txt"
    source.write_text("Table 1.1. Packages\n\n" + "\n".join(TABLE) + "\n\n+--+--+\n| a| b|\n|-----|\n+--+--+\n",
                      encoding="utf-8")
    items = list(read_paragraphs(source, Settings(format="paragraphs")))
    table = items[2]
    assert (table.line, table.lines, table.source) == (3, len(TABLE), "\n".join(TABLE))
    assert table.text == grid_tables.CELLS_APART.join(grid_tables.read(TABLE).texts)
    assert table.written_as(table.text) == "\n".join(TABLE)
    kept = items[4]  # a rule of other marks than its table's: kept as written, nothing sent
    assert (kept.text, kept.source) == ("", "+--+--+\n| a| b|\n|-----|\n+--+--+")
    # a Markdown page's table at its margin is one, but one indented as code is its code, kept as written
    page = tmp_path / "README.md"
    code = "\n".join(TABLE).replace("\xa0", " ")
    page.write_text("Packages:\n\n" + "\n".join(line.lstrip("\xa0 ") for line in TABLE) + "\n\nCode:\n\n"
                    + code + "\n", encoding="utf-8")
    items = list(read_paragraphs(page, Settings(format="paragraphs")))
    assert items[2].text == table.text and (items[6].text, items[6].source) == ("", code)


def test_a_drawn_table_is_translated_through_the_server(server, tmp_path):  # noqa: F811 (the fixture)
    """Each cell's text is translated as when sent alone, and the output has as many lines, the table well drawn."""
    source = tmp_path / "reference.txt"
    source.write_text("Packages:\n\n" + "\n".join(TABLE) + "\n\nDone.\n", encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "out.txt", "--format", "paragraphs", *SHORT)
    assert code == 0, err
    lines = (tmp_path / "out.txt").read_text(encoding="utf-8").split("\n")
    assert len(lines) == 2 + len(TABLE) + 3
    drawn = grid_tables.read(lines[2:2 + len(TABLE)])
    assert drawn.cells and len(drawn.rows) == 3 and len(drawn.bounds) == 4
    placed = {(cell.row, cell.column): cell.text for cell in drawn.cells}
    for cell in grid_tables.read(TABLE).cells:
        if not cell.sent:  # a package's name, numbers, an empty cell
            assert placed[cell.row, cell.column] == cell.text
    heading, *_ = alone(server.target, ["package"])
    assert placed[0, 0] == " ".join(heading.split())
