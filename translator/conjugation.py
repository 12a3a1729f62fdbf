"""A verb in the person of the pronoun before it in the model's German: "Ich sucht eine Arbeit" is "Ich suche eine
Arbeit", "Sie lese ein Buch" (for "She reads a book") "Sie liest ein Buch", "Wir trägt" "Wir tragen". The model saw
most verbs as dictionary headwords and catalog messages, in the infinitive and the third person, and took a wrong form
after a pronoun it saw seldom as a subject. Only where the English segment starts with a subject pronoun and the German
with its translation and a present form of a verb of the lexicon's (Ding's German headwords,
`translator.lexicon.Lexicon.verbs`): which person "Sie" is, the English says ("She" or "They"; not "You", which may be
"du" as well). Where the English starts with a determiner ("The restaurant closes early.") and the German with a
singular noun's article, the noun and a plural's present form, the verb takes the third person singular ("Das
Restaurant schließen früh": "schließt"). The forms are a stem and an ending but for the verbs of IRREGULAR and
VOWEL_CHANGES. No torch.
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
# Verbs whose first object may be a dative ("Ich helfe dem Mann", "Ich gebe dem Mann das Buch"), by their infinitive
DATIVE_FIRST = set("helfen danken folgen gehören gefallen antworten begegnen vertrauen gratulieren schaden fehlen "
                   "passen gehorchen zuhören zustimmen widersprechen glauben schmecken geben zeigen schicken "
                   "bringen sagen schenken erklären empfehlen leihen schreiben anbieten erzählen wünschen".split())
# Verbs whose own verb comes at the clause's end, which may take a dative ("Der Klammer muss ein Leerzeichen
# voranstehen", "Der Frau wurde geholfen"): no subject is read before them
AUXILIARIES = ("werden", "können", "müssen", "dürfen", "wollen", "sollen", "mögen", "möchten")
# The subject pronouns after a verb that make the phrase before the verb an object ("Der Frau geht es gut",
# "Dieses Paket benötigen Sie")
SUBJECTS_AFTER_THE_VERB = ("ich", "du", "er", "sie", "Sie", "es", "man", "wir", "ihr")
# An English segment that starts with a determiner: its subject is a noun ("The restaurant closes at ten.")
ENGLISH_NOUN_SUBJECT = re.compile(r"(?:The|A|An|My|Your|His|Her|Its|Our|Their|This|That|Every|Each|No) (?=[a-z])")
# The articles of a subject in the singular, by its noun's gender ("Das Restaurant", "Meine Schwester")
_ARTICLE_STEMS = ("Ein", "Kein", "Mein", "Dein", "Sein", "Ihr", "Unser")
SUBJECT_ARTICLES = {"m": {"Der", "Dieser", "Jeder", *_ARTICLE_STEMS}, "n": {"Das", "Dieses", "Jedes", *_ARTICLE_STEMS},
                    "f": {"Die", "Diese", "Jede", *(stem + "e" for stem in _ARTICLE_STEMS)}}
# A German sentence's subject, an article, adjectives and a noun, its verb and the word after the verb; in a stream's
# text so far, the subject and the verb and word after it while they may go on
_SUBJECT_ARTICLE = "|".join(sorted(set().union(*SUBJECT_ARTICLES.values()), key=len, reverse=True))
# A noun: a capital, small letters, and the parts a hyphen joins to them ("Passwort-Manager")
NOUN = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ]\w*)*"
_NOUN_SUBJECT = rf"(?P<article>{_SUBJECT_ARTICLE})(?:\s+[a-zäöüß]+e[mnrs]?)*?\s+(?P<noun>{NOUN})"
# The verb after a subject and the word after the verb, which `a_subject_before` reads
VERB_AND_NEXT = r"\s+(?P<verb>[a-zäöüß]+)(?![\w-])(?:\s+(?P<next>[\w-]+)(?![\w-]))?"
GERMAN_NOUN_SUBJECT = re.compile(_NOUN_SUBJECT + VERB_AND_NEXT)
NOUN_SUBJECT_SO_FAR = re.compile(rf"(?P<subject>(?:{_SUBJECT_ARTICLE})(?:\s+[a-zäöüß]+e[mnrs]?)*?"
                                 r"\s+[A-ZÄÖÜ][\w-]*)(?:\s+[a-zäöüß]*(?:\s+[\w-]*)?)?")
SUBJECT_CHARS = 100  # at most before a noun subject's verb: a stream's pieces sent before the verb are no longer
# A stem whose third person takes "et" ("arbeitet", "atmet", "öffnet", "rechnet"; not "lernt", "wohnt", "kämmt")
ET_AFTER = re.compile(r"(?:[td]|(?:ch|[^aeiouäöüyhlrmn])[mn])$")


def conjugated(source: str, german: str, before: str = "") -> str:
    """The German with the verb after its subject in the subject's person: a pronoun's (`_after_its_pronoun`) or a
    noun's (`_after_its_noun`) where the English source starts with that pronoun or a determiner; else as written.
    `before`: what a stream sent before this piece of its German."""
    if english := ENGLISH_SUBJECT.match(source):
        return _after_its_pronoun(english, german, before)
    if ENGLISH_NOUN_SUBJECT.match(source):
        return _after_its_noun(german, before)
    return german


def _after_its_pronoun(english: re.Match, german: str, before: str) -> str:
    """The German with the verb after the subject pronoun the English starts with (PERSONS) in the pronoun's person
    where it is in another person's present form. `before`: nothing or the pronoun alone where the piece may hold the
    verb."""
    if before and before not in PRONOUNS:
        return german
    if not (subject := GERMAN_SUBJECT.match(whole := before + german)):
        return german
    pronoun, person = PERSONS[english[1]]
    if subject[1] != pronoun or not (forms := forms_with(subject[2])) or subject[2] == forms[person]:
        return german
    if pronoun == HOLDS_A_PLURALS_PLACE and subject[2] == forms[2]:
        return german
    return f"{pronoun} {forms[person]}{whole[subject.end():]}"[len(before):]


def _after_its_noun(german: str, before: str) -> str:
    """The German with the verb after a singular noun subject at its start in the third person singular where it is
    in the plural's present form ("Das Restaurant schließen um zehn Uhr": "schließt"), not a form of "sein" ("Das
    Zielpublikum sind Musiker"), nor where `a_subject_before` reads the noun as no subject. `before`: the pieces a
    stream sent, which hold the verb only where the whole held it too (SUBJECT_CHARS)."""
    if len(before) > SUBJECT_CHARS or not (subject := GERMAN_NOUN_SUBJECT.match(whole := before + german)):
        return german
    verb, at = subject["verb"], subject.start("verb")
    if not len(before) <= at <= SUBJECT_CHARS or not (forms := forms_with(verb)) or verb in (forms[1], "sind"):
        return german
    if verb != forms[2]:  # no plural's form
        return german
    gender = lexicon.load().gender(subject["noun"])
    if subject["article"] not in SUBJECT_ARTICLES.get(gender, ()):
        return german
    if not a_subject_before(forms[2], subject["next"]):
        return german
    return (whole[:at] + forms[1] + whole[subject.end("verb"):])[len(before):]


def a_subject_before(verb: str, after: str | None) -> bool:
    """Whether the words before a third person's verb (its infinitive) may be read as its subject: not before a verb
    whose first object may be a dative (DATIVE_FIRST: "Der Frau gefällt das"), a modal or "werden" (AUXILIARIES) or
    a subject pronoun (SUBJECTS_AFTER_THE_VERB: "Der Frau kaufte er ein Kleid", "Dieses Paket benötigen Sie")."""
    return verb not in DATIVE_FIRST and verb not in AUXILIARIES and after not in SUBJECTS_AFTER_THE_VERB


def verb_held_back_from(source: str, sent: str, text: str) -> int | None:
    """Where a stream holds its text decoded after the pieces `sent` back from (None: nothing), so that `conjugated`
    reads the verb after its subject whole: after a pronoun the verb, while it may go on; after a noun the verb and
    the word after it, which `a_subject_before` reads. The subject goes at once."""
    if ENGLISH_SUBJECT.match(source):
        subject = SUBJECT_SO_FAR.fullmatch(sent + text) if not sent or sent in PRONOUNS else None
        end = subject and subject.end("pronoun")
    elif ENGLISH_NOUN_SUBJECT.match(source) and len(sent) <= SUBJECT_CHARS:
        subject = NOUN_SUBJECT_SO_FAR.fullmatch(sent + text)
        end = subject and subject.end("subject")
    else:
        return None
    if not subject:
        return None
    start = max(0, end - len(sent))
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
