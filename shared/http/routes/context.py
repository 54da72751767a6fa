"""What every route module works with: one game's service, built once per app by ``create_app``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, overload

from flask import request
from marshmallow import Schema

from shared.play import turn_clock
from shared.play import meta as gm
from shared.http import limits
from shared.play.auth import bearer_token, seat_for_token, stored_token_hashes, valid_for_another_game
from shared.play.config import Settings
from shared.game.engine import Game
from shared.log.eventstore import EventStore
from shared.http.feed import Feed
from shared.http.openapi import ReadSchemas
from shared.game.plugin import GamePlugin
from shared.play.problems import Problem
from shared.play.runtime import GameRuntime, LoadedGame
from shared.play.search import bot_budget_ms
from shared.play.seats import Seats
from shared.log.signing import Signer


@dataclass
class Service:
    plugin: GamePlugin
    settings: Settings
    store: EventStore
    runtime: GameRuntime
    feed: Feed
    guard: limits.Guard
    reads: ReadSchemas                        # the game's typed answers and its move union (shared.http.openapi)
    create_schema: type[Schema]
    move_refs: dict[str, str]                 # move type -> its schema's $ref in the OpenAPI document
    seats: Seats
    # One loader per move type, built once: a marshmallow schema keeps no state between loads,
    # and building one costs more than the load itself.
    move_loaders: dict[str, Schema] = field(default_factory=dict)
    signer: Signer | None = None              # signs log heads (shared.log.signing); None: no key configured

    @property
    def game(self) -> Game:
        return self.plugin.game

    @overload
    def authenticate(self, game_id: str, meta: dict[str, str], required: Literal[True]) -> int: ...
    @overload
    def authenticate(self, game_id: str, meta: dict[str, str], required: bool) -> int | None: ...

    def authenticate(self, game_id: str, meta: dict[str, str], required: bool) -> int | None:
        """The seat the request's bearer token is for; None for a spectator (when allowed)."""
        header = request.headers.get("Authorization")
        token = bearer_token(header)
        if token is None:
            if required or header:
                raise Problem("unauthenticated", "Send a seat's token: Authorization: Bearer <token>.")
            return None
        seat = seat_for_token(token, stored_token_hashes(gm.tokens_field(meta)))
        if seat is None:
            # ``meta`` may be this process's copy from before the seat was taken (shared.play.seats).
            fresh = self.store.meta(game_id)
            if fresh is not None and gm.tokens_field(fresh) != gm.tokens_field(meta):
                seat = seat_for_token(token, stored_token_hashes(gm.tokens_field(fresh)))
        if seat is None:
            # 403 only when proven (one more read, on this failure path only); else 401.
            if valid_for_another_game(token, game_id, lambda other: (self.store.meta(other) or {}).get("tokens")):
                raise Problem("not-your-seat", "This token belongs to a seat of another game.")
            raise Problem("unauthenticated", "The token is not valid for this game.")
        return seat

    def view_of(self, loaded: LoadedGame, seat: int | None) -> dict[str, Any]:
        game = self.runtime.rules_for(loaded.meta)      # the rules the game keeps
        result = game.result(loaded.state)
        status = loaded.meta.get("status")
        return {
            "id": loaded.game_id, "game": game.name, "version": loaded.version,
            "status": status if status in ("waiting", "cancelled", "abandoned") else
            "finished" if result is not None else "active",
            "rematch": loaded.meta.get("rematch"), "rematch_of": loaded.meta.get("rematch_of"),
            "seeded_by_client": gm.seeded_by_client(loaded.meta),
            "to_act": [] if status in ("waiting", "cancelled", "abandoned") else game.to_act(loaded.state),
            "result": result, "you": seat,
            "players": loaded.players, "state": game.view(loaded.state, seat),
            "turn_seconds": turn_clock.turn_seconds(loaded.meta), "deadlines": turn_clock.deadlines(loaded.meta),
            "bot_budget_ms": bot_budget_ms(loaded.meta),
        }
