"""The benchmarks' bookkeeping: engines timed in interleaved rounds, best threads per batch, ratios as
printed, and the profiler's per-op-type split of a real decoder step."""

import sys

import pytest

from bench.compare import interleaved, report
from bench.profile import profile_steps


def fake_runner(seconds_by_round: list[float], calls: list):
    """A run(batch) whose successive calls take the given seconds and generate 100 tokens per row."""
    rounds = iter(seconds_by_round * 8)

    def run(batch):
        calls.append(batch)
        seconds = next(rounds)
        return {"seconds": seconds, "tokens_per_second": 100 * batch / seconds}
    return run


def test_interleaved_keeps_each_settings_fastest_timed_run_and_each_engines_best_threads():
    calls = []
    runners = [("ours", 1, fake_runner([0.1, 2.0, 1.0], calls)),  # the 0.1 s warm-up round must not count
               ("ours", 2, fake_runner([9.0, 1.5, 1.6], calls)),
               ("theirs", 1, fake_runner([1.0, 4.0, 4.0], calls))]
    results = interleaved(runners, batch_sizes=[4], repeats=2)
    assert calls == [4] * 9  # one warm-up round + two timed rounds, every setting once per round
    assert results["ours"][4] == {"threads": 1, "seconds": 1.0, "tokens_per_second": 400.0}
    assert results["theirs"][4]["seconds"] == 4.0
    with pytest.raises(ValueError, match="timed round"):
        interleaved(runners, batch_sizes=[4], repeats=0)


def test_report_prints_ratios_of_best_configurations_per_precision_and_overall():
    def point(tps, threads=1):
        return {"tokens_per_second": tps, "threads": threads, "outside_ms_per_step": 0.25}
    engines = {"ours onnx fp32": {1: point(100), 8: point(800, 2)}, "ours onnx int8": {1: point(300), 8: point(900)},
               "ctranslate2 fp32": {1: point(200), 8: point(400)}, "ctranslate2 int8": {1: point(150), 8: point(1800)}}
    text = report({"tokens": 64, "thread_counts": [1, 2], "machine": {"cores": 2},
                   "models": {"m": {"engines": engines, "ct2_agreement": 1.0}}})
    rows = {line.split("  ")[0]: line.split() for line in text.splitlines()}
    assert rows["ours / CT2 fp32"][-2:] == ["0.50x", "2.00x"]
    assert rows["ours / CT2 int8"][-2:] == ["2.00x", "0.50x"]
    assert rows["ours / CT2 overall"][-2:] == ["1.50x", "0.50x"]  # best of either precision on each side
    assert "800 (2)" in text and "token-identical with CTranslate2 fp32: 100%" in text


def test_profile_splits_a_real_decoder_step_by_op_type(exported_tiny):
    profile = profile_steps(exported_tiny, "fp32", batch=2, tokens=8, repeats=1)
    assert profile["step_ms"] > profile["outside_ms"] > 0
    assert "Softmax" in profile["ops_ms"]  # every decoder layer's attention has one
    assert all(ms > 0 for ms in profile["ops_ms"].values())


def measured_point(tps: float, srv: float = 0.5, raw=None, ct2_raw=None, batch=None, workers=None,
                   output_tokens: float = 12.5) -> dict:
    """One server's point as `translator bench load` records it (bench.load.load_point, plus the raw engines' CPU
    per token that run() adds to ours); None where a server has no such measurement."""
    return {"requests": 100, "requests_per_second": 10.0, "tokens_per_second": tps, "p50_ms": 1, "p95_ms": 2,
            "p99_ms": 3, "ttft_p50_ms": 1, "ttft_p99_ms": 2, "server_cpu_ms_per_token": srv, "mean_batch": batch,
            "client_cpu_share": 0.1, "raw_cpu_ms_per_token": raw, "ct2_raw_cpu_ms_per_token": ct2_raw,
            "mean_output_tokens": output_tokens, "workers_cpu_ms_per_token": workers}


def test_load_report_splits_the_gap_to_ctranslate2_into_engine_and_service():
    from bench.load import report as load_report

    servers = {"ours fp32": {"unary": {64: measured_point(3000, 0.6, raw=0.4, ct2_raw=0.25, batch=28.0, workers=0.44)}},
               "ct2 static fp32": {"unary": {64: measured_point(4000, 0.3)}},
               "ours fp32 one at a time": {"unary": {64: measured_point(600, 2.0, raw=1.5, batch=1.0)}}}
    text = load_report({"seconds": 20, "processes": 2, "machine": {"cores": 2}, "servers": servers})
    assert "one round: a ratio between servers can move" in text.splitlines()[0]  # a single round says how far to trust it
    server_row = next(line.split() for line in text.splitlines() if line.startswith("ours fp32  ") and line.endswith("%"))
    # srv/raw 1.50, of which the engine workers 1.10; mean batch and tokens per request: the mix each server got
    assert server_row[-5:] == ["1.50", "1.10", "28.0", "12.5", "10%"]
    ct2_row = next(line.split() for line in text.splitlines() if line.startswith("ct2 static fp32 "))
    assert ct2_row[-6:-3] == ["-", "-", "-"]  # no raw engine measured for it, and no worker processes
    ratio_row = next(line.split() for line in text.splitlines() if line.startswith("ours fp32  ") and line.endswith("x"))
    # tok/s 0.75x of CT2; CPU/token 2.00; our engine 1.60x CT2's CPU; CT2's server 1.20x its engine; 5.00x one at a time
    assert ratio_row[-5:] == ["0.75x", "2.00", "1.60", "1.20", "5.00x"]


def test_load_rounds_keep_the_median_round_and_compare_servers_round_by_round():
    """With --rounds, the machine's drift between rounds must cancel: ratios are medians of same-round ratios."""
    from bench.load import median_round, report as load_report

    def point(tps):
        return measured_point(tps, batch=20.0, output_tokens=12.0)
    ours = median_round([point(900), point(3000), point(2000)])  # a slow round, a fast one, a middling one
    assert ours["tokens_per_second"] == 2000 and ours["rounds_tokens_per_second"] == [900, 3000, 2000]
    theirs = median_round([point(1000), point(2500), point(2500)])
    assert median_round([point(5), point(3)])["tokens_per_second"] == 3  # an even count keeps the lower one
    text = load_report({"seconds": 20, "processes": 2, "rounds": 3, "machine": {"cores": 2},
                        "servers": {"ours fp32": {"unary": {64: ours}}, "ct2 static fp32": {"unary": {64: theirs}}}})
    assert "3 rounds" in text and "one round" not in text
    # same-round ratios 0.90, 1.20, 0.80: median 0.90x (the ratio of the medians would say 0.80x)
    assert "0.90x (0.90 1.20 0.80)" in text


def test_ctranslate2_raw_engine_cpu_per_token_is_measured_on_identical_weights(tmp_path, tiny_checkpoint, exported_tiny):
    pytest.importorskip("ctranslate2")
    from bench.compare import ct2_models_for
    from bench.load import ct2_raw_cpu_ms_per_token

    ct2_dir = ct2_models_for(tiny_checkpoint, tmp_path, "tiny")["int8"]
    assert 0 < ct2_raw_cpu_ms_per_token(ct2_dir, exported_tiny, "int8", batch=2, output_tokens=4, min_seconds=0.2) < 100


def test_the_raw_engine_takes_the_sentences_in_turn_like_the_load():
    """Any batch size sees every sentence equally often, as the load's clients send them (not the first few)."""
    from bench.load import rotating_batches

    for batch in (1, 3, 5):
        batches = rotating_batches(list("abcde"), batch)
        taken = [s for _ in range(5) for s in next(batches)]
        assert sorted(taken) == sorted(list("abcde") * batch)


def test_vocab_benchmark_trains_each_size_and_relates_decoder_work_to_the_first(corpus_dir):
    from bench import vocab

    results = vocab.run([corpus_dir], [60, 80], {("int8", 1): 1.0}, d_model=32, shipped_vocab=80, sentences=2_000)
    small, large = results["sizes"][60], results["sizes"][80]
    assert large["pieces"][corpus_dir.name][1] <= small["pieces"][corpus_dir.name][1]  # more pieces, shorter outputs
    assert all(entry["projection_ms"]["int8 b1"] > 0 for entry in (small, large))
    first_row = next(line for line in vocab.report(results).splitlines() if line.startswith("60 "))
    assert first_row.split()[-1] == "1.00x"


def test_every_report_says_which_cpu_it_ran_on():
    """Results from different machines are not comparable (CTranslate2's fp32 moved by ~30% between an AVX2 and an
    AVX-512 machine here): the header names the CPU, its L2/L3 and the vector extensions its GEMMs can use."""
    from bench.common import describe, machine
    from bench.load import report as load_report

    here = machine()
    assert here["cores"] >= 1 and all(level.startswith("L") for level in here["caches"])
    xeon = {"cores": 2, "cpu": "Intel(R) Xeon(R) Processor", "caches": {"L1d": "48K", "L2": "2048K", "L3": "266240K"},
            "vector": ["avx2", "avx512_vnni"]}
    assert describe(xeon) == "2 cores, Intel(R) Xeon(R) Processor (L2 2048K, L3 266240K; avx2 avx512_vnni)"
    assert describe({"cores": 2}) == "2 cores"  # results written before the CPU was recorded
    servers = {"ours fp32": {"unary": {1: measured_point(1000)}}}
    text = load_report({"seconds": 20, "processes": 2, "machine": xeon, "servers": servers})
    assert describe(xeon) in text.splitlines()[0]


def test_text_benchmark_times_every_hostile_text_at_both_lengths(exported_tiny, tmp_path):
    """`translator bench text` through its command: one row per hostile text, a time at each length and their
    growth; and a refusal of lengths that are not short then long."""
    import json

    from service.cli import main

    assert main(["bench", "text", "--model-dir", str(exported_tiny), "--lengths", "400", "1600", "--repeats", "1",
                 "--out", str(tmp_path)]) == 0
    results = json.loads((tmp_path / "text.json").read_text())
    assert results["lengths"] == [400, 1600] and len(results["rows"]) >= 10
    assert all(row["seconds"][0] > 0 and row["growth"] == row["seconds"][1] / row["seconds"][0] for row in results["rows"])
    assert main(["bench", "text", "--model-dir", str(exported_tiny), "--lengths", "1600", "400"]) == 2


def test_tree_benchmark_runs_one_file_and_the_directory_at_each_files_at_once(exported_tiny, tmp_path):
    """`translator bench tree` through its command: the same lines as one file and as a directory, each setting every
    round, none failed; more files than lines are refused."""
    import json

    from service.cli import main

    model = ["--repository", str(exported_tiny.parent.parent), "--model", exported_tiny.parent.name]
    assert main(["bench", "tree", "--lines", "12", "--files", "4", "--files-at-once", "1", "4", "--rounds", "2",
                 *model, "--out", str(tmp_path)]) == 0
    results = json.loads((tmp_path / "tree.json").read_text())
    assert [point["files_at_once"] for point in results["points"]] == [0, 1, 4]
    assert all(len(point["seconds"]) == 2 and point["failed"] == 0 for point in results["points"])
    assert main(["bench", "tree", "--lines", "3", "--files", "4", *model]) == 2


def test_a_benchmark_server_that_does_not_start_says_why():
    from bench.load import ServerProcess

    with pytest.raises(RuntimeError, match="boom: server did not start: error: max_num_seqs must be at least 1$"):
        ServerProcess("boom", [sys.executable, "-c", "import sys; print('error: max_num_seqs must be at least 1', "
                                                     "file=sys.stderr); sys.exit(2)"])


def test_segments_benchmark_translates_again_only_what_a_cut_can_change(exported_tiny, corpus_dir, tmp_path, capsys):
    """`translator bench segments` through its command: a row per split and length; each row's scores are those of
    translating the whole split with that segment length (only texts it segments otherwise are translated again); a
    missing, empty or malformed split is named."""
    import json
    from dataclasses import replace

    from bench import placeholders, segments
    from service.cli import main
    from service.translator import Translator

    split = corpus_dir / "valid.tsv"
    assert main(["bench", "segments", "--model-dir", str(exported_tiny), "--splits", str(split), "--lengths", "4", "8",
                 "--pairs", "60", "--out", str(tmp_path)]) == 0
    rows = json.loads((tmp_path / "segments.json").read_text())["rows"]
    assert [row["segment_tokens"] for row in rows] == [256, 8, 4] and rows[0]["changed"] == 0
    assert all(row["changed"] <= row["cut"] for row in rows) and rows[2]["cut"] >= rows[1]["cut"] > 0
    translator = Translator(exported_tiny)
    pairs = placeholders.pairs_of(split)[:60]
    at_4 = replace(translator.runtime.limits, segment_tokens=4)
    whole = segments._translated(translator, segments._segmented(translator, [en for en, _ in pairs], at_4))
    assert rows[2]["all"] == segments._chrf_bleu(whole, [de for _, de in pairs])
    assert "best chrF on" in capsys.readouterr().out
    (tmp_path / "empty.tsv").write_text("")
    (tmp_path / "one_column.tsv").write_text("hello\n")
    for name, message in (("none.tsv", "no such split"), ("empty.tsv", "holds no pairs"),
                          ("one_column.tsv", "is not a TSV split")):
        assert main(["bench", "segments", "--model-dir", str(exported_tiny), "--splits", str(tmp_path / name)]) == 1
        assert message in capsys.readouterr().err
