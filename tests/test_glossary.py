"""Glossaries: where a text holds their terms, what is written for them, and what is refused."""

import pytest

from service.cli import main
from translator.glossary import MAX_ENTRIES, Glossary, read_file
from translator.text import prepare
from tests.test_text_pipeline import whole_and_streamed

GLOSSARY = Glossary.of([("cloud", "Wolke"), ("Firefox", ""), ("log in", "anmelden"), ("Cloud Console", "Konsole"),
                        ("cloud storage", "Cloud-Speicher"), (".NET", ""), ("e-mail", "E-Mail")])


@pytest.mark.parametrize("text, found", [
    ("Open the cloud settings.", [(9, 14, "Wolke")]),
    ("Cloud sync is off.", [(0, 5, "Wolke")]),  # a term in small letters is found in any case
    ("Log in first.", [(0, 6, "Anmelden")]),  # and written with a capital where the text began it with one
    ("Restart firefox or Firefox.", [(19, 26, "Firefox")]),  # one with a capital only as written; "" keeps it
    ("The clouds and a subcloud.", []),  # whole words only
    ("Use cloud storage or the Cloud Console.", [(4, 17, "Cloud-Speicher"), (25, 38, "Konsole")]),  # the longest
    ("Built on .NET and e-mail.", [(9, 13, ".NET"), (18, 24, "E-Mail")]),  # terms that start or hold no word
    ("cloud cloud", [(0, 5, "Wolke"), (6, 11, "Wolke")]),
])
def test_a_glossary_finds_its_terms_as_whole_words(text, found):
    assert GLOSSARY.terms(text) == found


@pytest.mark.parametrize("text, html, preserve, translated", [
    ("Open the cloud settings in Firefox.", False, True, "Open the Wolke settings in Firefox."),
    ("Open the cloud settings.", False, False, "Open the Wolke settings."),  # whatever preserve_placeholders says
    ("<p>Open the <b>cloud</b> settings.</p>", True, True, "<p>Open the <b>Wolke</b> settings.</p>"),
    ("See https://cloud.example.com/cloud now.", False, True, "See https://cloud.example.com/cloud now."),
    # beside a tag, a term is an item of its own: one with the tag was not written, nor the tag's alt text read
    ('<p>The <img alt="A cloud" src="cloud.png"> cloud.</p>', True, True,
     '<p>The <img alt="A Wolke" src="cloud.png"> Wolke.</p>'),
])
def test_a_texts_terms_are_kept_from_the_model_and_written_as_the_glossary_says(text, html, preserve, translated):
    """The model sees a placeholder for a term (here it echoes its input); the term's target goes where the
    placeholder comes back, and into the text a reader sees in a tag (an image's alternative text). A term inside
    what is kept anyway (an address) is left as written."""
    prepared = prepare(text, preserve, html, glossary=GLOSSARY)
    assert not any("cloud" in segment.lower() for segment in prepared.segments if "://" not in text)
    assert prepared.restore(list(prepared.segments)) == translated


@pytest.mark.parametrize("text, html, translated", [
    ("You have {cloud} files in {{ cloud }}.", False, "You have {cloud} files in {{ cloud }}."),
    ("Run /usr/bin/cloud --cloud or `cloud init` on the cloud.", False,
     "Run /usr/bin/cloud --cloud or `cloud init` on the Wolke."),
    ("Mail cloud@example.org or see %cloud% and $cloud.", False, "Mail cloud@example.org or see %cloud% and $cloud."),
    ("{cloud, plural, one {# cloud} other {# clouds}}", False, "{cloud, plural, one {# Wolke} other {# clouds}}"),
    ('<p class="cloud">The cloud.</p><code>cloud</code>', True, '<p class="cloud">The Wolke.</p><code>cloud</code>'),
    ("Keep %s and Windows 10 here.", False, "Keep (Zeichenkette) and Windows 10 (Version) here."),  # held whole
])
def test_a_term_inside_what_is_kept_as_written_is_left_as_written(text, html, translated):
    """A placeholder, a path, an option, code, an address, an ICU argument's name, a tag is kept as written: a term
    "cloud" is not written into "{cloud}" ("{Wolke}" is a placeholder the program does not fill). A term that holds
    such an item whole is the client's choice and is written."""
    glossary = Glossary.of([("cloud", "Wolke"), ("%s", "(Zeichenkette)"), ("Windows 10", "Windows 10 (Version)")])
    prepared = prepare(text, True, html, glossary=glossary)
    assert prepared.restore(list(prepared.segments)) == translated


@pytest.mark.parametrize("text, model_wrote, translated", [
    ("Open the file.", "Öffnen Sie das XX0X.", "Öffnen Sie die Akte."),
    ("A new file was made.", "Ein neues XX0X wurde gemacht.", "Eine neue Akte wurde gemacht."),
    ("I see a file and the server.", "Ich sehe ein XX0X und den XX1X.", "Ich sehe eine Akte und den Rechner."),
    ("Go to the cloud.", "Geh zum XX0X.", "Geh zur Wolke."),
    ("The name of the server.", "Der Name des XX0X.", "Der Name des Rechner."),  # not "Rechners": as the term says
])
def test_the_articles_before_a_term_agree_with_the_noun_it_is_written_as_whole_and_streamed(text, model_wrote,
                                                                                            translated):
    """The model sees a token for a term and guesses its article ("das XX0X" for "Akte"); the article agrees with
    the noun the glossary writes, in the whole translation and in its stream alike."""
    glossary = Glossary.of([("file", "Akte"), ("server", "Rechner"), ("cloud", "Wolke")])
    assert whole_and_streamed(text, model_wrote, glossary) == (translated, translated)


def test_without_a_glossary_the_text_is_prepared_as_before():
    text = "Open the cloud settings in Firefox at 5 p.m."
    assert prepare(text, glossary=Glossary.of([])).segments == prepare(text).segments


@pytest.mark.parametrize("entries, message", [
    ([("", "x")], r"glossary\[0\]: source '' has no letter or digit"),
    ([("a", "b"), (" cloud", "x")], r"glossary\[1\]: source ' cloud' starts or ends with a space"),
    ([("cloud", "Wolke"), ("Cloud", "x")], r"glossary\[1\]: source 'Cloud' is glossary\[0\]'s too \(case aside\)"),
    ([("x" * 101, "")], r"glossary\[0\]: the source has 101 characters; the limit is 100"),
    ([("x", "y" * 201)], r"glossary\[0\]: the target has 201 characters; the limit is 200"),
    ([("a\nb", "")], r"glossary\[0\]: the source holds the control character U\+000A"),
    ([(f"term {n}", "") for n in range(MAX_ENTRIES + 1)], "glossary has more than 1000 entries"),
])
def test_a_glossary_that_is_not_one_is_refused_naming_the_entry(entries, message):
    with pytest.raises(ValueError, match=message):
        Glossary.of(entries)


def test_a_glossary_file_is_read_by_line(tmp_path):
    path = tmp_path / "terms.tsv"
    path.write_text("\ufeff# product names\nFirefox\ncloud\t Wolke \n\n  # indented comment\nlog in\t\n",
                    encoding="utf-8")
    assert read_file(path).entries == (("Firefox", ""), ("cloud", "Wolke"), ("log in", ""))
    path.write_text("cloud\tWolke\n\nCloud\tWolken\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{path}:3: source 'Cloud' is {path}:1's too"):
        read_file(path)
    path.write_text("cloud\tWolke\tx\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"{path}:1: more than one tab"):
        read_file(path)
    path.write_bytes("Stra\xdfe\tx\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"is not UTF-8 text .* save it as UTF-8"):
        read_file(path)


def test_the_commands_refuse_a_bad_glossary_file_before_connecting(tmp_path, capsys):
    path = tmp_path / "terms.tsv"
    path.write_text("cloud\tWolke\n\tWolken\n", encoding="utf-8")
    for command in (["translate", "hello"], ["batch", str(tmp_path / "in.txt"), str(tmp_path / "out.txt")]):
        with pytest.raises(SystemExit) as exited:
            main([*command, "--glossary", str(path), "--server", "127.0.0.1:9"])
        assert exited.value.code == 2
        assert f"argument --glossary: {path}:2: source '' has no letter or digit" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["translate", "hello", "--glossary", str(tmp_path / "missing.tsv")])
    assert "missing.tsv is not a file" in capsys.readouterr().err
