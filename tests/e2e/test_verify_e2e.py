"""A finished game verified with no server: real gunicorn and a bot worker play a Catan game to the
end, the log and the key set are downloaded, the stack is stopped, and ``boardgames verify`` runs
as a separate process on the file, then on a tampered copy."""
from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import requests

from shared.log import signing
from tests.e2e.conftest import BIN, bots_game_to_the_end
from tests.shared.test_fair_seeds import forge_a_roll, rechain
from tests.wait import wait_until

pytestmark = pytest.mark.e2e


def boardgames_verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "boardgames"), "verify", *args], capture_output=True, text=True, timeout=120)


def test_a_bot_game_downloaded_then_verified_with_the_server_stopped(make_stack: Any, tmp_path: Path) -> None:
    key = tmp_path / "signing-key.pem"
    key.write_bytes(signing.new_private_key_pem())
    stack = make_stack("catan")
    stack.env["SIGNING_KEY_FILE"] = str(key)
    base = stack.start_web()
    stack.start_worker()
    gid, _ = bots_game_to_the_end(base, ["greedy"] * 3)
    log = tmp_path / f"catan-{gid}.jsonl"
    log.write_bytes(requests.get(f"{base}/games/{gid}/log", timeout=30).content)
    keys = tmp_path / "game-log-keys.json"
    keys.write_bytes(requests.get(f"{base}/.well-known/game-log-keys.json", timeout=10).content)
    stack.stop()
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{base}/healthz", timeout=2)

    done = boardgames_verify(str(log), "--keys", str(keys))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok    signature" in done.stdout and "ok    seeds" in done.stdout and "VERIFIED" in done.stdout

    rows = [json.loads(line) for line in log.read_text().splitlines()]
    forged = copy.deepcopy(rows)
    seq = forge_a_roll(forged[1:])
    rechain(forged[1:])
    forged[0].update(head=forged[-1]["hash"])
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(row) + "\n" for row in forged))
    done = boardgames_verify(str(tampered), "--keys", str(keys))
    # The signature is over the honest head: the re-chained log fails there first...
    assert done.returncode == 1 and f"FAILED at record {len(rows) - 1}: signature refused" in done.stdout, done.stdout
    # ...and without the keys, the seed that does not derive from the committed one names the roll.
    done = boardgames_verify(str(tampered))
    assert done.returncode == 1 and f"FAILED at record {seq}:" in done.stdout, done.stdout


def test_a_game_the_sweeper_abandoned_reveals_its_seed_and_verifies_with_the_server_stopped(
        make_stack: Any, tmp_path: Path) -> None:
    """Three people make a few moves of Catan and leave; the sweeper process ends the game as
    abandoned, with the seed's reveal; its log, whole now, verifies offline seeds included."""
    key = tmp_path / "signing-key.pem"
    key.write_bytes(signing.new_private_key_pem())
    stack = make_stack("catan")
    stack.env.update(SIGNING_KEY_FILE=str(key), ABANDON_AFTER_SECONDS="2", SWEEP_INTERVAL_SECONDS="0.2")
    base = stack.start_web()
    created = requests.post(f"{base}/games", json={"players": [{"name": f"p{i}"} for i in range(3)]}, timeout=10)
    assert created.status_code == 201, created.text
    gid, tokens = created.json()["id"], [p["token"] for p in created.json()["players"]]
    for _ in range(4):
        seat = requests.get(f"{base}/games/{gid}", timeout=10).json()["to_act"][0]
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        legal = requests.get(f"{base}/games/{gid}/legal-moves", headers=headers, timeout=10).json()
        moved = requests.post(f"{base}/games/{gid}/moves", json=legal["moves"][0], headers=headers, timeout=10)
        assert moved.status_code == 201, moved.text
    stack.start_sweeper()

    def abandoned() -> dict[str, Any] | None:
        view = requests.get(f"{base}/games/{gid}", timeout=10).json()
        return view if view["status"] == "abandoned" else None

    view = wait_until(abandoned, "the sweeper to end the game as abandoned", timeout=60)
    assert view["status"] == "abandoned", view
    log = tmp_path / f"catan-{gid}.jsonl"
    log.write_bytes(requests.get(f"{base}/games/{gid}/log", timeout=30).content)
    keys = tmp_path / "game-log-keys.json"
    keys.write_bytes(requests.get(f"{base}/.well-known/game-log-keys.json", timeout=10).content)
    stack.stop()

    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert rows[0]["complete"] and [r["type"] for r in rows[-2:]] == ["platform.game_abandoned",
                                                                     "platform.seed_revealed"]
    done = boardgames_verify(str(log), "--keys", str(keys))
    assert done.returncode == 0, done.stdout + done.stderr
    for checked in ("abandoned: the whole log", "ok    signature", "ok    seeds", "ok    rules", "VERIFIED"):
        assert checked in done.stdout, done.stdout
