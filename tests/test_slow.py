"""Long checks, run with `make test-slow`: the real corpus and the int8 quality gate of the default model."""

from pathlib import Path

import pytest

from model.data import build_corpus, read_tsv

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent


def test_real_corpus_has_disjoint_held_out_sentence_pairs(tmp_path):
    stats = build_corpus(tmp_path)  # apt-get download dict-freedict-eng-deu and dict-freedict-deu-eng
    assert stats["splits"]["valid"]["example"] >= 2000 and stats["splits"]["test"]["example"] >= 2000
    assert stats["counts"]["kept example"] > 50_000 and stats["counts"]["kept entry"] > 400_000
    assert stats["counts"]["deu-eng: kept new English"] > 100  # the German side's examples add to train
    train_english = {p.en.lower() for p in read_tsv(tmp_path / "train.tsv")}
    for split in ("valid", "test"):
        assert not any(p.en.lower() in train_english for p in read_tsv(tmp_path / f"{split}.tsv"))


def test_int8_keeps_quality(tmp_path):
    from export.repository import export_model

    report = export_model(ROOT / "model" / "default", tmp_path / "en-de" / "1", ROOT / "data", int8=True)
    assert report["int8"]["chrf_drop"] <= 1.0
