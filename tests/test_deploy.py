"""docker-compose.yml, the Dockerfiles and deploy/ agree with each other (no Docker engine here)."""

import re
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


def mounts(service: str) -> dict[str, Path]:
    """container path → host path of a service's bind mounts."""
    result = {}
    for volume in SERVICES[service].get("volumes", []):
        source, target = volume.split(":")[:2]
        result[target] = ROOT / source
    return result


def env_port(service: str, name: str) -> str:
    return SERVICES[service]["environment"][name]


def test_every_mounted_file_and_build_input_exists():
    for name, service in SERVICES.items():
        for target, source in mounts(name).items():
            assert source.exists(), f"{name} mounts missing {source}"
        if "build" in service:
            assert (ROOT / service["build"]["context"] / service["build"]["dockerfile"]).exists()


@pytest.mark.parametrize("dockerfile", ["Dockerfile", "Dockerfile.gpu"])
def test_dockerfile_copies_existing_paths_and_serves_without_torch(dockerfile):
    text = (ROOT / dockerfile).read_text()
    for line in re.findall(r"^COPY (?!--from)(.+)$", text, re.M):
        for source in line.split()[:-1]:
            assert (ROOT / source).exists(), f"{dockerfile} copies missing {source}"
    runtime = text.split("AS runtime")[1]
    assert "torch" not in runtime.replace("find_spec('torch')", "")
    assert re.search(r"USER translator", runtime) and 'HEALTHCHECK' in runtime and '"translator", "health"' in runtime
    exposed = set(re.findall(r"^EXPOSE (.+)$", runtime, re.M)[0].split())
    assert exposed == {re.search(r"TRANSLATOR_PORT=(\d+)", runtime)[1], re.search(r"TRANSLATOR_METRICS_PORT=(\d+)", runtime)[1]}
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    extra = re.search(r'pip install --no-cache-dir "\.\[(\w+)\]"', runtime)[1]
    assert not any(dep.startswith("torch") for dep in extras[extra])


def test_the_gpu_extra_brings_the_cuda_libraries_its_onnxruntime_was_built_for():
    """A CUDA base image pins its own CUDA major version; the wheel's [cuda,cudnn] extras follow the wheel's. Without
    a CUDA image's settings, the image must ask the NVIDIA toolkit for the driver's compute libraries itself."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(dep.startswith("onnxruntime-gpu[cuda,cudnn]") for dep in extras["gpu"])
    runtime = (ROOT / "Dockerfile.gpu").read_text().split("AS runtime")[1]
    assert "FROM nvidia/cuda" not in (ROOT / "Dockerfile.gpu").read_text()
    assert re.search(r"NVIDIA_DRIVER_CAPABILITIES=\S*compute", runtime)


def test_nginx_upstream_points_at_the_translator_service_port():
    nginx = mounts("nginx")
    assert "/etc/nginx/nginx.conf" in nginx and "/etc/nginx/upstream.conf" in nginx
    assert "include upstream.conf;" in nginx["/etc/nginx/nginx.conf"].read_text()
    listen = re.search(r"listen (\d+) http2;", nginx["/etc/nginx/nginx.conf"].read_text())[1]
    assert SERVICES["nginx"]["ports"] == [f"{listen}:{listen}"]
    servers = re.findall(r"server (\S+):(\d+)", nginx["/etc/nginx/upstream.conf"].read_text())
    for host, port in servers:
        assert host in SERVICES and port == env_port(host, "TRANSLATOR_PORT") and port in SERVICES[host]["expose"]


def test_prometheus_discovers_the_replicas_metrics_port():
    mounted = mounts("prometheus")
    config_flag = next(a for a in SERVICES["prometheus"]["command"] if a.startswith("--config.file="))
    config_path = Path(config_flag.split("=", 1)[1])
    config = yaml.safe_load((mounted[str(config_path.parent)] / config_path.name).read_text())
    for rule_file in config["rule_files"]:
        assert (mounted[str(config_path.parent)] / rule_file).exists()
    job = next(j for j in config["scrape_configs"] if j["job_name"] == "translator")
    [sd] = job["dns_sd_configs"]
    for name in sd["names"]:
        assert name in SERVICES
        assert str(sd["port"]) == env_port(name, "TRANSLATOR_METRICS_PORT") and str(sd["port"]) in SERVICES[name]["expose"]


def test_gpu_replica_joins_the_same_upstream():
    gpu = SERVICES["translator-gpu"]
    assert gpu["profiles"] == ["gpu"] and "translator" in gpu["networks"]["default"]["aliases"]
    assert env_port("translator-gpu", "TRANSLATOR_PORT") == env_port("translator", "TRANSLATOR_PORT")


def test_grafana_provisioning_matches_its_mounts():
    mounted = mounts("grafana")
    provisioning = mounted["/etc/grafana/provisioning"]
    [datasource] = yaml.safe_load((provisioning / "datasources" / "prometheus.yml").read_text())["datasources"]
    host, port = re.match(r"http://([\w-]+):(\d+)", datasource["url"]).groups()
    assert host in SERVICES and f"{port}:{port}" in SERVICES[host]["ports"]
    [provider] = yaml.safe_load((provisioning / "dashboards" / "translator.yml").read_text())["providers"]
    dashboards = mounted[provider["options"]["path"]]
    assert (dashboards / "translator.json").exists()
    panels = yaml.safe_load((dashboards / "translator.json").read_text())["panels"]
    assert all(t["datasource"]["uid"] == datasource["uid"] for p in panels for t in p["targets"])
