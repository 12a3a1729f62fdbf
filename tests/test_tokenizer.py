import itertools
import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from model.tokenizer import train_sentencepiece
from translator.tokenizer import BOS_ID, EOS_ID, PAD_ID, UNK_ID, IncrementalDetokenizer, Tokenizer

TEXTS = [
    "Where is the station?", "Wo ist der Bahnhof?", "Grüße aus München!", "Die Straße ist schön.",
    "Äpfel, Öl und Übermut – „so“ heißt das.", "He said: \"don't\" — and left.", "Fußgängerüberweg 123",
]


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory):
    directory = tmp_path_factory.mktemp("spm")
    train_sentencepiece(TEXTS * 50, directory, vocab_size=60)
    return Tokenizer.from_dir(directory)


def test_special_ids_are_reserved(tokenizer):
    assert (tokenizer.source.pad_id(), tokenizer.source.unk_id(), tokenizer.source.bos_id(), tokenizer.source.eos_id()) == (
        PAD_ID, UNK_ID, BOS_ID, EOS_ID)


@pytest.mark.parametrize("text", TEXTS)
def test_round_trip_including_non_ascii(tokenizer, text):
    ids = tokenizer.encode(text)
    assert ids[-1] == EOS_ID
    assert tokenizer.decode(ids) == text


def test_batch_encode_decode(tokenizer):
    batch = tokenizer.encode_batch(TEXTS)
    assert [len(ids) for ids in batch] == [len(tokenizer.encode(t)) for t in TEXTS]
    assert tokenizer.decode_batch(batch) == TEXTS


def test_decode_skips_special_ids(tokenizer):
    ids = tokenizer.encode("Straße")
    assert tokenizer.decode([BOS_ID, *ids, PAD_ID, PAD_ID]) == "Straße"


def test_decode_drops_unknown_ids_instead_of_writing_a_glyph(tokenizer):
    ids = tokenizer.encode("Straße")
    assert tokenizer.decode([UNK_ID, *ids[:-1], UNK_ID]) == "Straße"


def test_unknown_spans_are_the_runs_of_characters_the_vocabulary_lacks(tokenizer):
    text = "Wo 😀😀 ist 你好 der Bahnhof?\tcafe\u0301 ☃\u0301!"  # "é" is not in this vocabulary, "e" is
    spans = tokenizer.unknown_spans(text)
    assert [text[start:end] for start, end in spans] == ["😀😀", "你好", "e\u0301", "☃\u0301"]
    assert all(tokenizer.special.unk in tokenizer.encode(text[start:end]) for start, end in spans)
    assert tokenizer.unknown_spans("Wo ist der Bahnhof?") == [] and tokenizer.unknown_spans("") == []


def test_control_characters_and_stacks_of_combining_marks_are_unknown(tokenizer):
    """Normalization deletes control characters without an <unk>, and a vocabulary may hold a combining mark as a
    piece of its own: both are still characters the model cannot read, found even in a text without <unk>."""
    zalgo = "o" + "\u0301\u0300\u0302\u0303\u0304" * 20
    text = "Wo\x01\x02 ist der\x7f Bahnhof" + zalgo + "? \x1b"
    assert tokenizer.special.unk not in tokenizer.encode("Wo\x01 ist der\x7f Bahnhof?")
    spans = tokenizer.unknown_spans(text)
    assert [text[start:end] for start, end in spans] == ["\x01\x02", "\x7f", zalgo, "\x1b"]
    assert tokenizer.unknown_spans("Wo ist\tder\r\nBahnhof?\u2028\x0c") == []  # whitespace, line breaks included


def test_characters_the_normalization_deletes_are_unknown(tokenizer):
    """SentencePiece's NFKC rules delete a byte order mark, zero-width spaces and joiners, direction marks and U+FFFD
    without an <unk>: the translation lost them. Judged unknown, they pass through like emoji."""
    text = "\ufeffWo ist\u200b der\u200e Bahnhof\ufffd? \u200c"
    assert tokenizer.special.unk not in tokenizer.encode(text)
    assert [text[start:end] for start, end in tokenizer.unknown_spans(text)] == \
        ["\ufeff", "\u200b", "\u200e", "\ufffd", "\u200c"]


def test_forms_the_normalization_changes_in_meaning_are_unknown(tokenizer, tmp_path):
    """NFKC writes "m²" as "m2", "H₂O" as "H2O", "①" as "1": read that way, translations lost them. A ligature and
    "…" mean what they normalize to, and a model whose normalization keeps the forms reads them."""
    import sentencepiece as spm

    text = "Die Straße ist 12 m² groß, ① H₂."
    assert tokenizer.special.unk not in tokenizer.encode(text)  # "2" and "1" are pieces: nothing looked unknown
    assert [text[start:end] for start, end in tokenizer.unknown_spans(text)] == ["²", "①", "₂"]
    assert tokenizer.unknown_spans("Die ﬁ Straße… ist 12.") == []
    spm.SentencePieceTrainer.train(sentence_iterator=iter((TEXTS + [text]) * 50), model_prefix=str(tmp_path / "spm"),
                                   vocab_size=64, normalization_rule_name="identity", pad_id=PAD_ID, unk_id=UNK_ID,
                                   bos_id=BOS_ID, eos_id=EOS_ID, minloglevel=2)
    assert Tokenizer.from_dir(tmp_path).unknown_spans(text) == []


def test_a_character_the_normalization_writes_as_another_is_unknown(tmp_path):
    """NFKC writes the micro sign as Greek mu: read, "30 µs" came back as "30 μs", another character that looks the
    same. Unknown, it passes through as written; the Greek letter itself is read, and so are ASCII's compatibility
    forms (full-width letters)."""
    import sentencepiece as spm

    spm.SentencePieceTrainer.train(sentence_iterator=iter((TEXTS + ["Es dauert 30 μs, Ω, A."]) * 50),
                                   model_prefix=str(tmp_path / "spm"), vocab_size=70, pad_id=PAD_ID, unk_id=UNK_ID,
                                   bos_id=BOS_ID, eos_id=EOS_ID, minloglevel=2)
    tokenizer = Tokenizer.from_dir(tmp_path)
    text = "Es dauert 30 µs, 30 μs, 12 \u2126 und \uff21."
    assert tokenizer.special.unk not in tokenizer.encode(text)
    assert [text[start:end] for start, end in tokenizer.unknown_spans(text)] == ["µ", "\u2126"]


@pytest.fixture(scope="module")
def byte_tokenizer(tmp_path_factory):
    """A model with byte fallback: characters it has not seen become UTF-8 byte pieces, split across tokens."""
    import sentencepiece as spm

    directory = tmp_path_factory.mktemp("spm-bytes")
    spm.SentencePieceTrainer.train(sentence_iterator=iter(TEXTS * 50), model_prefix=str(directory / "spm"), vocab_size=320,
                                   byte_fallback=True, pad_id=PAD_ID, unk_id=UNK_ID, bos_id=BOS_ID, eos_id=EOS_ID,
                                   hard_vocab_limit=False, minloglevel=2)
    return Tokenizer.from_dir(directory)


def stream(tokenizer, ids):
    detokenizer = IncrementalDetokenizer(tokenizer)
    final = tokenizer.decode(ids)
    pieces, windows = [], []
    for token in ids:
        pieces.append(detokenizer.push(token))
        assert final.startswith("".join(pieces))  # what was sent is never taken back
        windows.append(len(detokenizer.ids) - detokenizer.prefix)
    pieces.append(detokenizer.finish(final))
    return pieces, final, windows


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(4, 319), max_size=40))
@example([4, 260, 260, 4])  # a window starting with two whitespace-only pieces once lost a space
def test_streamed_pieces_of_any_token_sequence_join_to_the_final_text(byte_tokenizer, ids):
    ids = [i for i in ids if i < byte_tokenizer.target.get_piece_size()]
    pieces, final, _ = stream(byte_tokenizer, ids)
    assert "".join(pieces) == final


def test_a_space_piece_before_a_word_or_at_the_end_adds_no_space(byte_tokenizer):
    """The model wrote a space piece before a word that has its own ("Variable "%s"  Schatten") or last ("für Intern "):
    decoded, that is no second space and no trailing one, streamed or whole; before a word's inner piece it is the
    space between them."""
    tokenizer = byte_tokenizer
    space, words = tokenizer.target.piece_to_id("\u2581"), tokenizer.target.encode("Hello world")
    assert tokenizer.target.id_to_piece(space) == "\u2581" and len(words) > 2
    pieces = tokenizer.pieces_of(words)
    inner = next(i for i in range(1, len(words)) if not pieces[i].startswith("\u2581") and pieces[i - 1] != "\u2581")
    cases = {(space, *words, space, EOS_ID): "Hello world", (*words[:1], space, *words[1:], space, space): "Hello world",
             (*words[:inner], space, *words[inner:]): tokenizer.target.decode(words[:inner]) + " "
             + tokenizer.target.decode(words[inner:])}
    for ids, text in cases.items():
        pieces, final, _ = stream(tokenizer, list(ids))
        assert final == "".join(pieces) == text, ids


@pytest.mark.parametrize("text", ["Grüße aus 東京 und 🚀 nach Zürich!", "日本語のテキスト", "Öl — „so“ 🙂🙂 ok"])
def test_multibyte_characters_split_across_tokens_stream_as_whole_characters(byte_tokenizer, text):
    ids = byte_tokenizer.encode(text)[:-1]
    assert any(byte_tokenizer.target.is_byte(i) for i in ids)  # the test really splits characters into bytes
    pieces, final, windows = stream(byte_tokenizer, ids)
    assert "".join(pieces) == final == text
    assert not any("\ufffd" in piece for piece in pieces)
    # two characters of 4 bytes and a space piece held until the word after it: O(1) work per token, however long
    # the text
    assert max(windows) <= 9


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(4, 319), max_size=40), st.lists(st.integers(1, 6), min_size=1, max_size=40), st.booleans())
def test_tokens_pushed_in_batches_stream_the_same_text(byte_tokenizer, ids, sizes, hold_whitespace):
    """A stream pushes a message's worth of tokens at once: the pieces still join to the final text, also when the
    text's trailing whitespace waits for what follows it (`settled`, as a translation's stream holds it back)."""
    ids = [i for i in ids if i < byte_tokenizer.target.get_piece_size()]
    settled = (lambda text, sent: len(text.rstrip())) if hold_whitespace else (lambda text, sent: len(text))
    detokenizer, final = IncrementalDetokenizer(byte_tokenizer, settled), byte_tokenizer.decode(ids)
    pieces, start = [], 0
    for size in itertools.cycle(sizes):
        if start >= len(ids):
            break
        pieces.append(detokenizer.push(*ids[start:start + size]))
        start += size
        assert final.startswith("".join(pieces))  # what was sent is never taken back
    assert "".join(pieces) + detokenizer.finish(final) == final


@pytest.mark.parametrize("text", TEXTS + ["  Zwei  Leerzeichen  ", "ﬁle Größe"])
def test_source_spans_are_each_tokens_text_without_its_leading_space(tokenizer, text):
    spans = tokenizer.source_spans(text)
    assert len(spans) == len(tokenizer.encode(text)) - 1  # end-of-sentence has none
    assert all(a <= b <= c for (_, a), (b, c) in zip(spans, spans[1:]))  # in order, apart
    for (start, end), piece in zip(spans, tokenizer.source.encode(text, out_type=str)):
        assert text[start:end] == text[start:end].strip()
        if unicodedata.normalize("NFKC", text) == text:  # else a piece may stand for part of one character ("ﬁ")
            assert text[start:end] == piece.lstrip("▁")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 319), max_size=40))
def test_target_spans_tile_the_decoded_text(byte_tokenizer, ids):
    """Each id's span covers the text it added (its leading space left out); together they and the spaces between
    them are the decoded text, in order."""
    ids = [i for i in ids if i < byte_tokenizer.target.get_piece_size()]
    text, spans = byte_tokenizer.decode_with_spans(ids)
    assert text == byte_tokenizer.decode(ids) and len(spans) == len(ids)
    done = 0
    for start, end in spans:
        assert done <= start <= end and not text[done:start].strip()  # only whitespace between spans
        done = max(done, end)
    assert done == len(text)
