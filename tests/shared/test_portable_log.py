"""Portable logs (GET /games/{id}/log, JSON Lines) and the offline verifier (shared.log.verify,
``boardgames verify``): what it accepts, and the first bad record it names in what it refuses."""
from __future__ import annotations

import copy
import dataclasses
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from shared.game import registry
from shared.log import signing
from shared.client.cli import main as cli
from shared.play.config import Settings
from shared.log.platform_events import SEED_REVEALED
from shared.http.service import create_app
from shared.log.verify import JSONL
from tests.shared.conftest import auth, new_game
from tests.shared.test_fair_seeds import forge_a_roll, play_to_the_end, rechain
from tests.shared.test_signed_heads import key_file, play_out
from tests.shared.toygame import PLUGIN


@pytest.fixture()
def signed(settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A toy service with a signing key, and its key set saved as a file (as a verifier keeps it)."""
    monkeypatch.setenv("GAME_SERVICES_EXTRA", "race=tests.shared.toygame")     # the verifier finds its rules
    settings = dataclasses.replace(settings, signing_key_file=str(key_file(tmp_path, "k.pem")))
    client = create_app(PLUGIN, settings).test_client()
    keys = tmp_path / "keys.json"
    keys.write_text(client.get("/.well-known/game-log-keys.json").get_data(as_text=True))
    return {"client": client, "keys": str(keys), "settings": settings, "dir": tmp_path}


def download(client: FlaskClient, game_id: str, path: Path, token: str | None = None) -> list[dict[str, Any]]:
    answer = client.get(f"/games/{game_id}/log", headers=auth(token) if token else {})
    assert answer.status_code == 200 and answer.mimetype == JSONL
    assert answer.headers["Content-Disposition"].endswith('.jsonl"')
    path.write_bytes(answer.get_data())
    return [json.loads(line) for line in answer.get_data(as_text=True).splitlines()]


def write(path: Path, rows: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return str(path)


def verify(path: str | Path, keys: str | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = cli(["verify", str(path), *(["--keys", keys] if keys else [])], stdout=out)
    return code, out.getvalue()


def test_a_finished_game_downloads_whole_and_verifies_offline(signed: dict[str, Any]) -> None:
    client, tmp = signed["client"], signed["dir"]
    game = new_game(client, seed=None)
    play_out(client, game)
    rows = download(client, game["id"], tmp / "log.jsonl")
    header, records = rows[0], rows[1:]
    assert header["format"] == "boardgames-log/1" and header["complete"] and header["game"] == "race"
    assert header["engine_version"] == "1" and header["options"] == {"target": 10} and header["viewer"] is None
    assert header["seed_commitment"] == records[0]["cause"]["seed_commitment"] and not header["seeded_by_client"]
    assert header["version"] == records[-1]["seq"] and header["head"] == records[-1]["hash"]
    assert records[-1]["type"] == SEED_REVEALED and all("salt" in r for r in records)
    code, said = verify(tmp / "log.jsonl", signed["keys"])
    assert code == 0, said
    for checked in ("ok    hash chain", "ok    signature", "ok    seeds", "ok    rules", "VERIFIED"):
        assert checked in said, said
    # Without keys everything else is checked, and the output says the signature was not.
    code, said = verify(tmp / "log.jsonl")
    assert code == 0 and "signature: not checked" in said


def test_a_running_game_downloads_as_the_callers_view_and_is_not_called_verified(signed: dict[str, Any]) -> None:
    client, tmp = signed["client"], signed["dir"]
    game = new_game(client)
    token = game["players"][0]["token"]
    rows = download(client, game["id"], tmp / "seat0.jsonl", token)
    assert rows[0]["viewer"] == 0 and not rows[0]["complete"] and rows[0]["status"] == "active"
    assert all("salt" not in r for r in rows[1:]) and "seed" not in rows[1]["cause"]
    hidden = [r["data"] for r in rows[1:] if r["type"] == "card_dealt"]
    assert any(d.get("card") is None for d in hidden) and any(d.get("card") is not None for d in hidden)
    code, said = verify(tmp / "seat0.jsonl", signed["keys"])
    assert code == 3 and "ok    signature" in said and "INCOMPLETE" in said, said
    spectator = download(client, game["id"], tmp / "spectator.jsonl")
    assert spectator[0]["viewer"] is None and all(d.get("card") is None for d in
                                                  (r["data"] for r in spectator[1:] if r["type"] == "card_dealt"))
    assert client.get(f"/games/{game['id']}/log", headers=auth("garbage")).status_code == 401
    assert client.get("/games/nope/log").status_code == 404


@pytest.fixture()
def finished(signed: dict[str, Any]) -> dict[str, Any]:
    client = signed["client"]
    game = new_game(client, seed=None)
    play_out(client, game)
    rows = download(client, game["id"], signed["dir"] / "log.jsonl")
    return {**signed, "rows": rows}


def test_a_truncated_log_is_refused(finished: dict[str, Any]) -> None:
    rows, tmp, keys = finished["rows"], finished["dir"], finished["keys"]
    last = rows[-1]["seq"]
    code, said = verify(write(tmp / "cut.jsonl", rows[:-2]), keys)
    assert code == 1 and f"FAILED at record {last - 1}:" in said, said
    # The header made to agree with the cut log: the signature then refuses it.
    cut = copy.deepcopy(rows[:-2])
    cut[0].update(version=cut[-1]["seq"], head=cut[-1]["hash"])
    code, said = verify(write(tmp / "cut2.jsonl", cut), keys)
    assert code == 1 and f"FAILED at record {last - 2}: signature refused" in said, said


def test_a_reordered_log_is_refused(finished: dict[str, Any]) -> None:
    rows, tmp, keys = finished["rows"], finished["dir"], finished["keys"]
    swapped = copy.deepcopy(rows)
    swapped[5], swapped[6] = swapped[6], swapped[5]
    code, said = verify(write(tmp / "swapped.jsonl", swapped), keys)
    assert code == 1 and "FAILED at record 5: record 5 is missing or out of place" in said, said
    # Renumbered to look in order: the audit stops where the order changed (at record 5's hash, or
    # at record 4 when its move's events no longer all follow it).
    for i, row in enumerate(swapped[1:], 1):
        row["seq"] = i
    code, said = verify(write(tmp / "renumbered.jsonl", swapped), keys)
    assert code == 1 and re.search(r"FAILED at record (5: hash does not match|4: the recorded events are not)",
                                   said), said


def test_a_signature_by_a_key_not_in_the_set_is_refused(finished: dict[str, Any], tmp_path: Path) -> None:
    stranger = signing.Signer.from_files(str(key_file(tmp_path, "stranger.pem")))
    assert stranger is not None
    other_keys = tmp_path / "other.json"
    other_keys.write_text(json.dumps(stranger.keyset()))
    code, said = verify(finished["dir"] / "log.jsonl", str(other_keys))
    assert code == 1 and "which the key set does not list" in said, said


def test_a_log_of_an_engine_version_not_installed_cannot_be_verified(finished: dict[str, Any]) -> None:
    rows = copy.deepcopy(finished["rows"])
    rows[0]["engine_version"] = "0"
    code, said = verify(write(finished["dir"] / "old.jsonl", rows))
    assert code == 2 and "rules engine '0'" in said and "has engines '1' only" in said, said


def test_a_forged_roll_in_a_finished_catan_log_is_named(settings: Settings, tmp_path: Path) -> None:
    settings = dataclasses.replace(settings, signing_key_file=str(key_file(tmp_path, "k.pem")))
    app = create_app(registry.plugin("catan"), settings)
    client = app.test_client()
    game_id = play_to_the_end(app.extensions["runtime"])
    rows = download(client, game_id, tmp_path / "catan.jsonl")
    keys = tmp_path / "keys.json"
    keys.write_text(client.get("/.well-known/game-log-keys.json").get_data(as_text=True))
    code, said = verify(tmp_path / "catan.jsonl", str(keys))
    assert code == 0, said

    forged = copy.deepcopy(rows)
    seq = forge_a_roll(forged[1:])
    rechain(forged[1:])
    forged[0]["head"] = forged[-1]["hash"]
    code, said = verify(write(tmp_path / "forged.jsonl", forged))       # no keys: the seeds alone catch it
    assert code == 1 and f"FAILED at record {seq}: the move's seed is not the one derived" in said, said


def test_the_documents_show_the_routes_and_the_command_that_exist(signed: dict[str, Any]) -> None:
    section = (Path(__file__).resolve().parents[2] / "docs" / "verify.md").read_text()
    client = signed["client"]
    game = new_game(client)
    for line in section.splitlines():
        if line.startswith("curl -s localhost:8001"):
            path = line.split()[2].removeprefix("localhost:8001").replace("$ID", game["id"])
            assert client.get(path).status_code == 200, line
    assert ".venv/bin/boardgames verify catan-$ID.jsonl --keys game-log-keys.json" in section
    code, said = verify("missing.jsonl")
    assert code == 2 and "cannot read missing.jsonl" in said


def test_a_game_of_an_older_rules_engine_verifies_offline_by_that_engines_rules(
        redis_client: Any, tmp_path: Path) -> None:
    """A Catan game created under engine 2 (still kept: it allowed trading after building) keeps
    those rules for life; its file names engine 2, and the verifier judges it by engine 2."""
    from shared.log.eventstore import EventStore
    from shared.play.runtime import GameRuntime, StateCache
    from shared.log.verify import log_file
    catan = registry.plugin("catan")
    assert "2" in catan.engine_versions and catan.newest_rules().engine_version != "2"
    runtime = GameRuntime(catan.rules("2"), EventStore(redis_client), cache=StateCache(), engines=catan.rules)
    game_id = play_to_the_end(runtime)
    meta = runtime.store.meta(game_id) or {}
    assert meta["engine_version"] == "2"
    body = log_file(runtime.rules_for(meta), game_id, meta, runtime.store.read(game_id), None, True, None)
    path = tmp_path / "catan-2.jsonl"
    path.write_bytes(body)
    code, said = verify(path)
    assert code == 0 and "rules engine 2" in said and "VERIFIED" in said, said


def abandoned_game(signed: dict[str, Any], holds: int = 3) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A game moved in a few times, then left for days until the sweeper ended it as abandoned;
    its log downloaded by a spectator."""
    from shared.play import bots
    from shared.play.sweeper import sweep
    from tests.shared.test_limits import idle_for
    client = signed["client"]
    runtime = client.application.extensions["runtime"]
    game = new_game(client, seed=None)
    tokens = [p["token"] for p in game["players"]]
    for _ in range(holds):
        seat = client.get(f"/games/{game['id']}").get_json()["to_act"][0]
        assert client.post(f"/games/{game['id']}/moves", json={"type": "hold"},
                           headers=auth(tokens[seat])).status_code == 201
    idle_for(runtime.store, game["id"], 3 * 86_400)
    sweep(runtime, bots.BotQueue(runtime.store.redis, "race"), abandon_after=2 * 86_400)
    assert client.get(f"/games/{game['id']}").get_json()["status"] == "abandoned"
    return game, download(client, game["id"], signed["dir"] / "abandoned.jsonl")


def test_an_abandoned_game_reveals_its_seed_and_verifies_offline(signed: dict[str, Any]) -> None:
    client, tmp = signed["client"], signed["dir"]
    game, rows = abandoned_game(signed)
    header, records = rows[0], rows[1:]
    # The seed is revealed in the abandonment's append, at its time, and the log is public in full.
    abandonment, reveal = records[-2], records[-1]
    assert (abandonment["type"], reveal["type"]) == ("platform.game_abandoned", SEED_REVEALED)
    assert "cause" not in reveal and reveal["at"] == abandonment["at"]
    assert header["complete"] and header["status"] == "abandoned" and header["version"] == reveal["seq"]
    assert all("salt" in r for r in records) and "seed" in records[0]["cause"]
    assert all(r["data"].get("card") is not None for r in records if r["type"] == "card_dealt")
    audit = client.get(f"/games/{game['id']}/audit").get_json()
    assert audit["ok"] and audit["seeds"] == "verified", audit
    code, said = verify(tmp / "abandoned.jsonl", signed["keys"])
    assert code == 0, said
    assert "abandoned: the whole log" in said and f"revealed at record {reveal['seq']}" in said, said
    for checked in ("ok    hash chain", "ok    signature", "ok    seeds", "ok    rules", "VERIFIED"):
        assert checked in said, said
    # The revealed seed is what the moves' seeds are checked against: a move given another seed
    # (its events unchanged: a hold draws nothing) is named.
    forged = copy.deepcopy(rows)
    move = next(r for r in forged[1:] if (r.get("cause") or {}).get("kind") == "move")
    move["cause"]["seed"] += 1
    rechain(forged[1:])
    forged[0]["head"] = forged[-1]["hash"]
    code, said = verify(write(tmp / "forged.jsonl", forged))
    assert code == 1 and f"FAILED at record {move['seq']}: the move's seed is not the one derived" in said, said


def test_an_abandoned_game_without_a_revealed_seed_is_not_called_verified(signed: dict[str, Any]) -> None:
    """A game abandoned without opening its commitment (as the platform once ended them): every
    record checks, but its seeds cannot be, and the verifier says so instead of VERIFIED."""
    _, rows = abandoned_game(signed)
    closed = copy.deepcopy(rows[:-1])
    closed[0].update(version=closed[-1]["seq"], head=closed[-1]["hash"])
    code, said = verify(write(signed["dir"] / "closed.jsonl", closed))
    assert code == 3 and "never revealed" in said and "ok    rules" in said and "VERIFIED" not in said, said
    # Nothing may be played once the game was abandoned: a move after it is named.
    moved = copy.deepcopy(rows[:-1])
    move = copy.deepcopy(next(r for r in moved[1:] if (r.get("cause") or {}).get("kind") == "move"))
    moved.append({**move, "seq": moved[-1]["seq"] + 1})
    rechain(moved[1:])
    moved[0].update(version=moved[-1]["seq"], head=moved[-1]["hash"])
    code, said = verify(write(signed["dir"] / "moved.jsonl", moved))
    assert code == 1 and f"FAILED at record {moved[-1]['seq']}: a move after the game was abandoned" in said, said
