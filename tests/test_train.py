import json

from model.checkpoint import load_checkpoint
from model.data import build_corpus
from model.evaluate import DictionaryBaseline, evaluate
from model.data import Pair
from model.train import TrainOptions, inverse_sqrt, train
from model.transformer import TransformerConfig

TINY = TransformerConfig(vocab_size=80, d_model=32, n_heads=2, d_ff=64, encoder_layers=2, decoder_layers=1)


def test_inverse_sqrt_schedule():
    assert inverse_sqrt(50, 100) == 0.5
    assert inverse_sqrt(100, 100) == 1.0
    assert inverse_sqrt(400, 100) == 0.5


def test_train_writes_checkpoint_and_resumes(dictd_dir, tmp_path):
    data = tmp_path / "data"
    build_corpus(data, dictd_dir)
    out = tmp_path / "run"
    opts = TrainOptions(data_dir=data, out_dir=out, max_tokens=400, validate_every=3, max_steps=6, chrf_sample=20, patience=100)
    state = train(TINY, opts)
    assert state["step"] == 6
    for name in ("model.safetensors", "config.json", "spm.model", "train_log.jsonl", "last.pt"):
        assert (out / name).exists(), name
    log = [json.loads(line) for line in (out / "train_log.jsonl").read_text().splitlines()]
    assert [entry["step"] for entry in log] == [3, 6]
    assert all(entry["valid_loss"] > 0 and "valid_chrf" in entry for entry in log)
    state = train(TINY, TrainOptions(**{**opts.__dict__, "max_steps": 9}))
    assert state["step"] == 9  # continued from the saved step, not from 0
    model, tokenizer = load_checkpoint(out)
    assert model.cfg.d_model == 32 and tokenizer.decode(tokenizer.encode("Bahnhof")) == "Bahnhof"
    report = evaluate(out, data)
    assert set(report["model"]) >= {"bleu", "chrf"} and report["test_pairs"] > 0


def test_dictionary_baseline_translates_word_by_word():
    baseline = DictionaryBaseline([Pair("house", "Haus", "entry"), Pair("house", "Haus", "entry"), Pair("house", "Heim", "entry"),
                                   Pair("green", "grün", "entry"), Pair("green house", "Gewächshaus", "entry")])
    assert baseline.translate("The green house.") == "The grün Haus."
