"""What the image holds is enough to serve and play every game, and holds no offline tool.

The tree is built from the same source the image is: the build context that ``.dockerignore``
leaves, copied by ``deploy/Dockerfile``'s ``COPY`` lines.  Every process then runs from that tree
alone, as the manifests start it (``shared.ops.manifests``), with Python started without ``site``
so that only the tree and the venv's installed packages are importable (not the editable install
that maps ``shared`` to the whole checkout): each game's web service under real gunicorn answers
``/healthz`` and creates a game, its bot worker and search-bot worker play their turns against a
real Redis, and its sweeper runs.  Importing the tools left out fails there.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from rq import Queue

from shared.game import registry
from shared.ops import manifests
from shared.ops.redis_server import free_port
from shared.play.bots import queue_name, thinking_bots
from tests.e2e.conftest import ROOT, kill_group, log_file
from tests.wait import wait_until

DOCKERFILE = ROOT / "deploy" / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
# What must not be importable from the image: the offline tools, by role and by game.
LEFT_OUT = ["shared.ai", "shared.ai.valuefit", "shared.ai.ladder", "shared.ops", "shared.ops.bench",
            "shared.ops.manifests", "shared.client", "shared.client.cli", "shared.game.testing",
            "services.catan.catanatron_bridge",
            *(f"services.{game}.selfplay" for game in registry.available())]


def _pattern(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern as a regex over a context-relative path (Go's filepath.Match, plus
    ``**`` for any number of directories)."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out)


def dockerignore_rules() -> list[tuple[bool, re.Pattern[str]]]:
    """(re-included?, pattern) for each rule, in order: the last rule matching a path decides."""
    rules = []
    for line in DOCKERIGNORE.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            negated = line.startswith("!")
            rules.append((negated, _pattern(line.lstrip("!").strip("/"))))
    return rules


def in_context(path: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Whether the build context holds ``path``: a rule matching the path or a folder above it applies."""
    parts = path.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    kept = True
    for negated, rule in rules:
        if any(rule.fullmatch(prefix) for prefix in prefixes):
            kept = negated
    return kept


def context_files() -> list[str]:
    """The checkout's files (tracked, or untracked and not git-ignored) that the build context holds."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.split("\0")
    rules = dockerignore_rules()
    return [path for path in listed if path and (ROOT / path).is_file() and in_context(path, rules)]


def copy_lines() -> list[tuple[list[str], str]]:
    """Each ``COPY`` of the Dockerfile's last stage as (sources, destination under WORKDIR)."""
    lines = DOCKERFILE.read_text().replace("\\\n", " ").splitlines()
    stages = [i for i, line in enumerate(lines) if line.split()[:1] == ["FROM"]]
    assert len(stages) == 1, "this test reads a single-stage Dockerfile"
    copies = []
    for line in lines:
        words = shlex.split(line, comments=True)
        if words[:1] == ["WORKDIR"]:
            assert words[1] == "/app", "COPY destinations below are read relative to /app"
        if words[:1] == ["COPY"]:
            assert not any(w.startswith("--") for w in words), f"this test knows no COPY flags: {line}"
            assert not any(c in w for w in words for c in "*?["), f"this test knows no COPY wildcards: {line}"
            *sources, dest = words[1:]
            assert not dest.startswith("/"), f"a COPY outside WORKDIR: {line}"
            copies.append((sources, dest))
    return copies


def build_image_tree(app: Path) -> list[str]:
    """Copy into ``app`` what the Dockerfile copies from the build context; the copied paths."""
    files = context_files()
    copied = []
    for sources, dest in copy_lines():
        for source in sources:
            below = [f for f in files if f.startswith(source.rstrip("/") + "/")]
            if below:                                    # a folder: its contents go into dest
                pairs = [(f, str(Path(dest) / Path(f).relative_to(source))) for f in below]
            else:
                assert source in files, f"COPY {source}: not in the build context (.dockerignore)"
                into_folder = dest.endswith("/") or dest == "." or len(sources) > 1
                pairs = [(source, str(Path(dest) / Path(source).name) if into_folder else dest)]
            for src, target in pairs:
                (app / target).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / src, app / target)
                copied.append(target)
    return copied


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    app = tmp_path_factory.mktemp("image") / "app"
    build_image_tree(app)
    return app


def image_python(app: Path) -> tuple[list[str], dict[str, str]]:
    """Python as it runs in the image: the tree (its working directory) and the installed packages,
    nothing of this checkout.  ``-S`` skips site, so the venv's .pth files (the editable install of
    the whole checkout among them) add nothing; its site-packages comes in through PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GAME_SERVICES_EXTRA")}
    env["PYTHONPATH"] = os.pathsep.join([str(app), sysconfig.get_paths()["purelib"]])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return [sys.executable, "-S"], env


def run_in_image(app: Path, code: str) -> subprocess.CompletedProcess[str]:
    python, env = image_python(app)
    return subprocess.run([*python, "-c", code], cwd=app, env=env, capture_output=True, text=True, timeout=120)


def test_the_image_holds_the_serving_packages_and_no_tool(app: Path) -> None:
    packages = {str(p.parent.relative_to(app)) for p in app.rglob("__init__.py")}
    assert {"shared/game", "shared/log", "shared/play", "shared/http", "shared/text"} <= packages
    assert {f"services/{game}" for game in registry.available()} <= packages
    assert not {"shared/ai", "shared/ops", "shared/client"} & packages, packages
    assert not list(app.rglob("selfplay.py")) and not list(app.rglob("catanatron_bridge.py"))
    assert not (app / "tests").exists() and (app / "deploy" / "gunicorn.conf.py").is_file()
    assert (app / "requirements" / "base.txt").is_file() and (app / "pyproject.toml").is_file()


@pytest.mark.parametrize("module", LEFT_OUT)
def test_the_offline_tools_do_not_import_from_the_image(app: Path, module: str) -> None:
    # The same tools import from this checkout: what fails below is the image leaving them out.
    assert subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True).returncode == 0
    imported = run_in_image(app, f"import {module}")
    assert imported.returncode != 0
    assert "ModuleNotFoundError" in imported.stderr, imported.stderr


def test_the_entry_modules_import_from_the_image(app: Path) -> None:
    """The worker and sweeper modules and every game's plugin, as the worker and the sweeper load them."""
    code = ("import shared.play.worker, shared.play.sweeper, shared.http.logs, shared.http.gc_tuning\n"
            "from shared.game import registry\n"
            "for name in registry.available(): registry.plugin(name)\n"
            "import sys; print(sorted(m for m in sys.modules if m.startswith(('shared.', 'services.'))))")
    imported = run_in_image(app, code)
    assert imported.returncode == 0, imported.stderr
    assert "'shared.play.worker'" in imported.stdout and "'services.elastium.api'" in imported.stdout


def test_installing_the_image_tree_installs_no_script(app: Path, tmp_path: Path) -> None:
    """The Dockerfile's ``pip install --no-deps .``, into a folder: the packages it installs are the
    tree's, and no ``boardgames`` script comes with them (its module is not in the image)."""
    target = tmp_path / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-cache-dir",
                                "--target", str(target), str(app)], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr
    assert not (target / "bin").exists(), list((target / "bin").iterdir())
    entry_points = "".join(p.read_text() for p in target.glob("*.dist-info/entry_points.txt"))
    assert "boardgames" not in entry_points
    python_files = {str(p.relative_to(target)) for top in ("shared", "services") for p in (target / top).rglob("*.py")}
    assert python_files == {str(p.relative_to(app)) for top in ("shared", "services") for p in (app / top).rglob("*.py")}


def _command(app: Path, command: list[str]) -> list[str]:
    """A manifest's command (``gunicorn ...`` or ``python -m ...``) run by this venv's Python as in the image."""
    python, _ = image_python(app)
    if command[0] == "gunicorn":
        return [*python, "-m", "gunicorn", *command[1:]]
    assert command[0] == "python", command
    return [*python, *command[1:]]


@pytest.fixture()
def start(app: Path, stack_env: dict[str, str], tmp_path: Path) -> Iterator[Any]:
    procs: list[subprocess.Popen[bytes]] = []

    def run(name: str, argv: list[str], **env: str) -> subprocess.Popen[bytes]:
        _, image_env = image_python(app)
        merged = {**stack_env, **image_env, **env}
        merged.pop("GAME_SERVICES_EXTRA", None)
        with log_file(tmp_path / f"{name}.log") as out:
            proc = subprocess.Popen(_command(app, argv), cwd=app, env=merged, stdout=out, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        procs.append(proc)
        return proc

    yield run
    for proc in procs:
        kill_group(proc)


def _version(base: str, game_id: str) -> int:
    return int(requests.get(f"{base}/games/{game_id}", timeout=10).json()["version"])


def _lose_every_job(conn: redis.Redis[bytes], queue: Queue) -> None:
    """What a crash between a move's append and its bot job leaves: the turn indexed, no job."""
    for job_id in queue.job_ids:
        conn.delete(f"rq:job:{job_id}")
    queue.empty()


@pytest.mark.parametrize("game", registry.available())
def test_each_game_serves_and_plays_from_the_image(game: str, start: Any, redis_client: redis.Redis[bytes]) -> None:
    """Every process of a game, started by its manifest's command from the image's tree: the web
    service creates games; the sweeper finds a bot turn whose job was lost and enqueues it again;
    the bot worker plays it; the search-bot worker plays a search bot's turn."""
    plugin = registry.plugin(game)
    services = manifests.compose_document([game])["services"]
    port = free_port()
    start("web", [*services[f"{game}-web"]["command"], "--bind", f"127.0.0.1:{port}"])
    base = f"http://127.0.0.1:{port}"
    health = wait_until(lambda: requests.get(base + "/healthz", timeout=1), f"gunicorn from the image on {port}")
    assert health.status_code == 200, health.text

    def new_game(bot: str) -> tuple[str, int]:
        created = requests.post(f"{base}/games", json={"players": [
            {"name": f"{bot}{i}", "bot": bot} for i in range(plugin.game.min_players)]}, timeout=10)
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        return game_id, _version(base, game_id)

    thinkers = sorted(thinking_bots(plugin.strategies))
    fast = [name for name in sorted(plugin.strategies) if name not in thinkers]
    game_id, before = new_game("random" if "random" in fast else fast[0])
    queue = Queue(queue_name(game), connection=redis_client)
    _lose_every_job(redis_client, queue)
    start("sweeper", services[f"{game}-sweeper"]["command"], SWEEP_INTERVAL_SECONDS="0.2")
    wait_until(lambda: queue.count, f"{game}'s sweeper from the image enqueuing the lost turn", timeout=60)
    start("worker", services[f"{game}-worker"]["command"])
    wait_until(lambda: _version(base, game_id) > before, f"{game}'s worker from the image playing", timeout=120)

    if thinkers:
        game_id, before = new_game(thinkers[0])
        start("thinker", services[f"{game}-thinker"]["command"])
        wait_until(lambda: _version(base, game_id) > before, f"{game}'s search-bot worker from the image playing",
                   timeout=120)
