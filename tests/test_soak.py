"""A short soak in CI (`translator bench soak --minutes N` runs longer): mixed traffic against a real server
process, then SIGTERM under load."""

import os

from bench.load import serve_command
from bench.soak import format_report, passed, soak


def test_soak_mixed_traffic_then_sigterm_under_load(exported_tiny):
    minutes = float(os.environ.get("SOAK_MINUTES", "0.3"))  # ~3,000 calls here, every kind of call hundreds of times
    report = soak(serve_command(exported_tiny.parent.parent, exported_tiny.parent.name, max_queue_size=4096), minutes,
                  clients=8)
    print(format_report(report))
    assert passed(report), format_report(report)
    assert report["calls"] > 100 and report["sigterm"]["calls"] > 0
    kinds = {key.rsplit(" ", 1)[0] for key in report["outcomes"]}
    assert kinds == {"unary", "stream", "batch", "cancel", "deadline", "bad input", "garbage"}
