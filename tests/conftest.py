"""Shared fixtures: a tiny dictd dictionary written by the tests themselves, and small models."""

from __future__ import annotations

from pathlib import Path

import pytest

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

ENTRIES = [
    ("station", 'station /stˈeɪʃən/\nBahnhof <masc> [transp.], Station <fem>\n'
                '      "Where is the station?"  - Wo ist der Bahnhof?\n'
                '      "the main station"  - der Hauptbahnhof\n'),
    ("apple", 'apple /ˈapəl/\nApfel <masc>\n      "an apple a day"  - ein Apfel am Tag\n'
              '      "I eat an apple."  - Ich esse einen Apfel., Ich esse \'nen Apfel.\n'),
    ("street", 'street /stɹˈiːt/\n [coll.] Straße <fem>, Gasse <fem>\n         Note: in a town\n'
               '      "He crossed the street."  - Er überquerte die Straße.\n see: {streets}\n'),
    ("colour", 'colour/color /kˈʌlə/\nFarbe <fem>\n      "colour/color fastness"  - Farbechtheit\n'
               '      "I like (the) green colour."  - Ich mag die grüne Farbe.\n'),
    ("greeting", 'greeting /ɡɹˈiːtɪŋ/\nGruß <masc>\n      "Greetings from Munich!"  - Grüße aus München!\n'
                 '      "Greetings from Munich!"  - Grüße aus München!\n'),
    ("broken", 'broken /bɹˈəʊkən/\n'),
]


def b64(number: int) -> str:
    digits = ""
    while True:
        digits = B64[number % 64] + digits
        number //= 64
        if number == 0:
            return digits


def write_dictd(directory: Path, entries=ENTRIES, extra_examples: int = 0) -> Path:
    """A dictd database (.index + .dict) in the format Debian's package ships."""
    directory.mkdir(parents=True, exist_ok=True)
    entries = list(entries) + [
        (f"thing{i}", f"thing{i} /θˈɪŋ/\nDing{i} <neut>\n      \"The thing {i} is here.\"  - Das Ding {i} ist hier.\n")
        for i in range(extra_examples)
    ]
    header = "00-database-info\nThis is a test dictionary.\n"
    body, index = header.encode(), [f"00-database-info\t{b64(0)}\t{b64(len(header.encode()))}"]
    for headword, text in entries:
        raw = text.encode("utf-8")
        index.append(f"{headword}\t{b64(len(body))}\t{b64(len(raw))}")
        body += raw
    (directory / "freedict-eng-deu.dict").write_bytes(body)
    (directory / "freedict-eng-deu.index").write_text("\n".join(sorted(index)) + "\n", encoding="utf-8")
    return directory


@pytest.fixture
def dictd_dir(tmp_path: Path) -> Path:
    return write_dictd(tmp_path / "dictd", extra_examples=300)
