"""Articles that agree with their nouns in the model's German: "den Gitarre" is "die Gitarre", "ein gutes Idee" "eine
gute Idee", "Der Geschäft" "Das Geschäft", "zur Bahnhof" "zum Bahnhof", "Diese Kaffee" "Dieser Kaffee". The model
learned each noun's gender from the pairs it saw it in; for nouns it saw seldom it guesses, and a wrong gender reads
as a learner's German. A noun's gender is the lexicon's (Ding's German headwords,
`translator.lexicon.Lexicon.gender`); the case is the one the article shows where it shows one, else the one its
preposition takes (`PREPOSITION_CASES`), else the nominative at a sentence's start or after a verb like "ist" and a
conjunction like "dass" (`NOMINATIVE_AFTER`), else the accusative where only the nominative and the accusative are
left. Where the case stays open the phrase stays as written; so does a plural ("die Lehrer": the lexicon's "p") and a
phrase with a word between article and noun that is no adjective ("ein paar Tage"). After a noun or a preposition of
the genitive, a masculine or neuter noun after "des", "eines" or a word declined as "ein" takes the genitive's ending
("die Farbe des Monitor": "des Monitors", "während des Sturm": "des Sturms", `_genitive_ending`). A masculine
phrase in the nominative after a subject pronoun and its verb is their object, in the accusative ("Ich habe ein Apfel
gegessen": "einen Apfel", `_as_object`); a sentence's "Der" and a feminine noun before a verb in the third person
singular are its subject, in the nominative ("Der Katze setzte sich": "Die Katze", `_a_subject`; "Dieser" too). Where
the article fits its noun, the adjective before the noun takes the ending the two give where each of their readings
gives the same ("der nächsten Zug": "der nächste Zug", "die statische Bibliotheken": "die statischen",
`_with_its_adjectives`); with no article after a preposition of one case, they take the strong ending ("mit
unformatierten Text": "mit unformatiertem Text", `_with_strong_endings`). A stream holds each phrase back until its
noun ends (such a subject until the two words after it have), so its pieces are the whole translation's
(`held_back_from`); a phrase at a piece's start reads the end of the pieces sent before it. No torch.
"""

from __future__ import annotations

import functools
import re

from translator import conjugation, lexicon
from translator.markup import PLACEHOLDER_PATTERN

CASES = ("nom", "acc", "dat", "gen")
GENDERS = ("m", "f", "n", "p")  # "p": the plural
DEFINITE = dict(zip(((case, gender) for gender in GENDERS for case in CASES),
                    "der den dem des die die der der das das dem des die die den der".split()))
# The endings of "ein" and the words declined as it ("kein", "mein", "Ihr", "unser"); "ein" has no plural
INDEFINITE_ENDINGS = dict(zip(((case, gender) for gender in GENDERS for case in CASES),
                              ["", "en", "em", "es", "e", "e", "er", "er", "", "", "em", "es", "e", "e", "en", "er"]))
INDEFINITE_STEMS = ("ein", "kein", "mein", "dein", "sein", "ihr", "unser")
# The words declined as "der" ("dies-", "jed-") and their ending for each of its forms ("des" and "das" both "-es")
DECLINED_AS_DER = ("dies", "jed")
DER_ENDINGS = {"der": "er", "die": "e", "das": "es", "des": "es", "den": "en", "dem": "em"}
DEFINITE_STEMS = ("der", *DECLINED_AS_DER)  # the stems after which an adjective takes the weak ending (WEAK_ENDINGS)
# An adjective's ending after a definite article (weak) and after "ein" (mixed), by case and gender
WEAK_ENDINGS = {("nom", "m"): "e", ("nom", "f"): "e", ("nom", "n"): "e", ("acc", "f"): "e", ("acc", "n"): "e"}
MIXED_ENDINGS = {("nom", "m"): "er", ("nom", "f"): "e", ("nom", "n"): "es", ("acc", "f"): "e", ("acc", "n"): "es"}
OTHER_ENDING = "en"  # each other case and gender, either way
# An adjective's ending with no article before it (strong), in the cases of the prepositions that take one
STRONG_ENDINGS = {("dat", "m"): "em", ("dat", "n"): "em", ("dat", "f"): "er",
                  ("acc", "m"): "en", ("acc", "f"): "e", ("acc", "n"): "es"}
ADJECTIVE_ENDINGS = ("en", "em", "er", "es", "e")
# Words that may stand between an article and the adjective they qualify ("ein sehr gutes Buch")
QUALIFIERS = {"sehr", "ganz", "so", "zu", "besonders", "recht", "ziemlich", "äußerst", "etwas", "noch", "wirklich",
              "völlig", "relativ", "immer", "nicht"}
# Words ending as adjectives do that are none, or that make the phrase a plural ("die beiden")
NO_ADJECTIVES = ("aber", "oder", "wieder", "weiter", "mehr", "weniger", "alle", "beide", "beiden",
                 "viele", "vielen", "einige", "wenige", "andere", "anderen", "manche", "mehrere", "sie", "wie", "ohne",
                 "denen", "deren")
# Words that end as an adjective does but qualify no noun as one: numbers ("die vier Wände"), words declined as "der"
# that are no article here ("der jener Bibliothek") and the plural's "die meisten" (not "die meiste Fähigkeit")
NOT_ADJECTIVES = ("vier", "sieben")
NOT_ADJECTIVE_STEMS = ("jen", "welch", "meist")
# Words declined as adjectives that change the endings of those after them ("mit allem modernen Komfort", "von vielem
# unnötigen Code"), and "einig-", which the model writes for a plural ("von einigen Sortierung")
DETERMINER_STEMS = ("all", "viel", "wenig", "einig", "manch", "mehrer", "sämtlich", "etlich", "solch")
# The articles that are a masculine or neuter genitive alone ("des", "eines", "Ihres"; not "dieses"): their noun
# takes the genitive's ending (`_genitive_ending`) after a noun (GENITIVE_OWNER: a word with a capital, no pronoun: "die
# Farbe des Monitors") or a preposition of the genitive ("während des Sturms"); after another word the article is
# what may be wrong ("um Ihres Passwort zurückzusetzen", "Geben Sie Ihres Passwort ein")
GENITIVE_ARTICLES = ("des", *(stem + "es" for stem in INDEFINITE_STEMS))
GENITIVE_OWNER = re.compile(r"(?<![\w-])(?!(?:Sie|Ihnen|Ich|Er|Es|Wir|Ihr|Du|Dir|Dich|Mir|Mich|Uns|Euch)\s)"
                            r"[A-ZÄÖÜ][\w-]*\s+$")
# The endings of a masculine or neuter noun's genitive, tried in this order against the words German writes with the
# noun's head ("des Monitors", "des Hauses", "des Busses"; `_genitive_ending`)
GENITIVE_ENDINGS = ("s", "es", "ses")
# The ends of a noun after which the genitive's "s" is no syllable of its own, so it takes "es" ("des Kurses", "des
# Fußes", "des Hauses", "des Indexes", "des Satzes", "des Tisches"); another vowel and "s" takes the one German writes
# ("des Busses"; "des Status", "des Relais", "des Zeus" none)
SIBILANT_END = re.compile(r"(?:[^\Waeiouäöüy]s|(?:au|äu|ei)s|ss|ß|x|z|sch)$")
# A noun of one syllable that ends in "d" or "t", which takes the genitive's "es" more often than "s" ("des Grundes")
ONE_SYLLABLE_IN_D_OR_T = re.compile(r"[^\Waeiouäöüy]*[aeiouäöüy]+[^\Waeiouäöüy]*[dt]", re.I)
# The ends of the neuter nouns that name a language ("Englisch", "Hochdeutsch")
LANGUAGE_ENDS = ("isch", "deutsch")
# The ends of the masculine nouns of persons declined as "Student": "des Studenten", "dem Studenten" (with a plural the
# dictionary lists in "en": not "Akzent", "Moment")
WEAK_ENDS = ("ent", "ant", "ist", "at", "et", "ot", "it", "ekt", "oge", "nom", "graf", "graph", "soph")
# The endings of a listed noun's plural and genitive: a noun that is another's with one of them may be that one's
# ("die großen Zwecke": "Zweck"'s plural, not the feminine "Zwecke")
INFLECTED_ENDINGS = ("e", "n", "en", "er", "s", "es", "se")
# Words between a verb and the article its case follows ("ist nicht mein Freund")
BETWEEN = ("nicht", "auch", "noch", "nur", "schon", "wirklich")
# A preposition and an article in one word, and the article it holds ("zum": "zu dem")
CONTRACTIONS = {"zum": ("zu", "dem"), "zur": ("zu", "der"), "im": ("in", "dem"), "am": ("an", "dem"),
                "vom": ("von", "dem"), "beim": ("bei", "dem"), "ins": ("in", "das"), "ans": ("an", "das")}
CONTRACTED = {parts: word for word, parts in CONTRACTIONS.items()}
PREPOSITION_CASES = {
    **dict.fromkeys(("mit", "von", "zu", "aus", "bei", "nach", "seit", "gegenüber", "außer"), ("dat",)),
    **dict.fromkeys(("für", "durch", "gegen", "ohne"), ("acc",)),  # not "um": "um dem Benutzer zu helfen"
    **dict.fromkeys(("in", "an", "auf", "über", "unter", "vor", "hinter", "neben", "zwischen"), ("dat", "acc")),
    **dict.fromkeys(("während", "wegen", "trotz"), ("gen",))}
# The prepositions after which an article in the right gender but another case is written in theirs ("mit die
# Gitarre": "mit der Gitarre", "in der Bahnhof": "im Bahnhof"); not those that may follow their noun or open a clause
# ("dem Namen nach eine Demokratie", "seit das Werk läuft", "von Haus aus die Anzeige")
CASE_ONLY_AFTER = ("mit", "von", "zu", "bei", "für", "durch", "gegen", "ohne", "in", "an", "auf", "über",
                   "unter", "vor", "hinter", "neben", "zwischen")
NOMINATIVE_AFTER = ("ist", "sind", "war", "waren", "wird", "werden", "wurde", "wurden", "bleibt", "dass", "weil",
                    "wenn", "ob", "obwohl", "als", "da")
CONTEXT_CASES = {**PREPOSITION_CASES, **dict.fromkeys(NOMINATIVE_AFTER, ("nom",))}
# The prepositions of one case, the dative or the accusative, before which an adjective with no article takes its
# strong ending (BARE_PHRASE); not "zu", which is also "too" and an infinitive's ("leicht zu bedienende Oberfläche")
BARE_CASES = {word: cases[0] for word, cases in PREPOSITION_CASES.items()
              if len(cases) == 1 and cases[0] in ("dat", "acc") and word != "zu"}
_CONTEXT = "|".join(sorted(CONTEXT_CASES, key=len, reverse=True))
_ARTICLE = (rf"d(?:er|ie|as|en|em|es)|(?:{'|'.join(DECLINED_AS_DER)})e[mnrs]?"
            rf"|(?:{'|'.join(INDEFINITE_STEMS)})(?:e[mnrs]?)?|{'|'.join(CONTRACTIONS)}")
_WORD_ENDS = r"(?=\s|$|[.,;:!?)\]»«\"“”'’](?![\w:]))"
_NOT_DESCRIBING = "|".join((_ARTICLE, _CONTEXT, *NO_ADJECTIVES))
_DESCRIBING = rf"\s+(?!(?:{_NOT_DESCRIBING})(?![\w-]))(?:{'|'.join(QUALIFIERS)}|[a-zäöüß]+e[mnrs]?)(?![\w-])"
# A noun (conjugation.NOUN) after the first parts of a compound that may be codes or numbers ("SSH-Verbindung",
# "32-Bit-ABI-Variante"): its gender is its last part's (`lexicon.Lexicon.gender`)
_NOUN = rf"(?:[A-ZÄÖÜ\d]\w*-)*{conjugation.NOUN}"
# An article, the word before it where that is a preposition or a word the nominative follows, the adjectives after it
# and the noun they lead to, which ends a word, not a name's part ("Client/Server", "Code::Blocks",
# "System.ServiceProcess", "Benutzer*innen")
NOUN_PHRASE = re.compile(rf"(?<![\w-])(?:(?P<context>(?i:{_CONTEXT}))(?P<gap>\s+(?:(?:{'|'.join(BETWEEN)})\s+)?))?"
                         rf"(?P<article>(?i:{_ARTICLE}))(?P<describing>(?:{_DESCRIBING})*?)"
                         rf"\s+(?P<noun>{_NOUN}){_WORD_ENDS}")
# A preposition of BARE_CASES, the adjectives after it and their noun, with no article ("mit unformatierten Text")
_BARE = "|".join(BARE_CASES)
BARE_PHRASE = re.compile(rf"(?<![\w-])(?P<context>(?i:{_BARE}))(?P<describing>(?:{_DESCRIBING})+?)"
                         rf"\s+(?P<noun>{_NOUN}){_WORD_ENDS}")
# A capitalized word or a number after the one read as the noun: that one was an adjective or a name ("das Warschauer
# Nachtleben", "die Python 3-Version"); not an item's token on its own ("einen alten Schloss XX0X": "in Schottland")
NOUN_GOES_ON = re.compile(rf"\s+(?!{PLACEHOLDER_PATTERN.pattern}(?![\w-]))[A-ZÄÖÜ\d]")
# The endings of the nouns whose plural may be written as their singular ("die Lehrer", "die Mädchen", "den Kollegen")
PLURAL_AS_SINGULAR = ("er", "el", "en", "rn", "ln", "chen", "lein")
# The words `agreeing` reads before a phrase: "Was für ein", "dieses eine Mal"
READ_BEFORE = ("was", *(f"dies{ending}" for ending in dict.fromkeys(DER_ENDINGS.values())))
# An article or a word declined as "der" just before another ("das eine Mal", "dieses eine Mal")
AN_ARTICLE_BEFORE = re.compile(rf"(?<![\w-])((?i:{_ARTICLE}))\s+$")
LOOK_BEHIND = 40  # characters: a word or two before a phrase, and the spaces after them
# A sentence's subject pronoun, its verb and the words that may stand between the verb and its object: a masculine
# phrase after them in the nominative is the object, in the accusative ("Ich habe ein Apfel gegessen": "einen Apfel");
# not "Es", which may hold the place of a subject that follows ("Es besteht kein Anlass")
OBJECT_AFTER = re.compile(r"(?:Ich|Du|Er|Sie|Wir|Ihr)\s+(?P<verb>[a-zäöüß]+)\s+(?:(?:"
                          + "|".join((*BETWEEN, "heute", "morgen", "gestern", "oft", "immer", "gern", "gerne", "jetzt",
                                      "wieder", "bald")) + r")\s+)*")
# The verbs after which a phrase in the nominative is no object: forms of "sein", "werden", "bleiben" and "heißen",
# their subjunctives too ("Er wäre ein guter Arzt")
NOMINATIVE_VERBS = {*"bin bist ist sind seid war warst waren wart werde wirst wird werdet wurde wurdest wurden".split(),
                    *"wäre wärst wären wärt würde würdest würden würdet sei seiest seien".split(),
                    *"bleibe bleibst bleibt bleiben blieb blieben bliebe heiße heißt heißen hieß hießen".split()}
# A superlative after "am" is an adverb ("die am besten erhaltene Stadt", "am meisten Angst"); not "nächsten" and
# "ersten", which place the noun after them ("am nächsten Ampel": "an der nächsten Ampel")
SUPERLATIVE = re.compile(r"(?<![\w-])(?!(?:nächst|erst)en(?![\w-]))[\w-]*sten(?![\w-])")
WAS_BEFORE = re.compile(r"(?<![\w-])[Ww]as\s*$")
# A phrase whose noun has not ended yet, which a stream holds back (`held_back_from`): an article's, or a one-case
# preposition's (BARE_PHRASE)
OPEN_NOUN_PHRASE = re.compile(rf"(?<![\w-])(?:(?:(?i:{_CONTEXT})\s+(?:(?:{'|'.join(BETWEEN)})\s+)?)?(?i:{_ARTICLE})"
                              rf"|(?i:{_BARE}))(?:{_DESCRIBING})*(?:\s+[\w-]*)?\s*$")
WORD_BEFORE = re.compile(r"\S*\s*$")
# A sentence's article that fits a feminine noun as a dative or a genitive, which may be a subject's written in the
# masculine ("Der Katze setzte sich", "Dieser Situation ist")
DATIVE_OR_SUBJECT = ("Der", "Dieser")
# The verb after a sentence's "Der" and its noun, and the word after the verb, which `_a_subject` reads; in a stream's
# text what it needs read: the two words up to their ends, or a mark before them
VERB_AFTER = re.compile(conjugation.VERB_AND_NEXT)
VERB_AFTER_READ = re.compile(r"\s*[\w-]*[^\w\s-]|\s+[\w-]+\s*[^\w\s-]|\s+[\w-]+\s+[\w-]+[^\w-]")
# What `agreeing` reads after a phrase: a mark and what follows it (NOUN_PHRASE: "Code::Blocks" is a name, "Code: 12"
# a noun), a word up to its end (NOUN_GOES_ON: a capital or a number, but not an item's token alone)
READ_AFTER = re.compile(r"[^\w\s].|[\w-]+[^\w-]", re.S)
# A word after a phrase that is no part of its noun or a name (NOUN_GOES_ON): the phrase may go in a piece of its own,
# which `agreeing` reads as it reads the whole ("Die Softwareaktualisierung" before "bereinigt" has ended)
NO_NOUN_GOES_ON = re.compile(r"\s+[^\sA-ZÄÖÜ\d]")
# The rest of a word a stream's piece starts with where the piece before ended inside it ("angrenzen|den Küste")
WORD_REST = re.compile(r"[\w-]*")
LAST_WORDS = re.compile(r"(?:(?<![\w-])(?P<before>[^\W\d_]+)\s+)?(?<![\w-])(?P<last>[\w-]*)\s*$")
_ARTICLES = {*DEFINITE.values(), *CONTRACTIONS,
             *(stem + ending for stem in DECLINED_AS_DER for ending in DER_ENDINGS.values()),
             *(stem + ending for stem in INDEFINITE_STEMS for ending in INDEFINITE_ENDINGS.values())}
_ARTICLE_STARTS = frozenset(word[:end] for word in _ARTICLES for end in range(len(word) + 1))
_FIRST_STARTS = _ARTICLE_STARTS | {word[:end] for word in (*CONTEXT_CASES, *READ_BEFORE)
                                   for end in range(1, len(word) + 1)}


def agreeing(text: str, before: str = "") -> str:
    """The German with each article (and the adjectives after it) in the gender of its noun. `before`: what a stream
    sent before this piece of its text; where that ends inside a word, the piece's first word is its rest, no article
    ("angrenzen|den Küste")."""
    if " " not in text:
        return text
    rest = WORD_REST.match(text).end() if before[-1:] and WORD_REST.fullmatch(before[-1]) else 0
    # what a phrase at the piece's start has before it (`_as_object`, `_genitive_ending`): the end of the pieces sent
    opening = before[-LOOK_BEHIND - 1:] + text[:rest]
    agreed = NOUN_PHRASE.sub(functools.partial(_agreeing_phrase, opening), text[rest:])
    return text[:rest] + BARE_PHRASE.sub(_with_strong_endings, agreed)


def held_back_from(text: str) -> int | None:
    """Where a stream holds its text so far back from (None: nothing), so that each phrase `agreeing` may change goes
    in one piece with what `agreeing` reads before it ("Was für ein", "das eine Mal", ", der"): a phrase whose noun
    has not ended and a word that may start one or be read before one ("mit", "d", "dieses"); never inside a whole
    phrase, nor between it and the word after it unless that word starts in a small letter ("über die Geld" waits for
    "Geldbezug", which leaves it as written; "die Datei XX" for the item's token "XX0X"; "Die Softwareaktualisierung
    be" sends the phrase)."""
    start = len(text)
    if phrase := OPEN_NOUN_PHRASE.search(text):
        start = _with_the_word_before(text, phrase.start())
    elif not (words := LAST_WORDS.search(text)):
        pass  # ends in a mark
    elif (words["before"] or "").lower() in CONTEXT_CASES and (words["last"].lower() in _ARTICLE_STARTS
                                                                or words["last"] in BETWEEN):
        start = _with_the_word_before(text, words.start())  # "mit", "mit d", "ist nicht"
    elif words["last"] and words["last"].lower() in _FIRST_STARTS:
        start = _with_the_word_before(text, words.start("last"))  # "zwisch", "ei", "Was"
    wholes = sorted([*NOUN_PHRASE.finditer(text), *BARE_PHRASE.finditer(text)], key=re.Match.start, reverse=True)
    for whole in wholes:  # a whole phrase goes with what `agreeing` reads after it
        if whole.start() >= start:
            continue
        if whole.re is NOUN_PHRASE and _may_be_a_subject(whole):
            held = not VERB_AFTER_READ.match(text, whole.end(), start)  # "Der Katze setzte sich"
        else:
            held = not (READ_AFTER.search(text, whole.end(), start) or NO_NOUN_GOES_ON.match(text, whole.end()))
        if held:
            start = _with_the_word_before(text, whole.start())
    return start if start < len(text) else None


def _with_the_word_before(text: str, start: int) -> int:
    """`start`, or the start of the word before it where `agreeing` reads that word: a comma after it (a relative
    pronoun's), "was" ("Was für ein"), an article or "dies-" ("das eine Mal", "dieses eine Mal")."""
    before = WORD_BEFORE.search(text, 0, start)
    word = before.group().strip().lower()
    if word.endswith(","):
        return before.start() + before.group().rindex(",")  # the comma alone
    return before.start() if word in READ_BEFORE or word in _ARTICLES else start


def _agreeing_phrase(opening: str, phrase: re.Match) -> str:
    """A phrase written in its noun's gender, or as an object (`_as_object`), its noun with the genitive's ending
    (`_genitive_ending`). `opening`: the end of the text before the one the phrase is in (a stream's pieces sent:
    LOOK_BEHIND characters and one more, which tells that more came before them)."""
    context, written, noun = phrase["context"] or "", phrase["article"], phrase["noun"]
    contracted, article = CONTRACTIONS.get(written.lower(), ("", written.lower()))
    next_to = context.lower() in PREPOSITION_CASES and not (phrase["gap"] or "").strip()  # not "von noch das"
    preposition = contracted or (context.lower() if next_to else "")
    if preposition == "für" and WAS_BEFORE.search(_before(phrase)):
        preposition = context = ""  # "Was für ein Zufall": no preposition
    if not (gender := _other_gender(phrase, article, preposition)):
        agreed = _as_object(opening, phrase) or _with_its_adjectives(phrase, article, preposition) or phrase.group()
        return agreed + (article in GENITIVE_ARTICLES and _genitive_ending(phrase, opening) or "")
    stem = _declined(article)
    case = _case(_readings(article), gender, preposition or context.lower(), written[0].isupper(), stem)
    ending = _genitive_ending(phrase, opening) if case == "gen" and gender != "f" else ""
    if case is None or ending is None:
        return phrase.group()  # the case stays open, or the noun's genitive ending is not known
    if (describing := _describing(phrase["describing"], _ending_after(stem, (case, gender)))) is None:
        return phrase.group()
    article = _article(stem, case, gender)
    if contracted:  # "zur Bahnhof": "zum Bahnhof", "am Tür": "an der Tür"
        article = CONTRACTED.get((contracted, article), f"{contracted} {article}")
    elif context and (context.lower(), article) in CONTRACTED:  # "in der Bahnhof": "im Bahnhof"
        return f"{_as_written(context, CONTRACTED[context.lower(), article])}{describing} {noun}"
    return f"{context}{phrase['gap'] or ''}{_as_written(written, article)}{describing} {noun}{ending}"


def _as_object(opening: str, phrase: re.Match) -> str | None:
    """A masculine phrase in the nominative written in the accusative where it follows a subject pronoun and its verb
    (OBJECT_AFTER: "Ich habe ein Apfel gegessen", "einen Apfel"), not one of NOMINATIVE_VERBS nor
    conjugation.DATIVE_FIRST; else None."""
    if phrase["context"] or len(opening) + phrase.start() > LOOK_BEHIND:
        return None  # an object's subject and verb are a sentence's first words, the same whole and streamed
    if (article := phrase["article"]) not in ("der", *INDEFINITE_STEMS):
        return None
    if not (subject := OBJECT_AFTER.fullmatch(opening + phrase.string[:phrase.start()])):
        return None
    verb = subject["verb"]
    if verb in NOMINATIVE_VERBS or (forms := conjugation.forms_with(verb)) and forms[2] in conjugation.DATIVE_FIRST:
        return None
    if lexicon.load().gender(phrase["noun"]) != "m" or NOUN_GOES_ON.match(phrase.string, phrase.end()):
        return None
    stem = _declined(article)
    if (describing := _describing(phrase["describing"], _ending_after(stem, ("acc", "m")))) is None:
        return None
    return f"{_article(stem, 'acc', 'm')}{describing} {phrase['noun']}"


def _with_its_adjectives(phrase: re.Match, article: str, preposition: str) -> str | None:
    """A phrase whose article fits its noun, with the adjective before the noun in the ending they give where it has
    another ("der nächsten Zug": "der nächste Zug", "die statische Bibliotheken": "die statischen Bibliotheken", "ein
    mächtiges Editor": "ein mächtiger Editor"), and the words before it that have its ending ("die neue schnelle
    Versionen"), not an adverb's ("die gerade laufende Prozesse"); else None."""
    if article == "ihr" or not phrase["describing"] or not (listed := lexicon.load().genders.get(phrase["noun"])):
        return None
    if _may_be_a_subject(phrase):
        return None  # "Der neue Version enthält": a subject the verb after it did not tell (`_a_subject`)
    pairs = re.findall(r"(\s+)(\S+)", phrase["describing"])
    if (written := _adjective_ending(pairs[-1][1], last=True)) is None:
        return None
    if (ending := _adjectives_ending(article, listed, preposition)) in (None, written) or _another_thing(
            phrase, article, listed, preposition, pairs[-1][1]):
        return None
    return _with_ending(phrase, pairs, written, ending)


def _with_strong_endings(phrase: re.Match) -> str:
    """A phrase of a preposition of one case and adjectives before a singular noun with no article, the adjectives in
    the strong ending of its case and the noun's gender ("mit unformatierten Text": "mit unformatiertem Text", "nach
    kurzem Zeit": "nach kurzer Zeit", "für beste Schutz": "für besten Schutz"), as `_with_its_adjectives` writes
    them; else as written: a noun that may be a plural (another's with a dative's "n" or "en", PLURAL_AS_SINGULAR,
    another's of another gender), an adjective the English side writes, a noun that goes on (NOUN_GOES_ON), a word
    between that is no adjective or one of DETERMINER_STEMS, and an article before the preposition, whose noun the
    words after it describe ("die von ihnen erstellte Software", "eine nach innen gerichtete Bewegung")."""
    words, noun, case = lexicon.load(), phrase["noun"], BARE_CASES[phrase["context"].lower()]
    if not (listed := words.genders.get(noun)) or "p" in listed or noun.endswith(PLURAL_AS_SINGULAR) or (
            case == "dat" and _with_an_n(noun, words)) or _may_be_inflected(noun, listed):
        return phrase.group()
    pairs = re.findall(r"(\s+)(\S+)", phrase["describing"])
    if any(word.startswith(DETERMINER_STEMS) or word not in QUALIFIERS and _adjective_ending(word) is None
           for _, word in pairs) or AN_ARTICLE_BEFORE.search(_before(phrase)):
        return phrase.group()
    written, ending = _adjective_ending(pairs[-1][1]), STRONG_ENDINGS[case, listed]
    if written in (None, ending) or words.knows(pairs[-1][1]) or NOUN_GOES_ON.match(phrase.string, phrase.end()):
        return phrase.group()
    return _with_ending(phrase, pairs, written, ending)


def _genitive_ending(phrase: re.Match, opening: str) -> str | None:
    """The ending a phrase's masculine or neuter noun lacks in the genitive ("des Sturm": "s", "des Prozess": "es",
    "eines Ergebnis": "ses", "des Student": "en"), read from its head (`lexicon.Lexicon.head`: "Schneesturm":
    "Sturm") by `_head_genitive`; "" for a noun of another gender. None where it is not known: after a word that is
    no noun (GENITIVE_OWNER) nor a preposition of the genitive, for a noun that goes on (NOUN_GOES_ON) or may have
    its ending ("Mais": "Mai"; `_with_an_n`: "Szenengraphen", "Englischen"; an adjective's: "Möglichen").
    `opening`: as `_agreeing_phrase` has it."""
    words, noun = lexicon.load(), phrase["noun"]
    if not (gender := words.gender(noun)) or gender[0] not in "mn":
        return ""
    before = (opening if phrase.start() < LOOK_BEHIND else "") + _before(phrase)
    if PREPOSITION_CASES.get((phrase["context"] or "").lower()) != ("gen",) and not GENITIVE_OWNER.search(before):
        return None
    head = words.head(noun) or noun
    if NOUN_GOES_ON.match(phrase.string, phrase.end()) or _with_an_n(head, words) or any(
            head.endswith(ending) and (words.gender(head.removesuffix(ending)) or "f")[0] in "mn"
            for ending in GENITIVE_ENDINGS) or noun.endswith("en") and words.is_german(noun[:-2]):
        return None
    return _head_genitive(head, gender[0])


@functools.cache
def _head_genitive(head: str, gender: str) -> str | None:
    """A masculine or neuter noun's genitive ending, or None where it is not known:
    - a language's name (LANGUAGE_ENDS): none ("des Englischen");
    - "nis": "ses" ("Ergebnisses"); a masculine noun in "e": "ns" where German writes it ("Namens", "Glaubens");
    - a noun whose plural the dictionary lists in "n" or "en": the first of "s" and "es" German writes with it
      ("Auges", "Staates", "Links"), else a masculine one in "e" "n" ("Kunden"), in WEAK_ENDS "en" ("Studenten"), in
      "or" "s" ("Monitors"); another none ("Herzens", "Menschen");
    - SIBILANT_END: "es" ("Prozesses", "Hauses"); another vowel and "s": the "ses" German writes ("Busses"; "Status");
    - ONE_SYLLABLE_IN_D_OR_T: "es" ("Grundes", "Kindes"), "s" where German writes that alone ("Bits");
    - another: the first of "s" and "es" German writes, else "s" ("Sturms")."""
    words = lexicon.load()
    # (not an adjective's "es": "oberstes", with "oberster", which is no plural as "Kinder" is)
    written = [ending for ending in GENITIVE_ENDINGS[:2] if words.is_german(head + ending) and not (
        ending == "es" and words.is_german(head + "er") and words.genders.get(head + "er") != "p")]
    if gender == "n" and head.lower().endswith(LANGUAGE_ENDS):
        return None
    if head.endswith("nis"):
        return "ses"
    if gender == "m" and head.endswith("e") and words.is_german(head + "ns"):
        return "ns"
    if words.genders.get(head + ("n" if head.endswith("e") else "en")) == "p":
        if written or gender == "n":
            return next(iter(written), None)
        return "n" if head.endswith("e") else "en" if head.endswith(WEAK_ENDS) else "s" if head.endswith("or") else None
    if SIBILANT_END.search(head):
        return "es"
    if head.endswith("s"):
        return "ses" if words.is_german(head + "ses") else None
    if ONE_SYLLABLE_IN_D_OR_T.fullmatch(head):
        return "s" if written == ["s"] else "es"
    return next(iter(written), "s")


def _with_ending(phrase: re.Match, pairs: list[tuple[str, str]], written: str, ending: str) -> str:
    """A phrase with its last adjective's ending `written` as `ending`, and the words before it that have its ending
    ("die neue schnelle Versionen"), not an adverb's ("die gerade laufende Prozesse"). `pairs`: the (space, word) of
    its describing words."""
    describing = "".join(space + (word[:-len(written)] + ending if index == len(pairs) - 1
                                  or _adjective_ending(word) == written else word)
                         for index, (space, word) in enumerate(pairs))
    start, end = phrase.span("describing")
    return phrase.string[phrase.start():start] + describing + phrase.string[end:phrase.end()]


@functools.cache
def _adjectives_ending(article: str, gender: str, preposition: str) -> str | None:
    """The ending of the adjectives after an article that fits a noun of the dictionary's `gender`, where each
    reading the two leave gives the same one ("der" before a masculine noun: the nominative's "e"); None where they
    differ ("der" before "Lehrer", which may be a plural) and where the article is in no case its preposition takes
    ("nach der zusätzlichen Abstand": the article is what is wrong)."""
    readings = [reading for reading in _readings(article) if _agrees(reading, gender, preposition)]
    if preposition and not any(case in PREPOSITION_CASES[preposition] for case, _ in readings):
        return None
    (ending, *others) = {_ending_after(_declined(article), reading) for reading in readings} or {None}
    return None if others else ending


def _another_thing(phrase: re.Match, article: str, listed: str, preposition: str, adjective: str) -> bool:
    """Whether a phrase whose adjective `_with_its_adjectives` would change may be another thing: a noun another's
    plural or genitive may be ("Zwecke": "Zweck"), an adjective the English side writes ("der libarchive
    Bibliothek"), a number before it where no word its case follows stands before it, or what `_read_otherwise`
    reads ("das am ehesten erreichbare Ziel")."""
    if "p" not in listed and _may_be_inflected(phrase["noun"], listed):
        return True
    return bool(lexicon.load().knows(adjective) or not phrase["context"] and _a_number(phrase, listed)
                or _read_otherwise(phrase, article, preposition))


def _may_be_inflected(noun: str, listed: str) -> bool:
    """Whether a listed noun may be another of another gender with a plural's or genitive's ending ("Zwecke":
    "Zweck")."""
    genders = lexicon.load().genders
    return any(noun.endswith(ending) and genders.get(noun[:-len(ending)], listed)[0] != listed[0]
               for ending in INFLECTED_ENDINGS)


def _read_otherwise(phrase: re.Match, article: str, preposition: str) -> bool:
    """Whether the words around a phrase make it another thing than an article, its adjectives and its noun: a
    relative pronoun after a comma ("der Mann, der Geld hat", "die Stadt, in der Egoismus herrscht"), a superlative's
    adverb after "am" ("die am besten erhaltene Stadt"), a noun that goes on in a name or a number after it ("das
    Warschauer Nachtleben", NOUN_GOES_ON)."""
    return bool((not phrase["context"] or preposition) and _after_a_comma(phrase)
                or article == "dem" and preposition == "an" and SUPERLATIVE.search(phrase["describing"])
                or NOUN_GOES_ON.match(phrase.string, phrase.end()))


def _other_gender(phrase: re.Match, article: str, preposition: str) -> str | None:
    """The gender ("m", "f" or "n") of a phrase's noun where its article has none of the noun's readings (or none in
    the case its preposition takes) and the phrase is no other thing that may be written so; else None."""
    readings, words, noun = _readings(article), lexicon.load(), phrase["noun"]
    if subject := _a_subject(phrase):
        readings = tuple(reading for reading in readings if reading[0] == "nom")
    if not readings or (listed := words.genders.get(noun)) and any(_agrees(reading, listed, preposition)
                                                                    for reading in readings):
        return None  # most phrases: the article fits the dictionary's gender
    gender = words.gender(noun)
    if not gender or gender == "p" or any(_agrees(reading, gender, preposition) for reading in readings):
        return None
    if phrase["article"] == "ihr" or _a_number(phrase, gender) or _read_otherwise(phrase, article, preposition):
        return None  # a pronoun ("Gib ihr Zeit"), "das eine Mal", a relative pronoun, an adverb, a name
    fitting = [reading for reading in readings if not preposition or reading[0] in PREPOSITION_CASES[preposition]]
    # a subject the dictionary has as a feminine noun is no plural nor adjective ("Der Katze": "Die Katze"), but where
    # it ends as a participle used as a noun does ("Der Angeklagte")
    feminine_subject = subject and listed == "f" and not noun.endswith(("te", "de"))
    if not feminine_subject and _another_reading(noun, fitting, words):
        return None
    return gender[0]


def _may_be_a_subject(phrase: re.Match) -> bool:
    """Whether `_a_subject` may read the phrase as its sentence's subject once the words after it are there: "Der"
    or "Dieser" and a feminine noun (a dative or genitive as written)."""
    return phrase["article"] in DATIVE_OR_SUBJECT and not phrase["context"] and lexicon.load().gender(
        phrase["noun"]) == "f"


def _a_subject(phrase: re.Match) -> bool:
    """Whether a phrase opened by a sentence's "Der" is the sentence's subject, so in the nominative ("Der Katze
    setzte sich": "Die Katze"): a verb in the third person singular follows it (`conjugation.third_person_of`), none
    whose first object may be a dative ("Der Frau gefällt das") nor one a subject pronoun follows ("Der Frau geht es
    gut", "Der Frau kaufte er ein Kleid")."""
    if phrase["article"] not in DATIVE_OR_SUBJECT or phrase["context"] or not (after := VERB_AFTER.match(
            phrase.string, phrase.end())):
        return False
    verb = conjugation.third_person_of(after["verb"])
    return verb is not None and conjugation.a_subject_before(verb, after["next"])


def _as_written(written: str, word: str) -> str:
    """A word with a capital where the word it replaces has one."""
    return word[0].upper() + word[1:] if written[0].isupper() else word


def _agrees(reading: tuple[str, str], gender: str, preposition: str) -> bool:
    """Whether an article's reading fits its noun's gender ("p" too where the noun's plural is written the same)
    and the case its preposition takes."""
    case, article_gender = reading
    fits_case = preposition not in CASE_ONLY_AFTER or case in PREPOSITION_CASES[preposition]
    return fits_case and (article_gender == gender[0] or article_gender in gender[1:])


def _another_reading(noun: str, readings: list[tuple[str, str]], words: lexicon.Lexicon) -> bool:
    """Whether the noun may be read so that the article fits it after all: a plural written as its singular where
    the article can be plural ("die Lehrer", "den Kollegen"), a genitive's "s" after a noun ("des Jahres"), a
    plural's or a masculine noun's "n" after a noun ("Kacheln", not "das Kacheln"; "einen Graphen", not "das
    Graphen"), an old dative's "e" ("im Falle", "am Rande": "Fall" and "Rand" are words) or an adjective used as a
    noun ("ins Schwarze", "das Weite", "der Angestellte", "das Interessanteste": "schwarz", "weit", "angestellt" and
    "interessant" are words and no nouns); a compound's last part tells ("C-Quellen": "Quellen")."""
    noun = noun.rsplit("-", 1)[-1]
    genders, cases = {gender for _, gender in readings}, {case for case, _ in readings}
    if "p" in genders and noun.endswith(PLURAL_AS_SINGULAR) and not noun.endswith("ier"):  # not "Revier", "Papier"
        return True
    if "gen" in cases and any(noun.endswith(ending) and words.gender(noun.removesuffix(ending))
                              for ending in ("s", "es")):
        return True  # "des Jahres", not "der Verzeichnis"
    if _with_an_n(noun, words):
        return True  # a plural's "n" ("eine verschiedene Kacheln"), a masculine noun's ("einen Graphen", "dem Kunden")
    if not noun.endswith("e"):
        return False
    stem = noun[:-1]
    if cases == {"dat"} and words.genders.get(stem, "m")[0] in "mn" and words.is_german(stem):
        return True
    return any(len(stem) >= 4 and stem not in words.genders and words.is_german(stem)
               for stem in (noun[:-1], noun.removesuffix("ste"), noun.removesuffix("este")))


def _with_an_n(noun: str, words: lexicon.Lexicon) -> bool:
    """Whether the noun is a listed noun with an "n" or "en" after it: a plural's ("Kacheln", a dative's "Segeln") or
    a masculine noun's ("Graphen", "Kunden")."""
    return any(noun.endswith(ending) and noun.removesuffix(ending) in words.genders for ending in ("n", "en"))


def _before(phrase: re.Match) -> str:
    """The few words before a phrase (a bounded look: a text of many phrases is read once, not once per phrase)."""
    return phrase.string[max(0, phrase.start() - LOOK_BEHIND):phrase.start()]


def _after_a_comma(phrase: re.Match) -> bool:
    return _before(phrase).rstrip().endswith(",")


def _a_number(phrase: re.Match, gender: str) -> bool:
    """Whether an article in the noun's gender stands before the phrase's: its "ein" is a number ("das eine Mal",
    "am einen Ende")."""
    if not (before := AN_ARTICLE_BEFORE.search(_before(phrase))):
        return False
    return any(_agrees(reading, gender, "") for reading in _readings(_as_article(before[1].lower())))


def _declined(article: str) -> str:
    """"der" for the definite article, else the stem of a word declined as it ("dies") or as "ein" ("" for no
    article)."""
    if article in DEFINITE.values():
        return "der"
    return next((stem for stems, endings in ((DECLINED_AS_DER, DER_ENDINGS), (INDEFINITE_STEMS, INDEFINITE_ENDINGS))
                 for stem in stems if article.startswith(stem) and article[len(stem):] in endings.values()), "")


def _as_article(word: str) -> str:
    """The article a contraction holds ("am": "dem"), or the word itself."""
    return CONTRACTIONS[word][1] if word in CONTRACTIONS else word


@functools.cache
def _readings(article: str) -> tuple[tuple[str, str], ...]:
    """The (case, gender) an article can be: "den": the masculine accusative, the plural dative."""
    if (stem := _declined(article)) in DEFINITE_STEMS:
        return tuple(reading for reading in DEFINITE if _article(stem, *reading) == article)
    if not stem:
        return ()
    return tuple(reading for reading, ending in INDEFINITE_ENDINGS.items()
                 if stem + ending == article and not (stem == "ein" and reading[1] == "p"))


def _case(readings: tuple[tuple[str, str], ...], gender: str, context: str, capital: bool, stem: str) -> str | None:
    """The case of a phrase whose article has none of its noun's readings, or None where it stays open."""
    cases = list(dict.fromkeys(case for case, article_gender in readings if article_gender != "p"))
    if allowed := CONTEXT_CASES.get(context):  # the context's case, even where the article shows another
        cases = [case for case in cases if case in allowed] or ([allowed[0]] if len(allowed) == 1 else [])
    elif capital and "nom" in cases:
        cases = ["nom"]
    forms = {_article(stem, case, gender) for case in cases}
    if len(forms) == 1:
        return cases[0]
    return "acc" if set(cases) == {"nom", "acc"} else None  # an object after its verb, most often


def _article(stem: str, case: str, gender: str) -> str:
    """The article of a case and gender: `stem` "der" the definite one, else the form of a word declined as it
    ("dies") or as "ein"."""
    if stem in DEFINITE_STEMS:
        return DEFINITE[case, gender] if stem == "der" else stem + DER_ENDINGS[DEFINITE[case, gender]]
    return stem + INDEFINITE_ENDINGS[case, gender]


def _ending_after(stem: str, reading: tuple[str, str]) -> str:
    """An adjective's ending after an article of `stem` (`_declined`) in a reading (case, gender): weak after "der"
    and the words declined as it, mixed after "ein" and those declined as it."""
    return (WEAK_ENDINGS if stem in DEFINITE_STEMS else MIXED_ENDINGS).get(reading, OTHER_ENDING)


def _describing(words: str, ending: str) -> str | None:
    """The adjectives between article and noun with `ending` (`_ending_after`), qualifiers as written; None where a
    word is neither ("ein paar")."""
    written = []
    for space, word in re.findall(r"(\s+)(\S+)", words):
        if word in QUALIFIERS:
            written.append(space + word)
            continue
        if (old := _adjective_ending(word, last=True)) is None:
            return None
        written.append(space + word[:-len(old)] + ending)
    return "".join(written)


def _adjective_ending(word: str, last: bool = False) -> str | None:
    """The ending of a word declined as an adjective ("nächsten": "en") after its stem, a word German writes (or
    one with an "e" where the word is `last` before its noun: "leise"; not "heute" before an adjective) that ends in
    no "e" (not "neueer"); None for a qualifier, a word of NOT_ADJECTIVES and any other word."""
    words = lexicon.load()
    if word in QUALIFIERS or word in NOT_ADJECTIVES or word.startswith(NOT_ADJECTIVE_STEMS):
        return None
    return next((ending for ending in ADJECTIVE_ENDINGS if word.endswith(ending) and len(word) > len(ending) + 1
                 and not (stem := word[:-len(ending)]).endswith("e")
                 and (words.is_german(stem) or last and words.is_german(stem + "e"))), None)
