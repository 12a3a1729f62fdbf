from conftest import write_dictd

from model.data import (Pair, build_corpus, clean, decode_b64_number, is_broken, parse_entry, read_dictd, read_tsv, split_of,
                        split_pairs, write_tsv)


def test_b64_offsets_decode():
    assert decode_b64_number("A") == 0
    assert decode_b64_number("BA") == 64
    assert decode_b64_number("DD") == 3 * 64 + 3


def test_annotations_are_stripped():
    assert clean("Bahnhof <masc> [transp.]") == "Bahnhof"
    assert clean("[coll.] Straße <fem>") == "Straße"
    assert clean("I like (the) green colour/color.") == "I like green colour."
    assert clean("eel /ˈiːl/ {eel spear}") == "eel"


def test_alternatives_are_cut_outside_annotations():
    """"<v, intr>" holds the ", " that separates a German side's alternatives: cut there, "abdanken <v" was one of
    14,309 training pairs' German that ended in a cut annotation, and the model wrote "<v" after verbs."""
    pairs, _ = parse_entry("abdicate /ˈæbdɪkeɪt/\nabdanken <v, intr>, zurücktreten <v, intr>\n")
    assert pairs == [Pair("abdicate", "abdanken", "entry")]
    pairs, _ = parse_entry("allay\nlindern [Schmerzen, Gefühle], zerstreuen [Verdacht]\n")
    assert pairs == [Pair("allay", "lindern", "entry")]
    pairs, _ = parse_entry("abseil\nsich (von etw., jdm.) abseilen <v>, abseilen\n")
    assert pairs == [Pair("abseil", "sich abseilen", "entry")]
    assert is_broken(Pair("left parenthesis", "Klammer(", "entry")) == "annotation residue"
    assert is_broken(Pair("unclosed", "Eins [x, Zwei", "entry")) == "annotation residue"


def test_entries_and_examples_are_parsed(dictd_dir):
    pairs, counts = read_dictd(dictd_dir / "freedict-eng-deu.index", dictd_dir / "freedict-eng-deu.dict")
    got = {(p.en, p.de, p.kind) for p in pairs}
    assert ("station", "Bahnhof", "entry") in got
    assert ("street", "Straße", "entry") in got  # leading [coll.] removed, first alternative kept
    assert ("Where is the station?", "Wo ist der Bahnhof?", "example") in got
    assert ("I eat an apple.", "Ich esse einen Apfel.", "example") in got  # second sentence alternative dropped
    assert ("He crossed the street.", "Er überquerte die Straße.", "example") in got
    assert ("colour fastness", "Farbechtheit", "example") in got
    assert counts["duplicate example"] == 1  # "Greetings from Munich!" twice
    assert counts["dropped: entry without translation"] == 1  # "broken"
    assert not any("<" in p.de or "[" in p.de or "/" in p.en for p in pairs)


def test_split_is_deterministic_and_disjoint(dictd_dir, tmp_path):
    out = tmp_path / "data"
    stats = build_corpus(out, dictd_dir)
    train = read_tsv(out / "train.tsv")
    held_out = read_tsv(out / "valid.tsv") + read_tsv(out / "test.tsv")
    assert held_out, "the fixture is large enough to put some examples in valid/test"
    assert all(p.kind == "example" for p in held_out)
    train_english = {p.en.lower() for p in train}
    assert not any(p.en.lower() in train_english for p in held_out)
    assert stats["splits"]["train"]["total"] == len(train)
    assert (out / "stats.json").exists()
    again = tmp_path / "again"
    build_corpus(again, dictd_dir)
    assert (again / "test.tsv").read_text() == (out / "test.tsv").read_text()


def test_entry_whose_english_is_held_out_leaves_train():
    english = next(f"held {i}" for i in range(1000) if split_of(f"held {i}") == "test")
    splits = split_pairs([Pair(english, "x", "example"), Pair(english, "y", "entry")])
    assert splits["train"] == [] and len(splits["test"]) == 1


def test_reverse_dictionary_adds_to_train_only(dictd_dir, tmp_path):
    """dict-freedict-deu-eng's examples ("German"  - English) that eng-deu lacks join train; valid/test stay."""
    def english(template, split):
        return next(template.format(i) for i in range(2000) if split_of(template.format(i)) == split)
    new, held_out = english("A new thing {} is here.", "train"), english("A new thing {} is here.", "test")
    known = english("The thing {} is here.", "train")  # one of the fixture's eng-deu examples (i < 300)
    number = known.split()[2]
    reverse = write_dictd(tmp_path / "deu-eng", [("Ding", (
        f'Ding /dɪŋ/ <neut>\nthing\n      "Ein neues Ding."  - {new}, A fresh thing.\n'
        f'      "Noch ein Ding."  - {held_out}\n      "Das Ding {number} ist hier."  - {known}\n'
        f'      "Das Ding {number} ist da."  - {known}\n'))], name="freedict-deu-eng")
    plain, folded = tmp_path / "plain", tmp_path / "folded"
    build_corpus(plain, dictd_dir)
    stats = build_corpus(folded, dictd_dir, reverse)
    for split in ("valid", "test"):
        assert (plain / f"{split}.tsv").read_text() == (folded / f"{split}.tsv").read_text()
    added = set(read_tsv(folded / "train.tsv")) - set(read_tsv(plain / "train.tsv"))
    assert added == {Pair(new, "Ein neues Ding.", "example"), Pair(known, f"Das Ding {number} ist da.", "example")}
    counts = stats["counts"]
    assert counts["deu-eng: kept new English"] == 1 and counts["deu-eng: kept another German rendering"] == 1
    assert counts["deu-eng: duplicate of eng-deu"] == 1 and counts["deu-eng: dropped: held-out English"] == 1


def test_the_lexicon_command_writes_the_word_lists_of_every_corpus_or_says_what_is_missing(tmp_path, capsys):
    from service.cli import main
    from translator import lexicon

    for corpus, pairs in (("dictionary", [Pair("Monday", "Montag", "entry"), Pair("ask Anna", "frag Anna", "example")]),
                          ("software", [Pair("Open Grafana", "Grafana öffnen", "software")])):
        (tmp_path / corpus).mkdir()
        write_tsv(tmp_path / corpus / "train.tsv", pairs)
    (tmp_path / "words").write_text("Linda\nMonday\nask\nAsk\nO'Neil\n", encoding="utf-8")
    german = write_dictd(tmp_path / "deu-eng", [("Montag", "Montag /mˈoːntɑːk/ <masc, n, sg>\nMonday\n")],
                         name="freedict-deu-eng")
    out = tmp_path / "wordlists"
    assert main(["data", "lexicon", "--data", str(tmp_path / "dictionary"), "--extra-data", str(tmp_path / "software"),
                 "--proper-nouns", str(tmp_path / "words"), "--genders", str(german), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "3 pairs and 5 words of words: 3 English words" in printed and "1 German nouns' genders" in printed
    assert lexicon.load(out) == lexicon.Lexicon(words=frozenset({"ask", "Monday", "Open"}),
                                                names=frozenset({"Anna", "Grafana", "Linda"}), genders={"Montag": "m"})
    assert main(["data", "lexicon", "--data", str(tmp_path / "dictionary"), "--proper-nouns", str(tmp_path / "words"),
                 "--genders", str(tmp_path / "nowhere"), "--out", str(out)]) == 1
    assert "no dictd .index file under" in capsys.readouterr().err
    assert main(["data", "lexicon", "--data", str(tmp_path / "nowhere"), "--out", str(out)]) == 2
    assert "nowhere/train.tsv missing: prepare the corpus first" in capsys.readouterr().err
