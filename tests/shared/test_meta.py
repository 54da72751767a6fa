"""A game's meta hash as Redis keeps it, and :class:`shared.play.meta.GameMeta`, its typed form."""
from __future__ import annotations

from typing import Any

from shared.log.eventstore import EventStore
from shared.play import meta as gm
from shared.play.meta import GameMeta
from shared.play.runtime import GameRuntime
from tests.shared.toygame import RaceGame

# The meta of a game created before seed commitments, listing, lifetimes and clocks: what such
# a game's hash holds in Redis, written out by hand as that version wrote it.
OLD_HASH = {"game": "race", "engine_version": "1", "players": '[{"seat": 0, "name": "a", "bot": null}]',
            "tokens": '["abc"]', "seed": "42", "created_at": "1700000000000", "options": '{"target":30}',
            "status": "active", "to_act": "[0]", "result": "null", "version": "3", "head": "f00"}


def test_an_old_hash_reads_with_the_meaning_its_missing_fields_had() -> None:
    meta = GameMeta.from_hash(OLD_HASH)
    assert (meta.seed, meta.players[0]["name"], meta.tokens, meta.options) == (42, "a", ["abc"], {"target": 30})
    assert (meta.status, meta.to_act, meta.result, meta.version, meta.head) == ("active", [0], None, 3, "f00")
    assert meta.seed_salt is None and meta.listed is None and not meta.seeded_by_client
    assert meta.turn_seconds is None and meta.fallback_bot is None and meta.persist_at_version is None
    assert meta.extra == {}


def test_a_new_games_hash_in_redis_reads_back_as_the_meta_it_was_written_from(redis_client: Any) -> None:
    runtime = GameRuntime(RaceGame(), EventStore(redis_client), idle_ttl=60, finished_ttl=30)
    game_id, _, seats = runtime.create([{"name": "x"}, {"name": "y", "open": True}], {"target": 40}, seed=7,
                                       turn_seconds=90, extra_meta={"host": "h"})
    stored = runtime.store.meta(game_id)
    assert stored is not None
    meta = GameMeta.from_hash(stored)
    assert (meta.status, meta.to_act, meta.seeded_by_client, meta.listed) == ("waiting", [], True, True)
    assert (meta.turn_seconds, meta.fallback_bot, meta.finished_ttl) == (90, None, 30)
    assert meta.persist_at_version == meta.version > 0      # the first move makes the game permanent
    assert meta.options["target"] == 40 and meta.tokens[1] is None and meta.players[1]["open"] is True
    assert meta.extra["host"] == "h" and "clock" in meta.extra
    # Every field written at creation is written back as it was read (the append adds its own).
    written = meta.to_hash()
    assert {k: v for k, v in stored.items() if k not in ("version", "head")} == written
    assert stored["fallback_bot"] == "" and stored["seeded_by_client"] == "1" and stored["listed"] == "1"


def test_the_one_field_readers_agree_with_the_typed_meta_on_old_and_new_hashes(redis_client: Any) -> None:
    runtime = GameRuntime(RaceGame(), EventStore(redis_client))
    game_id, _, _ = runtime.create([{"name": "x"}, {"name": "y", "bot": "random"}], {"target": 40}, seed=7,
                                   listed=False)
    for raw in (OLD_HASH, runtime.store.meta(game_id) or {}):
        typed = GameMeta.from_hash(raw)
        assert gm.players_of(raw) == typed.players and gm.tokens_of(raw) == typed.tokens
        assert gm.options_of(raw) == typed.options and gm.to_act_of(raw) == typed.to_act
        assert gm.seeded_by_client(raw) == typed.seeded_by_client and gm.created_at(raw) == typed.created_at
        assert gm.bot_seats(raw["players"]) == {s for s, p in enumerate(typed.players) if p.get("bot")}
        assert gm.reserved_of(raw) == []
    # A hash that does not say whether it is listed keeps each reader's own default.
    assert gm.is_listed(OLD_HASH, default=True) and not gm.is_listed(OLD_HASH, default=False)
    assert not gm.is_listed(runtime.store.meta(game_id) or {}, default=True)
    # What a seat change writes reads back the same way.
    players = [{"seat": 0, "name": "z", "bot": None}]
    fields = {**gm.seat_fields(players, ["h"]), **gm.reserved_field([None])}
    assert gm.players_of(fields) == players and gm.tokens_of(fields) == ["h"] and gm.reserved_of(fields) == [None]
