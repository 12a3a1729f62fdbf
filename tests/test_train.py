import json
import random

import pytest
import torch

from model.card import write_model_card
from model.checkpoint import load_checkpoint, pad_batch
from model.data import build_corpus
from model.evaluate import DictionaryBaseline, evaluate
from model.data import Pair
from model.train import TrainOptions, inverse_sqrt, make_batches, train, translate, write_average
from model.transformer import Transformer, TransformerConfig
from service.decoding import MAX_REPEAT_PERIOD

TINY = TransformerConfig(vocab_size=80, d_model=32, n_heads=2, d_ff=64, encoder_layers=2, decoder_layers=1)


def test_inverse_sqrt_schedule():
    assert inverse_sqrt(50, 100) == 0.5
    assert inverse_sqrt(100, 100) == 1.0
    assert inverse_sqrt(400, 100) == 0.5


@pytest.mark.parametrize("max_tokens", [1, 40, 400])
def test_batches_hold_every_pair_once_under_the_token_budget_grouped_by_length(max_tokens):
    rng = random.Random(max_tokens)
    pairs = [([5] * rng.randint(1, 30), [6] * rng.randint(1, 30)) for _ in range(500)]
    batches = make_batches(pairs, max_tokens, random.Random(1))
    assert sorted(i for batch in batches for i in batch) == list(range(len(pairs)))
    for batch in batches:
        widths = [len(pairs[i][0]) + len(pairs[i][1]) for i in batch]
        assert len(batch) == 1 or max(widths) * len(batch) <= max_tokens  # a pair wider than the budget goes alone
        if max_tokens == 400:  # several pairs per batch: sorted by source length before cutting
            sources = sorted(len(pairs[i][0]) for i in batch)
            assert sources[-1] - sources[0] <= 2
    assert make_batches(pairs, max_tokens, random.Random(1)) == batches  # the seed decides the order
    assert make_batches([], max_tokens, random.Random(1)) == []


def test_pad_batch_pads_right_and_masks_the_real_tokens():
    ids, mask = pad_batch([[7, 8, 9], [4], []], pad_id=0)
    assert ids.tolist() == [[7, 8, 9], [4, 0, 0], [0, 0, 0]]
    assert mask.tolist() == [[True, True, True], [True, False, False], [False, False, False]]
    assert ids.dtype == torch.long and mask.dtype == torch.bool
    assert pad_batch([], pad_id=0)[0].shape == (0, 0)


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
    assert {entry["hardware"] for entry in log} == {"2 CPU threads (fp32)"}  # what trained, for the model card
    state = train(TINY, TrainOptions(**{**opts.__dict__, "max_steps": 9}))
    assert state["step"] == 9  # continued from the saved step, not from 0
    model, tokenizer = load_checkpoint(out)
    assert model.cfg.d_model == 32 and tokenizer.decode(tokenizer.encode("Bahnhof")) == "Bahnhof"
    report = evaluate(out, [data])
    result = report["sources"]["Ding dictionary examples"]
    assert set(result["model"]) >= {"bleu", "chrf"} and result["test_pairs"] > 0
    # Decoded as served (evaluate's and `translate --checkpoint`'s default), an untrained model's loops are cut
    # short (the export's parity check holds the rule against the served engine)
    torch.manual_seed(0)
    untrained = Transformer(model.cfg).eval()
    sources = [example["source"] for example in result["examples"]]
    for beam_size in (1, 2):
        served = translate(untrained, tokenizer, sources, beam_size=beam_size, repeat_period=MAX_REPEAT_PERIOD)
        assert served != translate(untrained, tokenizer, sources, beam_size=beam_size)
    assert evaluate(out, [data], beam_size=1, repeat_period=MAX_REPEAT_PERIOD)["repeat_period"] == MAX_REPEAT_PERIOD


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_training_on_a_gpu_copies_batches_from_pinned_memory_and_logs_the_device(dictd_dir, tmp_path):
    data = tmp_path / "data"
    build_corpus(data, dictd_dir)
    opts = TrainOptions(data_dir=data, out_dir=tmp_path / "run", device="cuda", precision="bf16", max_tokens=400,
                        validate_every=2, max_steps=4, chrf_sample=20, patience=100)
    assert train(TINY, opts)["step"] == 4
    log = [json.loads(line) for line in (opts.out_dir / "train_log.jsonl").read_text().splitlines()]
    assert all(entry["hardware"] == f"{torch.cuda.get_device_name()} (bf16)" for entry in log)
    assert all(entry["valid_loss"] > 0 and entry["train_loss"] == entry["train_loss"] for entry in log)  # not NaN


def test_warm_start_extra_data_and_averaging(dictd_dir, tmp_path):
    """Start from a checkpoint (its weights and vocabulary), mix in another corpus, validate on both, and average
    the last snapshots at the end: the average is logged and kept only if it validates better."""
    import torch

    data, software = tmp_path / "data", tmp_path / "software"
    build_corpus(data, dictd_dir)
    software.mkdir()
    for split in ("train", "valid", "test"):
        (software / f"{split}.tsv").write_text("Open XX0X\tXX0X öffnen\tsoftware\nSave the file\tDatei speichern\tsoftware\n")
    base = tmp_path / "base"
    train(TINY, TrainOptions(data_dir=data, out_dir=base, max_tokens=400, validate_every=3, max_steps=3, chrf_sample=20))
    out = tmp_path / "tuned"
    opts = TrainOptions(data_dir=data, out_dir=out, extra_data=(software,), init_from=base, max_tokens=400,
                        validate_every=2, max_steps=6, chrf_sample=20, patience=100, average_last=3, precision="bf16")
    big = TransformerConfig(vocab_size=80, d_model=64, n_heads=2, d_ff=64, encoder_layers=2, decoder_layers=1)
    state = train(big, opts)  # the architecture of --init-from wins over the flags
    model, _ = load_checkpoint(out)
    assert model.cfg.d_model == 32 and (out / "spm.model").read_bytes() == (base / "spm.model").read_bytes()
    assert len(list((out / "snapshots").glob("step-*.safetensors"))) == 3 and state["step"] == 6
    log = [json.loads(line) for line in (out / "train_log.jsonl").read_text().splitlines()]
    assert log[-1]["averaged"] == ["step-2", "step-4", "step-6"]
    averaged = {name: sum(load_snapshot(out, step)[name].double() for step in (2, 4, 6)) / 3
                for name in load_snapshot(out, 2)}
    if log[-1]["best"]:  # kept: the checkpoint is the average
        assert torch.allclose(model.state_dict()["embed.weight"].double(), averaged["embed.weight"], atol=1e-6)
    chosen, _ = load_checkpoint(write_average(out, [2, 4, 6], tmp_path / "chosen"))  # `translator average`
    assert torch.allclose(chosen.state_dict()["embed.weight"].double(), averaged["embed.weight"], atol=1e-6)
    with pytest.raises(FileNotFoundError, match="step-3"):
        write_average(out, [3], tmp_path / "missing")
    report = evaluate(out, [data, software])
    assert set(report["sources"]) == {"Ding dictionary examples", "software"}
    corpora = {"Ding dictionary examples": json.loads((data / "stats.json").read_text()),
               "software": {"source": "catalogs of 2 packages", "licenses": {"GPL-2+ / LGPL-2.1+": 1, "GPL-2+": 1},
                            "splits": {s: {"software": 2, "total": 2, "packages": 1} for s in ("train", "valid", "test")}}}
    card = write_model_card(out, report, corpora, report["parameters"], "translator train ...").read_text()
    assert "| software | test | 2 (1 packages) | software 2 |" in card and "GPL-2+ 2, LGPL-2.1+ 1" in card
    assert "minutes on 2 CPU threads (bf16)," in card  # the log records what trained
    assert "## Serving" not in card  # no serving.json
    (out / "serving.json").write_text('{"segment_tokens": 24}')
    card = write_model_card(out, report, corpora, report["parameters"], "translator train ...").read_text()
    assert "a sentence longer than 24 source tokens is cut between words" in card
    assert f"| software | 2 | {report['sources']['software']['model']['bleu']} |" in card


def load_snapshot(out, step):
    from safetensors.torch import load_file

    return load_file(out / "snapshots" / f"step-{step}.safetensors")


def test_dictionary_baseline_translates_word_by_word():
    baseline = DictionaryBaseline([Pair("house", "Haus", "entry"), Pair("house", "Haus", "entry"), Pair("house", "Heim", "entry"),
                                   Pair("green", "grün", "entry"), Pair("green house", "Gewächshaus", "entry")])
    assert baseline.translate("The green house.") == "The grün Haus."


def test_training_summary_takes_a_selection_over_the_best_sampled_chrf(tmp_path):
    from model.card import training_summary

    entries = [{"step": 750, "epoch": 0, "tokens": 10, "seconds": 5.0, "valid_loss": 1.7, "valid_chrf": 41.0},
               {"step": 1500, "epoch": 0, "tokens": 20, "seconds": 10.0, "valid_loss": 1.6, "valid_chrf": 40.0},
               {"step": 1501, "epoch": 0, "tokens": 20, "seconds": 10.0, "valid_loss": 1.58, "valid_chrf": 40.5,
                "averaged": ["step-750", "step-1500"]}]
    (tmp_path / "train_log.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    assert training_summary(tmp_path)["best_step"] == 750 and training_summary(tmp_path)["selected_by"] is None
    entries[-1]["selected_by"] = "chosen by chrF on the full validation sets"
    (tmp_path / "train_log.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    summary = training_summary(tmp_path)
    assert summary["best_step"] == 1501 and summary["averaged"] == ["step-750", "step-1500"]
    assert summary["curve"] == [(750, 41.0), (1500, 40.0)]
