"""The shipped checkpoint exports with proven parity, as `make serve` and the Docker build do it."""

import json
import re
import shutil
from pathlib import Path

import pytest

from export.repository import export_model, is_stale
from service.cli import main

ROOT = Path(__file__).resolve().parent.parent
CHECKPOINT = ROOT / "model" / "default"
DATA = ROOT / "data"  # fetched with apt-get on first use (git-ignored)


@pytest.fixture(scope="module")
def exported_default(tmp_path_factory):
    out = tmp_path_factory.mktemp("repository") / "en-de" / "1"
    report = export_model(CHECKPOINT, out, DATA)
    return out, report


def test_default_model_exports_with_full_parity(exported_default):
    out, report = exported_default
    assert report["passed"], report["failures"]
    assert report["tensor"]["batches"] >= 32 and report["tensor"]["outputs"]["logits"]["max_abs"] <= report["logits_bound"]
    sequence = report["sequence"]
    assert sequence["sentences"] >= 500 and not sequence["mismatches"]
    assert sequence["token_identical"] + len(sequence["near_ties"]) == sequence["sentences"]
    assert not is_stale(out, CHECKPOINT)


def test_validate_prints_the_report_and_exits_zero(exported_default, capsys):
    out, _ = exported_default
    assert main(["validate", str(out), "--checkpoint", str(CHECKPOINT), "--data", str(DATA)]) == 0
    printed = capsys.readouterr().out
    assert "greedy outputs token-identical" in printed and " 0 mismatches" in printed and "PASSED" in printed


def test_default_model_translates(exported_default):
    from service.translator import Translator

    out, _ = exported_default
    [result] = Translator(out).translate_batch(["Where is the station?"])
    assert result.text and result.text != "Where is the station?"
    card = (CHECKPOINT / "MODEL_CARD.md").read_text()
    assert "GPL" in card and "AGPL" in card
    assert json.loads((out / "config.json").read_text())["model"]["decoder_layers"] == 2


def test_beam_search_equals_pytorch_on_200_test_sentences(exported_default):
    """The served engine's beam search (n-best and scores) against model/beam.py over the same checkpoint."""
    from model.beam import beam_search
    from model.checkpoint import load_checkpoint, pad_batch
    from model.data import read_tsv
    from service.decoding import MAX_REPEAT_PERIOD, DecodingOptions
    from service.runtime import Runtime
    from service.scheduler import decode

    out, _ = exported_default
    model, tokenizer = load_checkpoint(CHECKPOINT)
    sources = tokenizer.encode_batch([p.en for p in read_tsv(DATA / "test.tsv")[:200]])
    options = DecodingOptions(max_output_tokens=48, beam_size=4, num_hypotheses=2, return_scores=True).validate(256)
    ours = decode(Runtime(out), sources, options)
    identical = 0
    for start in range(0, len(sources), 25):
        src, mask = pad_batch(sources[start : start + 25], model.cfg.pad_id)
        reference = beam_search(model, src, mask, 4, 48, num_hypotheses=2, repeat_period=MAX_REPEAT_PERIOD)
        for mine, theirs in zip(ours[start : start + 25], reference):
            identical += [h.token_ids for h in mine.hypotheses] == [h.token_ids for h in theirs]
            assert abs(mine.hypotheses[0].score - theirs[0].score) <= 1e-4
    assert identical == len(sources)


def test_inline_tags_cost_the_shipped_model_no_words(exported_default):
    """Elements are taken out before translation: the words are the untagged sentence's, and the tags wrap the
    words the alignments give (as tokens, "The <b>house</b> is red." came back as "Das Gebäude <b></b> ist rot.")."""
    from service.translator import Translator
    from translator.markup import TAG

    out, _ = exported_default
    translator = Translator(out)
    tagged = ["The <b>house</b> is red.", 'Click <a href="/x">here</a> to continue.', "This is <i>very</i> important.",
              "<b>Warning:</b> the disk is full."]
    translations = translator.translate(tagged)
    assert [TAG.sub("", t) for t in translations] == translator.translate([TAG.sub("", t) for t in tagged])
    assert "<b>Haus</b>" in translations[0] and '<a href="/x">hier</a>' in translations[1]
    assert "<i>sehr</i>" in translations[2] and translations[3].startswith("<b>Warnung:</b>")


def test_an_int8_translation_does_not_depend_on_what_it_is_batched_with(exported_default, tmp_path):
    """With one activation scale per batch (ORT's dynamic quantization), 18 of these 100 sentences came out
    different translated alone than batched with the next 200: under load the same request got other words."""
    from export.quantize import quantize_int8
    from model.data import read_tsv
    from service.translator import Translator

    out, _ = exported_default
    model_dir = tmp_path / "1"
    shutil.copytree(out, model_dir)
    quantize_int8(model_dir, [p.en for p in read_tsv(DATA / "valid.tsv")])
    translator = Translator(model_dir, precision="int8")
    sentences = [p.en for p in read_tsv(DATA / "test.tsv")[:300]]
    batched = translator.translate(sentences)[:100]
    assert [translator.translate([sentence])[0] for sentence in sentences[:100]] == batched


def test_an_escaped_text_is_translated_as_the_text_itself(exported_default):
    """A web page escapes & < > " ' as character references. As placeholder tokens they cost the words beside them:
    of the 134 test sentences with such characters, 2 came back as the unescaped sentence's translation ("I
    don&#39;t know." as "Ich weiß nicht.&#39;t."). Read as their characters, each does, escaped as the source was,
    whole and streamed over gRPC."""
    import html

    from model.data import read_tsv
    from service.client import TranslatorClient
    from service.translator import Translator
    from tests.grpc_server import RunningServer
    from tests.test_server import config_for

    out, _ = exported_default
    sentences = [p.en for p in read_tsv(DATA / "test.tsv") if html.escape(p.en) != p.en][:40]
    escaped = [html.escape(sentence) for sentence in sentences]
    translator = Translator(out, placeholder_retry_beams=0)  # as a stream is: never decoded again with beams
    plain = translator.translate(sentences)
    translated = translator.translate(escaped, html=True)
    spaced = "It costs 10&nbsp;euros. Save &amp; close. DELETE ALL FILES? SAVE THE FILE &amp; QUIT."
    [spaced_translation] = translator.translate([spaced], html=True)
    assert [html.unescape(t) for t in translated] == plain
    assert not any(set(t) & set("'\"<>") or re.search(r"&(?!#x27;|quot;|amp;|lt;|gt;)", t) for t in translated)
    running = RunningServer(config_for(out))
    try:
        with TranslatorClient(running.target) as client:
            chunks = list(client.stream(escaped[:10] + [spaced], html=True))
    finally:
        running.stop()
    streamed = ["".join(c.text for c in chunks if c.index == i) for i in range(11)]
    finals = {c.index: c.final.text for c in chunks if c.HasField("final")}
    assert streamed[:10] == translated[:10] == [finals[i] for i in range(10)]
    # "&" is read as the character, so the model may keep it or write "und"; either way the page stays escaped
    assert streamed[10] == spaced_translation and "10&nbsp;Euro" in spaced_translation
    assert not re.search(r"&(?!nbsp;|amp;|lt;|gt;|quot;|#x27;)", spaced_translation)
    assert "ALLE DATEIEN LÖSCHEN?" in spaced_translation  # in capitals, streamed pieces too


def test_numbers_come_back_exactly(exported_default):
    """The model changed numbers: 3 of the test split's 20 sentences with one ("upwards of 100 employees" came back
    as "aktuellen Mitarbeiter"), "value must be in the range 0 to 240" as "Wert muss im Bereich 240 auf 240 sein". A
    number grouped in thousands or a quantity comes back as German writes it ("8,000 points": "8.000 Punkte"); one
    that begins a German compound counts as kept ("a 200 kilo block": "ein 200-Block")."""
    from model.data import read_tsv
    from service.translator import Translator
    from translator.text import NUMBER, numbers_in_german

    out, _ = exported_default
    sentences = [p.en for p in read_tsv(DATA / "test.tsv") if re.search(NUMBER, p.en)] + [
        "value must be in the range 0 to 240", "Permissions should be u=rwx (0700) or u=rwx,g=rx (0750).",
        "The selected opacity value (0 fully transparent, 65535 fully opaque)"]
    assert len(sentences) >= 20
    for sentence, translation in zip(sentences, Translator(out).translate(sentences)):
        words = re.sub(r"(?<=\d)-(?=[^\W\d])", " ", translation)
        assert sorted(re.findall(NUMBER, words)) == sorted(numbers_in_german(sentence)), (sentence, translation)


def test_a_text_in_capitals_is_translated_as_words(exported_default):
    """Of 100 test sentences in capitals, the model read the letters: chrF 14.63 against the capitalized references
    over 600 such sentences, where the sentences as written score 35.93 ("DELETE ALL FILES?" came back as "DELETEE
    ALLESEITEIS?")."""
    import sacrebleu

    from model.data import read_tsv
    from service.translator import Translator

    out, _ = exported_default
    pairs = [p for p in read_tsv(DATA / "test.tsv") if len(p.en.split()) >= 2][:100]
    translator = Translator(out)
    capitals = translator.translate([p.en.upper() for p in pairs] + ["DELETE ALL FILES?"])
    references = [p.de.upper() for p in pairs]
    as_written = [t.upper() for t in translator.translate([p.en for p in pairs])]
    assert capitals[-1] == "ALLE DATEIEN LÖSCHEN?"
    shouted = sacrebleu.corpus_chrf(capitals[:-1], [references]).score
    assert shouted >= sacrebleu.corpus_chrf(as_written, [references]).score - 6, shouted


def test_a_semicolon_the_vocabulary_lacks_costs_no_words(exported_default):
    """The shipped vocabulary lacks ";": as a placeholder token it cost the clause after it."""
    from service.translator import Translator

    out, _ = exported_default
    assert Translator(out).translate(["He's here; she's not."]) == ["Er ist hier; sie ist nicht."]


def test_text_that_looks_like_a_placeholder_token_is_served_without_placeholders(exported_default):
    """Without placeholders, "XX3X" beside a ";" (outside the shipped vocabulary) was taken for the token of item 3:
    IndexError, and the call failed with INTERNAL."""
    from service.client import TranslatorClient
    from tests.grpc_server import RunningServer
    from tests.test_server import config_for

    out, _ = exported_default
    running = RunningServer(config_for(out))
    try:
        with TranslatorClient(running.target) as client:
            [translation] = client.translate(["Save XX3X; then close XX0X."], preserve_placeholders=False).translations
    finally:
        running.stop()
    assert "XX3X" in translation.text and "XX0X" in translation.text and ";" in translation.text


def test_a_sentence_whose_greedy_translation_lost_a_placeholder_is_decoded_again_with_beams(exported_default):
    """Greedy, the shipped model dropped these tokens, which the text pipeline then put at the end ("wenn nicht
    fertig ist, muss set1 nicht leer sein string2"); the server decodes such a sentence again with 4 beams, in its
    engine worker processes, and answers the beams' hypothesis with the tokens in place (of a beam-4 request's
    four, the one that also leaves out fewest words: the same as in process), whether the call is unary or streamed."""
    from service.client import TranslatorClient
    from service.decoding import DecodingOptions
    from service.translator import Translator
    from tests.grpc_server import RunningServer
    from tests.test_server import config_for

    out, _ = exported_default
    texts = ["when not truncating set1, string2 must be non-empty", "Assign role to 1 user",
             "Unable to unmount the CD-ROM in %s, it may still be in use."]
    greedy = Translator(out, placeholder_retry_beams=0)
    segmented = greedy.segment(texts)
    greedy.translate_segmented(segmented)
    assert all(prepared.repairs for prepared in segmented.prepared)
    running = RunningServer(config_for(out))
    try:
        with TranslatorClient(running.target) as client:
            served = [translation.text for translation in client.translate(texts).translations]
            streamed = {chunk.index: chunk.final.text for chunk in client.stream(texts) if chunk.HasField("final")}
        retries = running.server.metrics.registry.get_sample_value("translator_placeholder_retries_total",
                                                                   {"model": "en-de"})
    finally:
        running.stop()
    assert served == Translator(out).translate(texts)
    beams = Translator(out).translate_texts(texts, options=DecodingOptions(beam_size=4, num_hypotheses=4))
    assert all(text in [hypothesis.text for hypothesis in translation.hypotheses]
               for text, translation in zip(served, beams))
    assert [streamed[i] for i in range(len(texts))] == served  # such a sentence never streams: retried there too
    assert retries == 2 * len(texts) and served[0].endswith("string2 nicht leer sein"), served


def test_an_acronym_greedy_decoding_lost_comes_back_from_the_beams(exported_default):
    """An acronym the model reads (not an item, so German compounds it: "QML-Modul") that the greedy translation
    lost is kept by the beam search's retry ("Qt Quick PDF QML module" came back as "Qt Quick-PDF-QModul"); one it
    wrote a letter off is written as read, with no retry ("ALSA" came back as "LSA")."""
    from service.translator import Translator

    out, _ = exported_default
    texts = ["Qt Quick PDF QML module", "an RGB colour mixer"]
    acronyms = ["QML", "RGB"]
    greedy = Translator(out, placeholder_retry_beams=0)
    assert not any(acronym in translation for acronym, translation in zip(acronyms, greedy.translate(texts))), texts
    misspelt = "documentation for user-space ALSA application programming"
    assert "-LSA-" in greedy.translate_batch([misspelt])[0].text and "-ALSA-" in greedy.translate([misspelt])[0]
    served = Translator(out).translate(texts)
    assert all(acronym in translation for acronym, translation in zip(acronyms, served)), served


def test_a_short_greedy_translation_is_decoded_again_with_beams(exported_default):
    """A greedy translation of fewer tokens than half its source's lost words ("tool for limiting the CPU usage of a
    process" came back as "Begrenzungswerkzeug"); the beams' longer one is answered."""
    from service.translator import Translator

    out, _ = exported_default
    texts = ["tool for limiting the CPU usage of a process", "application template generator"]
    greedy, served = Translator(out, placeholder_retry_beams=0), Translator(out)
    short = greedy.translate_texts(texts)
    assert all(2 * translation.output_tokens < translation.input_tokens for translation in short), short
    longer = served.translate_texts(texts)
    assert all(2 * translation.output_tokens >= translation.input_tokens for translation in longer), longer
    assert "CPU" in longer[0].text


def test_a_run_of_words_greedy_decoding_said_twice_is_decoded_again_with_beams(exported_default):
    """A greedy translation that says a run of words twice in a row where its source does not ("jede Minute, Woche,
    Woche oder Monat") is decoded again; the beams' translation, which does not, is answered. So is one whose
    compound says a part twice ("Relaadcast-Semonie-Semonie"), which the text would say once (SAID_TWICE): the
    beams' translation is another."""
    from service.scheduler import repeated_runs
    from service.translator import Translator

    out, _ = exported_default
    texts = ["The cron daemon runs programs at specific times (for example every minute, day, week or month).",
             "Broadcast relay daemon"]
    greedy = Translator(out, placeholder_retry_beams=0).translate(texts)
    assert repeated_runs(greedy[0]) and not repeated_runs(greedy[1]), greedy
    served = Translator(out).translate(texts)
    assert not any(repeated_runs(translation) for translation in served), served
    assert served[1] != greedy[1]


def test_a_greedy_translation_with_a_full_stop_said_twice_is_decoded_again_with_beams(exported_default):
    """The model lost its place and ended with ".." ("... verwendet d.."); the beams' translation goes on."""
    from service.translator import Translator

    out, _ = exported_default
    text = "Similarly, when this package is installed, the 'cupt' package manager will use deltas to upgrade the host."
    assert Translator(out, placeholder_retry_beams=0).translate([text])[0].endswith("d..")
    served = Translator(out).translate([text])[0]
    assert "Deltas" in served and not served.endswith(".."), served


@pytest.mark.parametrize("text, greedy_end, served_end", [
    ("Wait… what?", "Warten…", "?"),  # it lost its last words
    ("She is an icon of women's soccer.", "Sie ist ein Symbol von Frauen", "Frauen."),  # and its full stop
    ("Saving the file… this may take a while.", "gespeichert.... Das kann eine Weile dauern.", "dauern."),
    ("Syntax: scdaemon [options] [command [args]]", "[Befehle [Argumente]", "]]"),  # a bracket left open
    ("Windows API implementation - prelinked 32-bit binary loader", "vorverknüpft binärer", "32-Bit-Lader")])
def test_a_greedy_translation_that_misplaces_a_mark_or_loses_a_number_is_decoded_again_with_beams(
        exported_default, text, greedy_end, served_end):
    """The source ends in "?" and the translation in "…", or in a full stop and the translation in a word; a full
    stop after "…" ("...."); a bracket closed one time less than in the source; a number lost: the beams'
    translations mend each."""
    from service.translator import Translator

    out, _ = exported_default
    assert Translator(out, placeholder_retry_beams=0).translate([text])[0].endswith(greedy_end)
    served = Translator(out).translate([text])[0]
    assert served.endswith(served_end) and "...." not in served, served


def test_a_placeholder_before_a_digit_leaves_no_token_in_the_translation(exported_default):
    """An accelerator or quotation mark right before a digit was a token followed by a digit ("XX0X1"), which the
    model read as another token: of 23,542 held-out software messages 4 came back with a piece of one ("Checkbook
    _1:" as "Prüfbuch XX0: _"), of 54,642 installed catalog messages 3 ('-> "1.0K"' as "-> XX0.0K")."""
    from service.translator import Translator

    out, _ = exported_default
    texts = ["Checkbook _1:", "Theil's $U_2$", '  $ %s --to=si 1000\n            -> "1.0K"', "key%%0A  %s%%0A  (%s)"]
    for text, translation in zip(texts, Translator(out).translate(texts)):
        assert "XX" not in translation, (text, translation)
    assert "_1" in Translator(out).translate(["Checkbook _1:"])[0]  # the item, whole


def test_a_lines_translation_does_not_depend_on_the_placeholders_before_it(exported_default):
    """Tokens were numbered across the text, so the 40th line's placeholder reached the model as XX39X, which it never
    saw in training (a message numbers its own from XX0X): 23.2% of 500 catalog messages came back otherwise as the
    lines of texts of five than alone. Each sentence now numbers its tokens from XX0X."""
    from model.data import read_tsv
    from service.translator import Translator

    out, _ = exported_default
    sentences = [p.en for p in read_tsv(DATA / "test.tsv") if len(p.en.split()) >= 3][:40]
    # A placeholder the model reads, or a tagged word (its tags leave the sentence, to go back by alignment) and one
    lines = [f"%s {s}" if i % 2 else "<b>{}</b> {} {{count}}".format(*s.split(" ", 1)) for i, s in enumerate(sentences)]
    translator = Translator(out)
    alone = translator.translate(lines)
    assert translator.translate(["\n".join(lines)])[0].split("\n") == alone
    # in HTML a line break is a space: lines are <br>'s
    assert translator.translate(["<br>\n".join(lines)], html=True)[0].split("<br>\n") == \
        translator.translate(lines, html=True)


def test_superscripts_fractions_and_circled_forms_come_back_as_written(exported_default):
    """The vocabulary's normalization (NFKC) wrote "m²" as "m2", "™" as "TM", "H₂O" as "H2O" and "½" as "1⁄2" ("Add ½
    cup of sugar." came back as "1. satt2-Schlüssel hinzufügen."): they pass through as the text has them. A ligature
    means what it normalizes to: read."""
    from service.translator import Translator

    out, _ = exported_default
    forms = {"The room is 20 m² large.": "m²", "Firefox™ is fast.": "™", "Add ½ cup of sugar.": "½",
             "H₂O is water.": "H₂O", "See note ¹ below.": "¹", "Step ① is done.": "①", "Use the ㎡ unit.": "㎡"}
    translations = Translator(out).translate([*forms, "The ﬁle was saved."])
    for (sentence, form), translation in zip(forms.items(), translations):
        assert translation.count(form) == 1 and not re.search(r"m2|TM|1⁄2|H2O", translation), (sentence, translation)
    assert "Datei" in translations[-1]


def test_currency_signs_and_trademarks_come_back_as_written(exported_default):
    """Symbols the vocabulary has but the model saw rarely were dropped or replaced by words ("It costs 17,50 € per
    month." came back as "Es trat 17,50 pro Monat.", "Microsoft® Windows® 11" as "Microsoft-Fenster-Fenstermenge 11"),
    in HTML read from their references too ("5&nbsp;&euro;"); the degree sign, which the model carries, stays text."""
    from service.translator import Translator

    out, _ = exported_default
    translator = Translator(out)
    texts = ["It costs 17,50 € per month.", "He paid £5 for the ticket.", "Microsoft® Windows® 11 is installed.",
             "It is 1⁄2 of the total.", "Euro (€) and pound (£) are accepted.", "Set the oven to 180 °C."]
    for text, translation in zip(texts, translator.translate(texts)):
        assert all(translation.count(c) == text.count(c) for c in "€£®⁄°"), (text, translation)
    [html] = translator.translate(["<p>It costs 5&nbsp;&euro; per month.</p>"], html=True)
    assert "5&nbsp;&euro;" in html


def test_names_the_model_never_learned_come_back_as_written(exported_default):
    """Before, each of these came back changed or lost: "Kubernet", "redissgestern", "ehrbaren", "Tinkscape", "Hannnah",
    "Nachfragen Sie über die Rechnung.", "Ich habe mit Ms gesprochen. Gestern lang.", a package's and a library's name
    in small letters "Schriftarten-dejavu-core", "Bibliotheksprozesse", "Diktfmt" and "Evolution-data-server", "AAlib"
    as "ASCII-Abhängigkeit", names opening a sentence "Konky", "Torsocken", "Die Tintencape", and what an
    abbreviation abbreviates "Vereinheitlichen Modussprache", "Allgemeine Sprachlaufzeit"."""
    from service.translator import Translator

    out, _ = exported_default
    texts = {"Kubernetes": "The update for Kubernetes is ready.", "Redis": "I sent the report to Redis yesterday.",
             "Ansible": "This feature works with Ansible and other tools.",
             "Inkscape": "The update for Inkscape is ready.",
             "Hannah": "Please ask Hannah before you change the settings.",
             "Herrn Brown": "Ask Mr. Brown about the invoice.",  # "Mr." and "Ms." as German's "Herrn" and "Frau"
             "Frau Miller": "I spoke with Ms. Miller yesterday.",
             "fonts-dejavu-core": "Metapackage to pull fonts-dejavu-core and fonts-dejavu-extra.",
             "libprocesscore": "This package contains the shared library libprocesscore.",
             "dictfmt": "This package provides dictfmt.",
             "evolution-data-server": "This package contains header files and static library of evolution-data-server.",
             "Unified Modeling Language": "Dia can export diagrams in Unified Modeling Language (UML).",
             "Common Language Runtime": "Mono provides a complete CLR (Common Language Runtime).",
             "AAlib": "This package contains a 'high quality audio-visual demonstration' of ASCII-art using AAlib, "
                      "a portable ASCII-art graphics library.",
             "Conky": "Conky is a system monitor that can display just about anything.",
             "Torsocks": "Torsocks allows you to redirect network traffic.",
             "Inkscape ist": "Inkscape is an illustration editor."}
    for name, translation in zip(texts, Translator(out).translate(list(texts.values()))):
        assert name in translation, (texts[name], translation)


def test_codes_come_back_as_written(exported_default):
    """Hashes, UUIDs, IBANs, tracking numbers, hex colors and IPv6 addresses the model miscopied ("...-a456-426614174000"
    came back as "...-a456174000", "#ff0000" as "#ff00", "2001:db8::1" as "2001:db8:1"): all 8 of these before."""
    from service.translator import Translator

    out, _ = exported_default
    codes = ["123e4567-e89b-12d3-a456-426614174000", "#ff0000", "da39a3ee5e6b4b0d3255bfef95601890afd80709",
             "a3f5c9e2b1d4", "DE89370400440532013000", "1Z999AA10123456784", "SGVsbG8gd29ybGQ=", "2001:db8::1"]
    texts = [f"The UUID is {codes[0]}.", f"Use the color {codes[1]} for errors.", f"The SHA-1 is {codes[2]}.",
             f"The checksum {codes[3]} does not match.", f"The IBAN {codes[4]} is wrong.",
             f"Tracking number {codes[5]}.", f"Use base64 string {codes[6]} here.", f"The address {codes[7]} is reserved."]
    for text, code, translation in zip(texts, codes, Translator(out).translate(texts)):
        assert code in translation, (text, translation)


def test_marks_the_model_cannot_read_come_back_where_they_were_and_cost_no_words(exported_default):
    """The normalization deleted a byte order mark, direction marks, zero-width spaces and U+FFFD, so translations
    lost them; kept as tokens, one glued to the first word cost the model the sentence ("\\ufeffOpen the file." came
    back as "\\ufeffEinstellungen der Datei.", as "😀Open the file." did). A symbol inside a word made the model read
    pieces: "cc_config.xml" came back as "ccc_config.xml", "app_config.xml" as "Anwendungsbeispielsdatei"."""
    from service.translator import Translator

    out, _ = exported_default
    translator = Translator(out)
    [plain] = translator.translate(["Open the file."])
    marks = ["\ufeff", "\u200e", "\u200f", "\ufffd", "😀"]
    assert translator.translate([f"{mark}Open the file." for mark in marks]) == [mark + plain for mark in marks]
    assert translator.translate([f"Open the file.{mark}" for mark in marks]) == [plain + mark for mark in marks]
    [identifiers] = translator.translate(["Read configuration info from cc_config.xml and any app_config.xml files"])
    assert "cc_config.xml" in identifiers and "app_config.xml" in identifiers


def test_parentheses_come_back_around_their_words(exported_default):
    """Held-out messages that came back with a parenthesis and words lost ("How (else) to create new names:" as "Wie
    (eine neue Namen:"): the words in parentheses are translated apart, the marks kept."""
    from service.translator import Translator

    out, _ = exported_default
    texts = ["How (else) to create new names:", "(Deprecated) Port number for SOCKS requests",
             "An absolute path where the gpg (or gpg2) binary is", "UDisks %s (built against %d.%d.%d)",
             "This document was created with a newer version of Plan (syntax version: %1)"]
    for text, translation in zip(texts, Translator(out).translate(texts)):
        assert translation.count("(") == translation.count(")") == 1, (text, translation)


def test_file_paths_names_and_options_come_back_as_written(exported_default):
    """Read, the model changed "/etc/crypttab" to "/etc/cryptab" in each of the held-out messages with it,
    "--no-color" to "--no--color", "climateprediction.net" to "Klimapredig.net" and "FreeBSD" to "FreieBSD"; a name
    that qualifies a noun is joined to it ("PipeWire-Anwendungen")."""
    from service.translator import Translator

    out, _ = exported_default
    texts = ["Error updating /etc/crypttab entry", "Where is the Application? eg /usr/local/bin/gs",
             "The path C:\\Users\\Admin\\file.txt is missing.", "-i, --ignore-errors Ignore errors from recipes.",
             "Terse output for machine consumption. Implies --no-abbrev and --no-color.",
             "Get help for climateprediction.net", "Supports FreeBSD", "Audio effects for PipeWire applications"]
    kept = ["/etc/crypttab", "/usr/local/bin/gs", "C:\\Users\\Admin\\file.txt", "--ignore-errors", "--no-color",
            "climateprediction.net", "FreeBSD", "PipeWire-"]
    for text, path, translation in zip(texts, kept, Translator(out).translate(texts)):
        assert path in translation, (text, translation)


def test_no_sentence_comes_back_as_nothing(exported_default):
    """The model ended "a" at once: its translation was empty."""
    from service.translator import Translator

    out, _ = exported_default
    texts = ["a", "Go. a", "I", "x"]
    assert all(Translator(out).translate(texts)), Translator(out).translate(texts)


def test_an_ellipsis_comes_back_as_an_ellipsis(exported_default):
    """The model reads "…" as "..." and wrote it so ("Loading…" came back as "Laden ..."), where German catalogs
    keep the "…"."""
    from service.translator import Translator

    out, _ = exported_default
    for translation in Translator(out).translate(["Loading…", "Open File…", "Downloading updates…"]):
        assert translation.endswith("…") and "..." not in translation, translation


def test_a_help_texts_columns_come_back_as_laid_out(exported_default):
    """The model wrote one space between an option and what it does, and dropped words ("  -W, --pwprompt
    prompt for a password for the new superuser" came back as "  -W, --pwprompt anzeigen")."""
    from service.translator import Translator

    out, _ = exported_default
    help_text = ("  -h, --help             show this help, then exit\n"
                 "  -W, --pwprompt         prompt for a password for the new superuser\n")
    [translation] = Translator(out).translate([help_text])
    lines = translation.split("\n")
    assert lines[0].startswith("  -h, --help             ") and lines[1].startswith("  -W, --pwprompt         ")
    assert all(len(line.split("  ")[-1].split()) >= 3 for line in lines[:2]), translation  # the description is there


def test_quotation_marks_come_back(exported_default):
    """Of 600 catalog messages with quoted text, the shipped model kept the marks in 349: "could not open directory
    '%s'" came back as "Konnte Verzeichnis %s nicht öffnen", 'Enable “Slow Keys”' as 'Slow-Schlüssel” aktivieren'.
    Curly ones come back as German writes them, »…«."""
    from service.translator import Translator

    out, _ = exported_default
    messages = {"could not open directory '%s'": ("'%s'", "'%s'"), "failed to add packfile '%s'": ("'%s'", "'%s'"),
                "Parsed value “%s” is not a valid D-Bus signature": ("“%s”", "»%s«"),
                "'%s' value missing": ("'%s'", "'%s'"),
                "loading control file '%s' for package '%s'": ("'%s'", "'%s'"), "Enable “Slow Keys”": ("“", "»"),
                "The active dwell click mode. Possible values are “window” and “gesture”.": ("“", "»")}
    for (message, (quoted, german)), translation in zip(messages.items(), Translator(out).translate(list(messages))):
        assert translation.count(german) == message.count(quoted), (message, translation)  # curly: as German writes


def test_minified_html_declarations_quoted_attributes_and_operators_come_back(exported_default):
    """Minified HTML (no space in 50 characters) came back untranslated, an XML declaration with its attributes
    translated ('<?xml Version="1.0" Kodierung="UTF-8"?>>'), '<a title="Settings > Privacy">' as '<a title="Settings
    >Privacy">', a label and its field as '<label for="email">E</label>-Mail-Adresse<input type="email">', two
    buttons as '<button><button>Speichern</button></button>', and "x == y" as "x = y"."""
    from service.translator import Translator

    out, _ = exported_default
    translator = Translator(out)
    pages = ["<table><tr><td>Open</td><td>Save</td></tr></table>",
             '<?xml version="1.0" encoding="UTF-8"?><p>Open the file.</p>',
             '<a title="Settings > Privacy">Open the file</a> now.',
             '<label for="email">Email address</label><input type="email">']
    table, declared, titled, labelled = translator.translate(pages, html=True)
    assert re.findall(r"<[^>]*>", table) == re.findall(r"<[^>]*>", pages[0]) and not re.search(r"Open|Save", table)
    assert declared.startswith('<?xml version="1.0" encoding="UTF-8"?><p>') and "Open" not in declared
    assert re.match(r'<a title="[^"<]+">[^<]+</a>', titled)  # the value translated: 'title="Einstellungen > ...'
    assert re.fullmatch(r'<label for="email">E-Mail[^<>]*</label><input type="email">', labelled), labelled
    forms = ["<button>Save</button><button>Cancel</button>",
             '<select><option value="1">First option</option><option value="2">Second option</option></select>']
    for form, translated in zip(forms, translator.translate(forms, html=True)):  # were nested, "Cancel" lost
        assert re.findall(r"<[^>]*>", translated) == re.findall(r"<[^>]*>", form), translated
        assert all(re.search(rf"{tag}[^<]*[^\W\d][^<]*</", translated) for tag in ("<button>", "<option[^>]*>")
                   if re.search(tag, form)), translated
    operators = translator.translate(["Use && to chain commands and == to compare them.", "if x == y"])
    assert "&&" in operators[0] and "==" in operators[0] and "x == y" in operators[1], operators


def test_markdown_emphasis_wraps_the_words_that_translate_the_words_it_wrapped(exported_default):
    """"This is **very important** and *must* be done." came back as "Dies ist **Beimer** und *must* fertig."."""
    from service.translator import Translator

    out, _ = exported_default
    important, note = Translator(out).translate(["This is **very important** and *must* be done.",
                                                 "**Note:** the server must be running."])
    assert "**sehr wichtig**" in important and "*muss*" in important, important
    assert note.startswith("**Hinweis:**") and "Server" in note, note
    # and in underscores ("__very important__" came back as "__Wert important__")
    underscored, = Translator(out).translate(["This is __very important__ and _must_ be done."])
    assert "__sehr wichtig__" in underscored and "_muss_" in underscored, underscored


def test_a_markdown_links_brackets_come_back_around_words(exported_default):
    """"skip to the [documentation](/docs/)" came back as "überspringen /docs/.", "review the [breaking
    changes](#breaking-changes)" as "der [Befehle [Umbruch (#breaking-changes)": each link now comes back as a link
    around words, its target as written; one whose text names its target, whole."""
    from service.translator import Translator

    out, _ = exported_default
    texts = ["To find out more, read on, or skip to the [documentation](/docs/).",
             "After upgrading, review the [breaking changes](#breaking-changes) and test your site.",
             "You can pick one that suits your needs or [design your own](#custom-search).",
             "- [Add content and customize your site](/docs/content/)",
             "See the [installation guide][install] or the ![diagram](images/flow.png) below.",
             "We use [chardet](https://github.com/chardet/chardet) to detect encodings."]  # "[Zeichensatz]" before
    translations = Translator(out).translate(texts)
    for text, translated in zip(texts, translations):
        ends = re.findall(r"\]\(.*?\)|\]\[.*?\]", text)
        assert re.findall(r"\]\(.*?\)|\]\[.*?\]", translated) == ends, translated
        assert all(re.search(r"\[[^\[\]]*\w[^\[\]]*" + re.escape(end), translated) for end in ends), translated
    assert "[chardet](https://github.com/chardet/chardet)" in translations[-1], translations[-1]


def test_joined_placeholders_and_quoted_literals_come_back_as_written(exported_default):
    """"Could not connect to %s:%d" came back as "Verbindung mit %s konnte nicht hergestellt werden:%d",
    "unrecognized option '%s%s'" without its marks, "invalid number after '.'" as "Ungültige Zahl nach ..", "use
    `exit'" as "verwenden Sie exit", and '"template1"' as '"template1X'."""
    from service.translator import Translator

    out, _ = exported_default
    texts = ["Could not connect to %s:%d", "%s: unrecognized option '%s%s'", "invalid number after '.'",
             "Use `exit' to leave the shell.", 'could not connect to databases "postgres" or "template1"']
    connect, option, number, leave, databases = Translator(out).translate(texts)
    assert "%s:%d" in connect and connect.count("%") == 2, connect
    assert "'%s%s'" in option and option.startswith("%s:"), option
    assert "'.'" in number and ".." not in number, number
    assert "`exit'" in leave, leave
    assert "template1" in databases and "template1X" not in databases, databases


def test_a_sentence_wrapped_over_two_lines_translates_as_it_does_on_one(exported_default):
    """Line by line, "Print CP0 register and HWR names according to specified" and "architecture." came back as
    "CP0-Register und HWR-Namen entsprechend ausgeben" and "Architektur."; the sentence now goes to the model whole
    and its line break back between two of the translation's words."""
    from service.translator import Translator

    out, _ = exported_default
    wrapped = ["Print CP0 register and HWR names according to specified\narchitecture.",
               "Installing GNU libiconv and then reinstalling GNU gettext\nwould fix this problem."]
    translations = Translator(out).translate([text.replace("\n", " ") for text in wrapped] + wrapped)
    for one_line, two_lines in zip(translations[:2], translations[2:]):
        assert two_lines.count("\n") == 1 and two_lines.replace("\n", " ") == one_line
