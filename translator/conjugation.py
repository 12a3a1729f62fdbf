"""A verb in the person of the pronoun before it in the model's German: "Ich sucht eine Arbeit" is "Ich suche eine
Arbeit", "Sie lese ein Buch" (for "She reads a book") "Sie liest ein Buch", "Wir trägt" "Wir tragen". The model saw
most verbs as dictionary headwords and catalog messages, in the infinitive and the third person, and took a wrong form
after a pronoun it saw seldom as a subject. Only where the English segment starts with a subject pronoun and the German
with its translation and a present form of a verb of the lexicon's (Ding's German headwords,
`translator.lexicon.Lexicon.verbs`): which person "Sie" is, the English says ("She" or "They"; not "You", which may be
"du" as well). The forms are a stem and an ending but for the verbs of IRREGULAR and VOWEL_CHANGES. No torch.
"""

from __future__ import annotations

import functools
import re

from translator import lexicon

# The English subject pronouns a segment may start with: the German one, and the person (0: "ich", 1: "er", 2: plural)
PERSONS = {"I": ("Ich", 0), "He": ("Er", 1), "She": ("Sie", 1), "It": ("Es", 1), "We": ("Wir", 2), "They": ("Sie", 2)}
PRONOUNS = dict.fromkeys(pronoun for pronoun, _ in PERSONS.values())  # "Ich", "Er", "Sie", "Es", "Wir"
ENGLISH_SUBJECT = re.compile(rf"({'|'.join(PERSONS)}) (?=[a-z])")
# "Es" before a plural verb holds the place of a subject that follows it ("Es werden mehrere Clients unterstützt")
HOLDS_A_PLURALS_PLACE = "Es"
GERMAN_SUBJECT = re.compile(rf"({'|'.join(PRONOUNS)}) ([a-zäöüß]+)(?![\w-])")
# A stream's text so far while the verb after its subject pronoun may still go on: the verb is held back
SUBJECT_SO_FAR = re.compile(rf"(?P<pronoun>{'|'.join(PRONOUNS)})(?:\s+[a-zäöüß]*)?")
# Present forms that are no stem and ending: the first person singular, the third, the plural
IRREGULAR = {"sein": ("bin", "ist", "sind"), "haben": ("habe", "hat", "haben"), "werden": ("werde", "wird", "werden"),
             "wissen": ("weiß", "weiß", "wissen"), "tun": ("tue", "tut", "tun"),
             **{verb: (form, form, verb) for verb, form in (
                 ("können", "kann"), ("müssen", "muss"), ("dürfen", "darf"), ("wollen", "will"), ("sollen", "soll"),
                 ("mögen", "mag"), ("möchten", "möchte"))}}
# The third person singular of the verbs that change their vowel in it, and so of the verbs made of one of them and a
# prefix that is never split off (INSEPARABLE: "übernehmen", "übernimmt")
VOWEL_CHANGES = dict(pair.split(":") for pair in (
    "backen:bäckt befehlen:befiehlt bergen:birgt blasen:bläst braten:brät brechen:bricht dreschen:drischt "
    "empfehlen:empfiehlt erlöschen:erlischt erschrecken:erschrickt essen:isst fahren:fährt fallen:fällt fangen:fängt "
    "fechten:ficht flechten:flicht fressen:frisst gebären:gebiert geben:gibt gelten:gilt geschehen:geschieht "
    "graben:gräbt halten:hält helfen:hilft laden:lädt lassen:lässt laufen:läuft lesen:liest messen:misst "
    "nehmen:nimmt quellen:quillt raten:rät saufen:säuft schelten:schilt schlafen:schläft schlagen:schlägt "
    "schmelzen:schmilzt schwellen:schwillt sehen:sieht sprechen:spricht stechen:sticht stehlen:stiehlt "
    "sterben:stirbt stoßen:stößt tragen:trägt treffen:trifft treten:tritt verderben:verdirbt vergessen:vergisst "
    "wachsen:wächst waschen:wäscht werben:wirbt werfen:wirft").split())
INSEPARABLE = ("be", "emp", "ent", "er", "ge", "miss", "ver", "zer", "über", "unter", "wider", "hinter")
THIRD_PERSONS = {prefix + verb: prefix + third
                 for prefix in ("", *INSEPARABLE) for verb, third in VOWEL_CHANGES.items()}
# The verb a form of IRREGULAR or THIRD_PERSONS is one of
VERB_OF = {**{third: verb for verb, third in THIRD_PERSONS.items()},
           **{form: verb for verb, forms in IRREGULAR.items() for form in forms}}
# The past third person singular of the verbs of IRREGULAR most written, which no present form gives
PAST_THIRD_PERSONS = {"war": "sein", "hatte": "haben", "wurde": "werden"}
# A stem whose third person takes "et" ("arbeitet", "atmet", "öffnet", "rechnet"; not "lernt", "wohnt", "kämmt")
ET_AFTER = re.compile(r"(?:[td]|(?:ch|[^aeiouäöüyhlrmn])[mn])$")


def conjugated(source: str, german: str, before: str = "") -> str:
    """The German with the verb after its subject pronoun in the pronoun's person, where the English source starts
    with that pronoun (PERSONS) and the verb is in another person's present form; else as written. `before`: what a
    stream sent before this piece of its German, nothing or the pronoun alone where the piece may hold the verb."""
    if not (english := ENGLISH_SUBJECT.match(source)) or before and before not in PRONOUNS:
        return german
    if not (subject := GERMAN_SUBJECT.match(whole := before + german)):
        return german
    pronoun, person = PERSONS[english[1]]
    if subject[1] != pronoun or not (forms := forms_with(subject[2])) or subject[2] == forms[person]:
        return german
    if pronoun == HOLDS_A_PLURALS_PLACE and subject[2] == forms[2]:
        return german
    return f"{pronoun} {forms[person]}{whole[subject.end():]}"[len(before):]


def verb_held_back_from(source: str, sent: str, text: str) -> int | None:
    """Where a stream holds its text decoded after the pieces `sent` back from (None: nothing), so that `conjugated`
    reads the verb after a subject pronoun whole: the verb, while it may go on; the pronoun goes at once."""
    if not ENGLISH_SUBJECT.match(source) or sent and sent not in PRONOUNS:
        return None
    if not (subject := SUBJECT_SO_FAR.fullmatch(sent + text)):
        return None
    start = max(0, subject.end("pronoun") - len(sent))
    return start if start < len(text) else None


def third_person_of(word: str) -> str | None:
    """The infinitive of a verb the word is the third person singular of: a present form (`forms_with`), a weak
    verb's past ("setzte": "setzt" and "e", "arbeitete") or one of PAST_THIRD_PERSONS; else None."""
    if word in PAST_THIRD_PERSONS:
        return PAST_THIRD_PERSONS[word]
    for present in (word, word[:-1]) if word.endswith("te") else (word,):
        if (forms := forms_with(present)) and forms[1] == present:
            return forms[2]
    return None


@functools.lru_cache(maxsize=4096)  # the words after a pronoun: a few verbs, mostly
def forms_with(word: str) -> tuple[str, str, str] | None:
    """The present forms (`_forms`) of the verb one of whose forms the word is, or None."""
    for verb in _verbs_with(word):
        if word in (forms := _forms(verb)):
            return forms
    return None


def _verbs_with(word: str) -> list[str]:
    """The lexicon's verbs the word may be a present form of."""
    verbs = lexicon.load().verbs
    candidates = [VERB_OF.get(word, word)]
    if word.endswith("t"):
        candidates += [word[:-1] + "en", word[:-2] + "en", word[:-1] + "n"]
    if word.endswith("e"):
        candidates += [word + "n", word[:-1] + "n", word[:-2] + "eln"]
    return [verb for verb in dict.fromkeys(candidates) if verb in verbs or verb in IRREGULAR]


def _forms(verb: str) -> tuple[str, str, str]:
    """A verb's present forms: the first person singular, the third, the plural."""
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith("eln"):  # "sammeln": "sammle", "sammelt"
        return verb[:-3] + "le", verb[:-1] + "t", verb
    if verb.endswith("ern") or not verb.endswith("en"):  # "wandern": "wandere", "wandert"
        return verb[:-1] + "e", verb[:-1] + "t", verb
    stem = verb[:-2]
    return stem + "e", THIRD_PERSONS.get(verb) or stem + ("et" if ET_AFTER.search(stem) else "t"), verb
