"""The deploy files: every game's manifests come from one source, are what a fresh build makes,
and pass the Kubernetes schemas (strict: a misspelt field fails); compose accepts its file."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from shared.ops import manifests
from shared.game import registry

K8S_VERSION = "1.30.0"      # the oldest Kubernetes the manifests promise to work on


def k8s_files() -> list[Path]:
    return sorted(manifests.K8S.glob("*.yaml"))


def test_the_checked_in_files_are_a_fresh_build() -> None:
    for path, text in manifests.build().items():
        assert path.read_text() == text, f"{path.name} is stale: run `make manifests`"
    assert manifests.main(["check"]) == 0


def test_every_game_has_its_manifest_with_every_process() -> None:
    names = {p.stem for p in k8s_files()}
    for game in registry.available():
        assert game in names
        docs = list(yaml.safe_load_all((manifests.K8S / f"{game}.yaml").read_text()))
        kinds = {(d["kind"], d["metadata"]["name"]) for d in docs}
        assert kinds == {("Deployment", f"{game}-web"), ("Service", game),
                         ("HorizontalPodAutoscaler", f"{game}-web"), ("PodDisruptionBudget", f"{game}-web"),
                         ("Deployment", f"{game}-worker"), ("HorizontalPodAutoscaler", f"{game}-worker"),
                         ("PodDisruptionBudget", f"{game}-worker"), ("Deployment", f"{game}-thinker"),
                         ("HorizontalPodAutoscaler", f"{game}-thinker"), ("PodDisruptionBudget", f"{game}-thinker"),
                         ("Deployment", f"{game}-sweeper")}
        commands = {d["metadata"]["name"]: d["spec"]["template"]["spec"]["containers"][0]["command"]
                    for d in docs if d["kind"] == "Deployment"}
        # The search bots' turns have workers of their own (shared.play.bots.BotQueue).
        assert commands[f"{game}-thinker"] == ["python", "-m", "shared.play.worker", "--thinking", game]
        assert commands[f"{game}-worker"] == ["python", "-m", "shared.play.worker", game]
        for doc in docs:
            if doc["kind"] != "Deployment":
                continue
            pod = doc["spec"]["template"]["spec"]
            (container,) = pod["containers"]
            assert game in " ".join(container["command"])
            security = container["securityContext"]
            assert security["readOnlyRootFilesystem"] and security["runAsNonRoot"]
            assert not security["allowPrivilegeEscalation"]
            assert {m["mountPath"] for m in container["volumeMounts"]} == {"/tmp"}
            assert container["resources"]["requests"] and container["resources"]["limits"]
        web = next(d for d in docs if d["metadata"]["name"] == f"{game}-web")["spec"]["template"]["spec"]
        (container,) = web["containers"]
        assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
        assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
        assert web["terminationGracePeriodSeconds"] > manifests.DRAIN_SECONDS + manifests.GRACEFUL_SECONDS


@pytest.mark.parametrize("path", k8s_files(), ids=lambda p: p.name)
def test_the_manifests_pass_the_kubernetes_schemas(path: Path) -> None:
    for doc in yaml.safe_load_all(path.read_text()):
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_a_typo_fails_the_schema_check() -> None:
    doc: dict[str, Any] = manifests.k8s_documents("catan")[0]
    doc["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["periodSecond"] = 5
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_graceful_timeout_matches_the_manifests() -> None:
    config = (manifests.ROOT / "deploy" / "gunicorn.conf.py").read_text()
    assert f"graceful_timeout = {manifests.GRACEFUL_SECONDS}\n" in config


def compose_command() -> list[str]:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    assert legacy, "neither `docker compose` nor `docker-compose` is installed (make test installs the latter)"
    return [legacy]


@pytest.mark.slow
def test_compose_accepts_the_file_and_runs_every_game() -> None:
    out = subprocess.run([*compose_command(), "-f", str(manifests.COMPOSE), "config"],
                         capture_output=True, text=True, timeout=60, cwd=manifests.ROOT)
    assert out.returncode == 0, out.stderr
    services = yaml.safe_load(out.stdout)["services"]
    for game in registry.available():
        assert {f"{game}-web", f"{game}-worker", f"{game}-thinker", f"{game}-sweeper"} <= set(services)
        assert services[f"{game}-web"]["read_only"] is True
