"""Provably fair randomness: a game commits to its secret seed at creation, reveals it when it ends,
and the audit checks every recorded seed against the derivation (shared.log.proofs)."""
from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from shared.log import proofs
from shared.game import registry
from shared.game.engine import play_fair
from shared.log.eventstore import GENESIS_HASH, EventStore, event_hash
from shared.log.platform_events import SEED_REVEALED
from shared.log.replay import audit_log, served_record
from shared.play.runtime import GameRuntime, StateCache

CATAN = registry.plugin("catan")


def play_to_the_end(runtime: GameRuntime, seed: int | None = None) -> str:
    """A Catan game of three greedy bots, every move through the runtime (real Redis)."""
    game = runtime.game
    game_id, _, _ = runtime.create([{"name": f"p{i}"} for i in range(3)], {}, seed=seed)
    rng = random.Random(5)
    greedy = CATAN.strategies["greedy"]
    for _ in range(3000):
        loaded = runtime.load(game_id)
        if game.result(loaded.state) is not None:
            return game_id
        seat = game.to_act(loaded.state)[0]
        move = play_fair(game, greedy, loaded.state, seat, rng, rng)
        runtime.submit(game_id, seat, move)
    raise AssertionError("the game did not end")


def rechain(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hashes recomputed over edited records: a forger holding the whole log can do this."""
    head = GENESIS_HASH
    for record in records:
        record["hash"] = head = event_hash(head, record)
    return records


@pytest.fixture()
def runtime(redis_client: Any) -> GameRuntime:
    return GameRuntime(CATAN.game, EventStore(redis_client), cache=StateCache())


@pytest.fixture()
def finished_log(runtime: GameRuntime) -> list[dict[str, Any]]:
    return runtime.store.read(play_to_the_end(runtime))


def test_the_setup_commits_to_the_seed_every_seat_sees_it_and_the_end_reveals_it(runtime: GameRuntime) -> None:
    game_id, _, _ = runtime.create([{"name": f"p{i}"} for i in range(3)], {})
    setup = runtime.store.read(game_id)[0]
    commitment = setup["cause"]["seed_commitment"]
    for viewer in (0, 1, 2, None):
        assert served_record(runtime.game, setup, viewer, finished=False)["cause"]["seed_commitment"] == commitment
    assert "seed" not in served_record(runtime.game, setup, 0, finished=False)["cause"]
    report = audit_log(runtime.game, runtime.store.read(game_id))
    assert report.ok and report.seeds == "committed"

    records = runtime.store.read(play_to_the_end(runtime))
    reveals = [r for r in records if r["type"] == SEED_REVEALED]
    assert len(reveals) == 1 and reveals[0] is records[-1]
    seed, salt = reveals[0]["data"]["seed"], reveals[0]["data"]["salt"]
    assert proofs.seed_commitment(seed, salt) == records[0]["cause"]["seed_commitment"]
    # The reveal went in with the events that ended the game: one append, so no state in between.
    assert reveals[0]["at"] == records[-2]["at"]
    assert records[0]["cause"]["seed"] == proofs.setup_seed(seed)
    moves = [r for r in records if r.get("cause", {}).get("kind") == "move"]
    assert all(r["cause"]["seed"] == proofs.move_seed(seed, r["seq"] - 1, r["cause"]["seat"]) for r in moves)
    report = audit_log(runtime.game, records)
    assert report.ok and report.seeds == "verified" and not report.seeded_by_client, report


def forge_a_roll(records: list[dict[str, Any]]) -> int:
    """Rewrite the first roll that another seed turns into other dice of the same total (so every
    later event still follows from the rules), with that seed: the seq of the forged record."""
    game = CATAN.game
    state = None
    for i, record in enumerate(records):
        cause = record.get("cause") or {}
        if cause.get("kind") == "move" and cause["move"]["type"] == "roll":
            batch = [records[i]] + [r for r in records[i + 1:i + 3] if "cause" not in r]
            recorded = [{"type": r["type"], "data": r["data"]} for r in batch]
            for other_seed in range(1, 2000):
                events = game.decide(game.copy(state), cause["seat"], cause["move"], random.Random(other_seed))
                dice = events[0]["data"]["dice"]
                if dice != record["data"]["dice"] and sum(dice) == sum(record["data"]["dice"]) \
                        and events[1:] == recorded[1:]:
                    record["data"] = events[0]["data"]
                    cause["seed"] = other_seed
                    return int(record["seq"])
        if not record["type"].startswith("platform."):
            state = game.evolve(state, {"type": record["type"], "data": record["data"]})
    raise AssertionError("no roll could be rewritten alone")


def test_a_die_roll_changed_with_its_seed_fails_the_audit_at_that_record(finished_log: list[dict[str, Any]]) -> None:
    """The forgery an audit that took seeds from the log could not see: a roll and a seed that
    gives it, both rewritten, the chain recomputed.  The rules accept it; the derivation does not."""
    records = copy.deepcopy(finished_log)
    forged_seq = forge_a_roll(records)
    report = audit_log(CATAN.game, rechain(records))
    assert not report.ok and report.bad_seq == forged_seq
    assert report.problem == "the move's seed is not the one derived from the committed seed"
    # Without the commitment (as before it existed) the same forgery passes: the rules alone accept it.
    uncommitted = [r for r in copy.deepcopy(records) if r["type"] != SEED_REVEALED]
    del uncommitted[0]["cause"]["seed_commitment"]
    assert audit_log(CATAN.game, rechain(uncommitted)).ok


def test_a_reveal_that_does_not_open_the_commitment_or_is_missing_fails(finished_log: list[dict[str, Any]]) -> None:
    game = CATAN.game
    reveal_seq = finished_log[-1]["seq"]
    other = copy.deepcopy(finished_log)
    other[-1]["data"]["salt"] = "00" * 16
    report = audit_log(game, rechain(other))
    assert not report.ok and report.bad_seq == reveal_seq and "do not open" in report.problem

    hidden = rechain(copy.deepcopy(finished_log[:-1]))
    report = audit_log(game, hidden)
    ending = max(r["seq"] for r in hidden if r.get("cause", {}).get("kind") == "move")
    assert not report.ok and report.bad_seq == ending and "never opened" in report.problem


def test_a_game_recorded_without_a_commitment_audits_as_before(finished_log: list[dict[str, Any]]) -> None:
    old = [r for r in copy.deepcopy(finished_log) if r["type"] != SEED_REVEALED]
    del old[0]["cause"]["seed_commitment"]
    report = audit_log(CATAN.game, rechain(old))
    assert report.ok and report.seeds == "uncommitted" and report.version == len(old)


def test_a_client_seed_is_committed_revealed_and_marked(runtime: GameRuntime) -> None:
    records = runtime.store.read(play_to_the_end(runtime, seed=42))
    assert records[-1]["type"] == SEED_REVEALED and records[-1]["data"]["seed"] == 42
    report = audit_log(runtime.game, records)
    assert report.ok and report.seeds == "verified" and report.seeded_by_client


def test_a_move_appended_after_platform_records_derives_its_seed_from_the_seq_it_follows(runtime: GameRuntime) -> None:
    """A clock's fallback move goes into the log behind its platform.clock_expired record, in one
    append: the move's seed is still derived from the record just before the move's own events."""
    game_id, version, _ = runtime.create([{"name": f"p{i}"} for i in range(3)], {})
    loaded = runtime.load(game_id)
    seat = runtime.game.to_act(loaded.state)[0]
    move = runtime.game.legal_moves(loaded.state, seat)[0]
    expired = {"type": "platform.clock_expired", "data": {"seat": seat, "deadline": 0, "bot": "greedy"}}
    runtime.submit(game_id, seat, move, platform_events=[expired])
    records = runtime.store.read(game_id)
    first = next(r for r in records if r.get("cause", {}).get("kind") == "move")
    assert records[first["seq"] - 2]["type"] == "platform.clock_expired" and first["seq"] == version + 2
    assert first["cause"]["seed"] == proofs.move_seed(runtime.load(game_id).seed, first["seq"] - 1, seat)
