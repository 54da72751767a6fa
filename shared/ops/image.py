"""``make image``: build the image from deploy/Dockerfile with no image registry, start it, and check it.

The base is Debian bookworm's own Python 3.11 and pip, laid out by ``mmdebstrap`` from Debian's
packages (a stand-in for ``python:3.11-slim``, which needs a registry) and imported into podman;
the Dockerfile is then built on it (``--build-arg BASE=...``), its pip reaching the package index
through the host's CA bundle.  The image's own command (its ``Cmd``, ``User``, ``WorkingDir`` and
``Env``) is then started, by ``podman run`` where the machine lets the container runtime set its
rlimits, otherwise from the image's mounted root filesystem under ``chroot`` as the image's user,
against a private Redis; it must answer ``/healthz`` from gunicorn, run as the non-root user, and
the image must hold no offline tool.  It prints one JSON line per figure on stdout (build time, the
answer, the size of the installed code), everything else on stderr, and exits 1 with the reason when a check fails.

    python -m shared.ops.image [--rebuild-base] [--tag boardgames:latest]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import requests

from shared.ops.manifests import IMAGE, USER_ID
from shared.ops.redis_server import free_port, start_server

ROOT = Path(__file__).resolve().parents[2]
BASE = "localhost/bookworm-python:3.11"
BASE_TAR = ROOT / ".run" / "image" / "bookworm-python.tar"
PODMAN = ["podman", "--cgroup-manager=cgroupfs"]
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
DEBIAN = ["deb http://deb.debian.org/debian bookworm main",
          "deb http://deb.debian.org/debian-security bookworm-security main"]
# The tools the image leaves out (.dockerignore), where the image's code lives.
LEFT_OUT = ["shared/ai", "shared/ops", "shared/client", "shared/game/testing.py",
            "services/catan/catanatron_bridge.py", "services/catan/selfplay.py"]
SITE = "usr/local/lib/python3.11/dist-packages"


def run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    print("+", " ".join(argv), file=sys.stderr, flush=True)
    return subprocess.run(argv, check=True, text=True, **kwargs)


def figure(name: str, value: object, **extra: object) -> None:
    print(json.dumps({"figure": name, "value": value, **extra}), flush=True)


def build_base(rebuild: bool) -> None:
    """Debian bookworm with python3, pip and ``python``, pip allowed to install system-wide (as in
    python:3.11-slim, whose pip installs into /usr/local)."""
    exists = subprocess.run([*PODMAN, "image", "exists", BASE]).returncode == 0
    if exists and not rebuild:
        return
    if rebuild or not BASE_TAR.exists():
        BASE_TAR.parent.mkdir(parents=True, exist_ok=True)
        run(["mmdebstrap", "--variant=minbase", "--include=python3,python3-pip,python-is-python3,ca-certificates",
             '--customize-hook=rm -f "$1"/usr/lib/python3*/EXTERNALLY-MANAGED', "bookworm", str(BASE_TAR), *DEBIAN])
    run([*PODMAN, "import", "--change", 'CMD ["python3"]', str(BASE_TAR), BASE], stdout=sys.stderr)


def build_image(tag: str) -> None:
    mounts = ["-v", f"{CA_BUNDLE}:{CA_BUNDLE}:ro"] if CA_BUNDLE.exists() else []
    run([*PODMAN, "build", "--isolation=chroot", "--network=host", *mounts, "--build-arg", f"BASE={BASE}",
         "-f", "deploy/Dockerfile", "-t", tag, "."], cwd=ROOT, stdout=sys.stderr)


def image_config(tag: str) -> dict[str, Any]:
    inspected = json.loads(run([*PODMAN, "image", "inspect", tag], capture_output=True).stdout)[0]
    return dict(inspected["Config"])


def start_with_podman(tag: str, env: dict[str, str]) -> tuple[subprocess.Popen[str], int] | None:
    """The image's command in a container (host network); None where the runtime cannot start it."""
    name = f"boardgames-image-check-{os.getpid()}"
    args = [arg for key, value in env.items() for arg in ("-e", f"{key}={value}")]
    proc = subprocess.Popen([*PODMAN, "run", "--rm", "--name", name, "--network=host", *args, tag],
                            stdout=sys.stderr, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return None
        state = subprocess.run([*PODMAN, "inspect", "--format", "{{.State.Pid}}", name], capture_output=True, text=True)
        if state.returncode == 0 and state.stdout.strip() not in ("", "0"):
            return proc, int(state.stdout)
        time.sleep(0.2)
    proc.kill()
    return None


def start_in_chroot(root: str, config: dict[str, Any], env: dict[str, str]) -> subprocess.Popen[str]:
    """The image's command in its root filesystem, as its user: a mount namespace of its own gives it
    /proc, /dev and a writable /tmp (the manifests' emptyDir), the image itself staying read-only."""
    user = str(config.get("User") or "0")
    uid = user if ":" in user else f"{user}:{user}"
    image_env = dict(item.split("=", 1) for item in config.get("Env") or [])
    command = " ".join(f"'{arg}'" for arg in config["Cmd"])
    script = (f'mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev" && mount -t tmpfs tmpfs "$1/tmp" && '
              f'exec chroot --userspec={uid} "$1" /usr/bin/env -i '
              + " ".join(f"'{k}={v}'" for k, v in {**image_env, "HOME": "/tmp", **env}.items())
              + f" /bin/sh -c 'cd {config.get('WorkingDir') or '/'} && exec {command}'")
    return subprocess.Popen(["unshare", "--mount", "--fork", "--kill-child=SIGTERM", "sh", "-c", script, "sh", root],
                            stdout=sys.stderr, text=True, start_new_session=True)


def gunicorn_uid(pid: int, group: bool) -> int:
    """The real uid of gunicorn: process ``pid`` itself, or (``group``) the gunicorn processes in the
    process group that ``pid`` leads (the chroot's wrappers exec into it)."""
    candidates = [int(p) for p in os.listdir("/proc") if p.isdigit()] if group else [pid]
    for candidate in sorted(candidates):
        try:
            if group and os.getpgid(candidate) != pid:
                continue
            cmdline = Path(f"/proc/{candidate}/cmdline").read_bytes().split(b"\0")
            status = Path(f"/proc/{candidate}/status").read_text()
        except OSError:
            continue
        if any(arg.endswith(b"gunicorn") for arg in cmdline[:2]):
            return int(next(line.split()[1] for line in status.splitlines() if line.startswith("Uid:")))
    raise AssertionError(f"no gunicorn process at {pid}")


def check_contents(root: str) -> list[str]:
    """What is wrong with the image's files: an offline tool in it, or a ``boardgames`` script."""
    wrong = [f"{place}/{path}" for place in ("app", SITE) for path in LEFT_OUT if (Path(root) / place / path).exists()]
    if (Path(root) / "usr/local/bin/boardgames").exists():
        wrong.append("usr/local/bin/boardgames")
    for place in ("app/shared", f"{SITE}/shared"):
        if not (Path(root) / place / "play" / "worker.py").is_file():
            wrong.append(f"{place}/play/worker.py is missing")
    return wrong


def code_size(root: str) -> int:
    """Bytes of the project's installed code: the source tree in /app and its copy in site-packages."""
    paths = [Path(root) / "app", Path(root) / SITE / "shared", Path(root) / SITE / "services"]
    return sum(f.stat().st_size for path in paths for f in path.rglob("*") if f.is_file())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m shared.ops.image", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rebuild-base", action="store_true", help="lay out the Debian base again")
    parser.add_argument("--tag", default=IMAGE)
    args = parser.parse_args(argv)
    missing = [tool for tool in ("podman", "mmdebstrap", "unshare", "chroot") if not shutil.which(tool)]
    if missing:
        print(f"missing: {' '.join(missing)} (apt-get install podman buildah mmdebstrap)", file=sys.stderr)
        return 1
    started = time.monotonic()
    build_base(args.rebuild_base)
    build_image(args.tag)
    figure("image_build_seconds", round(time.monotonic() - started, 1))
    config = image_config(args.tag)
    root = run([*PODMAN, "image", "mount", args.tag], capture_output=True).stdout.strip()
    redis_proc, redis_url, _ = start_server()
    port = free_port()
    env = {"PORT": str(port), "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "ACCESS_LOG": ""}
    started_by = "podman run"
    podman = start_with_podman(args.tag, env)
    if podman is None:
        started_by = "chroot"
        print("podman run cannot start the container here: starting the image's command under chroot",
              file=sys.stderr)
        proc, pid = start_in_chroot(root, config, env), 0
    else:
        proc, pid = podman
    try:
        deadline = time.monotonic() + 60
        health = None
        while health is None and time.monotonic() < deadline and proc.poll() is None:
            try:
                health = requests.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            except requests.RequestException:
                time.sleep(0.2)
        wrong = check_contents(root)
        if health is None or health.status_code != 200:
            wrong.append(f"/healthz did not answer 200 ({health.status_code if health else 'no answer'})")
        else:
            uid = gunicorn_uid(pid or proc.pid, group=podman is None)
            if uid != USER_ID:
                wrong.append(f"gunicorn runs as uid {uid}, not {USER_ID}")
            figure("image_healthz", health.json(), started_by=started_by, uid=uid)
        figure("image_installed_code_bytes", code_size(root))
    finally:
        if podman is not None:
            subprocess.run([*PODMAN, "stop", "--time", "5", f"boardgames-image-check-{os.getpid()}"],
                           capture_output=True)
        else:
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
        redis_proc.terminate()
        redis_proc.wait(5)
        subprocess.run([*PODMAN, "image", "unmount", args.tag], capture_output=True)
    for problem in wrong:
        print(f"make image: {problem}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
