"""A verb in the person of the subject pronoun or noun before it (translator.conjugation), whole and streamed."""

from pathlib import Path

import pytest

from tests.test_text_pipeline import whole_and_streamed
from translator import lexicon
from translator.conjugation import conjugated, third_person_of, verb_held_back_from
from translator.model_format import Limits
from translator.text import segment_texts
from translator.tokenizer import Tokenizer


@pytest.mark.parametrize("source, model_wrote, expected", [
    ("I am looking for a job.", "Ich sucht eine Arbeit.", "Ich suche eine Arbeit."),
    ("She is reading a book.", "Sie lese ein Buch.", "Sie liest ein Buch."),  # a vowel that changes
    ("We instantly hit it off.", "Wir trägt uns.", "Wir tragen uns."),
    ("She has a dog.", "Sie haben einen Hund.", "Sie hat einen Hund."),
    ("They have a dog.", "Sie hat einen Hund.", "Sie haben einen Hund."),
    ("I am tired.", "Ich ist müde.", "Ich bin müde."),
    ("He can swim.", "Er können schwimmen.", "Er kann schwimmen."),
    ("I accept your terms.", "Ich akzeptieren Ihre Bedingungen.", "Ich akzeptiere Ihre Bedingungen."),
    ("He calculates it.", "Er rechnen es.", "Er rechnet es."),  # "et" after "chn"
    ("She lives here.", "Sie wohnen hier.", "Sie wohnt hier."),  # "t" after "hn"
    ("He takes over.", "Er übernehmen.", "Er übernimmt."),  # a prefix that is never split off
    ("I forget it.", "Ich vergisst es.", "Ich vergesse es."),
    ("I collect stamps.", "Ich sammelt Briefmarken.", "Ich sammle Briefmarken."),
    ("It rains.", "Es regne.", "Es regnet."),
])
def test_a_verb_takes_the_person_of_its_subject_pronoun(source, model_wrote, expected):
    assert conjugated(source, model_wrote) == expected


@pytest.mark.parametrize("source, german", [
    ("You read a lot.", "Sie lese viel."),  # "Sie" or "du": the English does not say
    ("It supports multiple clients.", "Es werden mehrere Clients unterstützt."),  # "Es" before a plural's verb
    ("She would like tea.", "Sie möchte Tee."),
    ("I would go.", "Ich würde gehen."),
    ("He was here.", "Er wurde hier."),  # no present form
    ("I know that.", "Ich weiß das."),
    ("I often read.", "Oft lese ich."),  # the verb before its subject
    ("I read.", "Er liest."),  # another pronoun
    ("The man reads.", "Er lesen."),
    ("I am good.", "Ich gut."),  # no verb
])
def test_a_verb_in_its_subjects_person_or_none_stays_as_written(source, german):
    assert conjugated(source, german) == german


def test_the_lexicon_knows_the_verbs_and_not_their_forms():
    verbs = lexicon.load().verbs
    assert {"suchen", "lesen", "kaufen", "sammeln", "wandern", "tun", "sein"} <= verbs
    assert not {"sucht", "guten", "Lesen"} & verbs


@pytest.mark.parametrize("source, model_wrote, expected", [
    ("The restaurant closes early.", "Das Restaurant schließen früh.", "Das Restaurant schließt früh."),
    ("My sister works in a bank.", "Meine Schwester arbeiten hier.", "Meine Schwester arbeitet hier."),
    ("The old paper tears easily.", "Die alte Papiertuch tränen.", "Das alte Papiertuch tränt."),  # and its gender
    # as written: a plural, "sein" before a plural predicate, a dative or an object before the verb, a modal, a verb
    # first (a command: no determiner opens the English)
    ("The children play.", "Die Kinder spielen.", "Die Kinder spielen."),
    ("The audience are musicians.", "Das Zielpublikum sind Musiker.", "Das Zielpublikum sind Musiker."),
    ("The woman likes that.", "Der Frau gefallen das.", "Der Frau gefallen das."),
    ("This package is used by you.", "Dieses Paket benötigen Sie.", "Dieses Paket benötigen Sie."),
    ("The dog wants to play.", "Der Hund wollen spielen.", "Der Hund wollen spielen."),
    ("Close the window.", "Das Fenster schließen.", "Das Fenster schließen.")])
def test_a_verb_after_a_singular_noun_subject_is_in_the_third_person(source, model_wrote, expected):
    """Through the segment's pipeline, whole and streamed: the articles' gender first, which the subject's verb reads."""
    assert whole_and_streamed(source, model_wrote) == (expected, expected)


def test_a_stream_sends_the_subject_noun_and_holds_its_verb_until_the_word_after_it_ends():
    source = "The restaurant closes at ten."
    assert verb_held_back_from(source, "", "Das Restaurant") is None
    assert verb_held_back_from(source, "", "Das Restaurant schl") == len("Das Restaurant")
    assert verb_held_back_from(source, "Das Restaurant", " schließen um") == 0
    assert verb_held_back_from(source, "Das Restaurant", " schließen um ") is None
    assert verb_held_back_from("Close the window.", "", "Das Fenster schl") is None
    assert conjugated(source, " schließen um zehn", before="Das Restaurant") == " schließt um zehn"


def test_a_stream_sends_a_subject_whose_noun_has_ended_while_its_verb_waits():
    """The articles' hold and the verb's read the same text: cut at the verb first, "Das Wetter" looked unfinished
    to the articles' hold, and the first piece waited for the verb."""
    tokenizer = Tokenizer.from_dir(Path(__file__).parent.parent / "model" / "default")
    (prepared,), _ = segment_texts(["The weather is nice today."], tokenizer, Limits(256, 256, 24))
    assert prepared.settled(0, "Das Wetter i") == len("Das Wetter")
    assert prepared.settled(0, "Das Wetter ist heute ") == len("Das Wetter ist heute")


def test_a_third_persons_verb_is_read_in_the_present_and_a_weak_verbs_past():
    assert [third_person_of(word) for word in ("setzt", "setzte", "arbeitete", "schläft", "hat", "war")] == [
        "setzen", "setzen", "arbeiten", "schlafen", "haben", "sein"]
    assert [third_person_of(word) for word in ("setze", "setzten", "gut", "Katze")] == [None] * 4


def test_a_stream_sends_the_subject_pronoun_and_holds_its_verb_until_it_ends():
    source = "I am looking."
    assert verb_held_back_from(source, "", "Ich su") == len("Ich") and verb_held_back_from(source, "", "Ich") is None
    assert verb_held_back_from(source, "Ich", " su") == 0
    assert verb_held_back_from(source, "Ich", " sucht ") is verb_held_back_from(source, "", "Ich sucht eine") is None
    assert verb_held_back_from("You are looking.", "", "Sie su") is verb_held_back_from("He looks.", "", "Sie") is None
    assert verb_held_back_from(source, "Ich", "thyologie") is None  # no pronoun
    assert conjugated(source, " sucht", before="Ich") == " suche"
    assert conjugated(source, " eine Arbeit", before="Ich sucht") == " eine Arbeit"  # the verb went
    for source, model_wrote, expected in [
            ("I am looking for a job.", "Ich sucht eine Arbeit.", "Ich suche eine Arbeit."),
            ("She is reading a book.", "Sie lese ein Buch.", "Sie liest ein Buch.")]:
        assert whole_and_streamed(source, model_wrote) == (expected, expected)
