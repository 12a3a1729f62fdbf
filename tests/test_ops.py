"""Operations, proven with the real programs: promtool, a Prometheus server and nginx on loopback."""

import json
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import grpc
import pytest
import yaml

from service.client import TranslatorClient
from tests.grpc_server import RunningServer
from tests.test_server import TEXTS, config_for

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
METRIC_NAME = re.compile(r"\b(translator_[a-z_]+|process_[a-z_]+|up)\b")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is not installed: `make test` installs it (apt-get install prometheus nginx-light)"
    return path


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode()


def wait_for(predicate, timeout: float = 30.0, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s")


@pytest.fixture(scope="module")
def live(exported_tiny):
    """A running service that has answered some requests (ok and failed), and its scrape text."""
    server = RunningServer(config_for(exported_tiny))
    with TranslatorClient(server.target) as client:
        for text in TEXTS:
            client.translate([text])
        list(client.stream(TEXTS[:2]))
        with pytest.raises(grpc.RpcError):
            client.translate([""])
    server.scrape = lambda: get(f"http://127.0.0.1:{server.server.metrics_port}/metrics")
    yield server
    server.stop()


def dashboard_expressions() -> list[str]:
    dashboard = json.loads((DEPLOY / "grafana" / "dashboards" / "translator.json").read_text())
    return [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]


def rule_expressions() -> list[str]:
    rules = yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text())
    return [rule["expr"] for group in rules["groups"] for rule in group["rules"]]


def test_scrape_passes_promtool_check_metrics(live):
    result = subprocess.run([tool("promtool"), "check", "metrics"], input=live.scrape(), capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_scrape_has_every_documented_metric(live):
    text = live.scrape()
    for name in ("translator_requests_total", "translator_request_duration_seconds_bucket", "translator_queue_wait_seconds_bucket",
                 "translator_time_to_first_token_seconds_bucket", "translator_time_per_output_token_seconds_bucket",
                 "translator_decoder_batch_size_bucket", "translator_batched_tokens_bucket", "translator_input_tokens_total",
                 "translator_generated_tokens_total", "translator_queue_depth", "translator_queue_capacity",
                 "translator_active_sequences", "translator_kv_cache_bytes", "translator_model_info",
                 "translator_sequences_finished_total", "translator_stream_interval_seconds", "process_resident_memory_bytes",
                 "translator_engine_worker_restarts_total", "translator_text_preparations_stopped_total"):
        assert re.search(rf"^{name}[{{ ]", text, re.M), name
    assert re.search(r'^translator_requests_total\{code="OK",method="Translate",model="tiny"\} 7\.0', text, re.M)
    assert re.search(r'^translator_requests_total\{code="INVALID_ARGUMENT",method="Translate",model="tiny"\} 1\.0', text, re.M)
    assert re.search(r'^translator_model_info\{model="tiny",precision="fp32",provider="CPUExecutionProvider",version="1"\} 1\.0',
                     text, re.M)
    assert re.search(r"^translator_stream_interval_seconds 0\.05$", text, re.M)  # no stream open: --stream-interval-ms


def test_deploy_config_and_rules_pass_promtool():
    for args in (["check", "config", str(DEPLOY / "prometheus" / "prometheus.yml")],
                 ["check", "rules", str(DEPLOY / "prometheus" / "alerts.yml")]):
        result = subprocess.run([tool("promtool"), *args], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


def test_dashboard_and_alerts_use_only_scraped_metric_names(live):
    scraped = {line.split("{")[0].split(" ")[0] for line in live.scrape().splitlines() if line and not line.startswith("#")}
    scraped.add("up")  # Prometheus adds it per target
    for expression in dashboard_expressions() + rule_expressions():
        for name in METRIC_NAME.findall(expression):
            assert name in scraped, f"{name} in {expression!r} is not in a live scrape"


@pytest.fixture(scope="module")
def prometheus(live, tmp_path_factory):
    """The deploy config run by a real Prometheus, with the DNS discovery swapped for the live service."""
    workdir = tmp_path_factory.mktemp("prometheus")
    config = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    config["global"]["scrape_interval"] = config["global"]["evaluation_interval"] = "1s"
    job = next(j for j in config["scrape_configs"] if j["job_name"] == "translator")
    del job["dns_sd_configs"]
    job["static_configs"] = [{"targets": [f"127.0.0.1:{live.server.metrics_port}"]}]
    port = free_port()
    next(j for j in config["scrape_configs"] if j["job_name"] == "prometheus")["static_configs"] = [{"targets": [f"127.0.0.1:{port}"]}]
    shutil.copy(DEPLOY / "prometheus" / "alerts.yml", workdir / "alerts.yml")
    (workdir / "prometheus.yml").write_text(yaml.safe_dump(config))
    process = subprocess.Popen([tool("prometheus"), f"--config.file={workdir / 'prometheus.yml'}",
                                f"--storage.tsdb.path={workdir / 'data'}", f"--web.listen-address=127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=(workdir / "prometheus.log").open("w"))
    api = f"http://127.0.0.1:{port}/api/v1"
    try:
        wait_for(lambda: _ready(api))
        yield api
    finally:
        process.terminate()
        process.wait(10)


def _ready(api: str) -> bool:
    try:
        return json.loads(get(f"{api}/status/runtimeinfo"))["status"] == "success"
    except OSError:
        return False


def query(api: str, expression: str) -> dict:
    return json.loads(get(f"{api}/query?query={urllib.parse.quote(expression)}"))


def test_real_prometheus_scrapes_the_request_counts(live, prometheus):
    with TranslatorClient(live.target) as client:
        for _ in range(5):
            client.translate(TEXTS[:2], model="tiny")
    expression = 'sum(translator_requests_total{method="Translate",code="OK"})'
    result = wait_for(lambda: [r for r in query(prometheus, expression)["data"]["result"] if float(r["value"][1]) == 12.0])
    assert float(result[0]["value"][1]) == 12.0  # 7 single-text calls from the fixture + 5 here
    up = query(prometheus, 'up{job="translator"}')["data"]["result"]
    assert up and up[0]["value"][1] == "1"


def test_every_dashboard_and_alert_expression_evaluates(prometheus):
    for expression in dashboard_expressions() + rule_expressions():
        answer = query(prometheus, expression)
        assert answer["status"] == "success", (expression, answer)
    rules = json.loads(get(f"{prometheus}/rules"))["data"]["groups"][0]["rules"]
    assert {r["name"] for r in rules} == {"TranslatorHighErrorRatio", "TranslatorP99LatencyHigh", "TranslatorQueueSaturated",
                                          "TranslatorTargetDown", "TranslatorEngineWorkerRestarting",
                                          "TranslatorTextPreparationStopped"}
    assert all(r["health"] == "ok" for r in rules)


def test_a_replaced_engine_worker_fires_its_alert(live, prometheus):
    """A worker process killed (as the OOM killer would) is replaced, counted, and the real Prometheus fires
    TranslatorEngineWorkerRestarting from the deploy rules; the replica keeps serving."""
    worker = live.engine.workers[0]
    ended = worker._process
    worker.kill()
    wait_for(lambda: worker._process is not ended and worker._process.is_alive())

    def firing():
        alerts = json.loads(get(f"{prometheus}/alerts"))["data"]["alerts"]
        return [a for a in alerts if a["labels"]["alertname"] == "TranslatorEngineWorkerRestarting" and a["state"] == "firing"]
    alert = wait_for(firing)[0]
    assert (alert["labels"]["model"], alert["labels"]["reason"]) == ("tiny", "exited")
    with TranslatorClient(live.target) as client:
        assert client.translate(TEXTS[:1], model="tiny").translations[0].text


def start_replica(model_dir: Path, log: Path) -> tuple[subprocess.Popen, int, int]:
    port, metrics_port = free_port(), free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--repository", str(model_dir.parent.parent), "--model", "tiny",
         "--port", str(port), "--metrics-port", str(metrics_port), "--threads", "1"],
        stdout=subprocess.PIPE, stderr=log.open("w"), text=True, cwd=ROOT)
    assert "serving" in process.stdout.readline()
    return process, port, metrics_port


def ok_count(metrics_port: int) -> float:
    match = re.search(r'^translator_requests_total\{code="OK",method="Translate",model="tiny"\} (\S+)',
                      get(f"http://127.0.0.1:{metrics_port}/metrics"), re.M)
    return float(match.group(1)) if match else 0.0


@pytest.fixture()
def balanced(exported_tiny, tmp_path):
    """Two replicas behind nginx with the deploy/nginx configuration: (nginx's address, the replicas)."""
    replicas = [start_replica(exported_tiny, tmp_path / f"replica{i}.log") for i in range(2)]
    nginx = None
    try:
        front = free_port()
        for name in ("nginx.conf", "upstream.conf"):
            shutil.copy(DEPLOY / "nginx" / name, tmp_path / name)
        conf = (tmp_path / "nginx.conf").read_text().replace("listen 50051", f"listen 127.0.0.1:{front}")
        (tmp_path / "nginx.conf").write_text(conf.replace("pid /tmp/nginx.pid", f"pid {tmp_path / 'nginx.pid'}"))
        (tmp_path / "upstream.conf").write_text("".join(f"server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;\n"
                                                       for _, port, _ in replicas))
        command = [tool("nginx"), "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")]
        checked = subprocess.run(command + ["-t"], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        nginx = subprocess.Popen(command + ["-g", "daemon off;"], stderr=(tmp_path / "nginx.log").open("w"))
        yield f"127.0.0.1:{front}", replicas
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(10)
        for process, _, _ in replicas:
            process.kill()


def test_nginx_balances_replicas_and_survives_losing_one(balanced):
    front, replicas = balanced
    with TranslatorClient(front, timeout=10) as client:
        client.wait_until_ready(10)
        for text in TEXTS * 2:
            assert client.translate([text]).translations[0].text is not None
        counts = [ok_count(metrics) for _, _, metrics in replicas]
        assert all(count > 0 for count in counts) and sum(counts) == 2 * len(TEXTS), counts
        replicas[0][0].send_signal(signal.SIGKILL)
        replicas[0][0].wait(10)
        for text in TEXTS * 2:
            assert client.translate([text]).translations  # every call still succeeds
    assert ok_count(replicas[1][2]) >= counts[1] + 2 * len(TEXTS)


def test_a_batch_job_through_nginx_goes_on_when_a_replica_is_killed(balanced, tmp_path):
    """nginx resets the streams of a replica that dies (the client reads INTERNAL "Received RST_STREAM with error
    code 2"): before, the job stopped there (4 of 4 runs); now it reopens them, on the replica left."""
    front, replicas = balanced
    source, output = tmp_path / "in.txt", tmp_path / "out.jsonl"
    source.write_text("".join(f"{TEXTS[i % len(TEXTS)]} {i}\n" for i in range(3000)), encoding="utf-8")
    job = subprocess.Popen([sys.executable, "-m", "service.cli", "batch", "--server", front, "--input", str(source),
                            "--output", str(output), "--quiet", "--concurrency", "128", "--max-output-tokens", "16",
                            "--give-up-seconds", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           cwd=ROOT)
    try:
        wait_for(lambda: output.exists() and output.read_bytes().count(b"\n") >= 500)
        replicas[0][0].send_signal(signal.SIGKILL)
        out, err = job.communicate(timeout=300)
    finally:
        job.kill()
    assert job.returncode == 0 and "3000 items: 3000 translated, 0 failed" in out, err
    records = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert sorted(record["line"] for record in records) == list(range(1, 3001))
