import pytest

from model.tokenizer import BOS_ID, EOS_ID, PAD_ID, UNK_ID, Tokenizer, train_sentencepiece

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
