"""Seats that change hands: open seats taken and left, a waiting game cancelled, a seat resigned
to a bot, and the rematch of a finished game.

Every change is a platform event (:mod:`shared.log.platform_events`) appended with the version and
head the decision was made on, together with the meta fields it changes (players, token hashes,
status).  So the log's compare-and-append decides races: of twenty joiners for one seat, one
append succeeds and the others, judging again on the log, find the seat taken.

The meta of a game with seats to take holds, besides the usual fields:
``host`` the hash of the host token (answered once at creation: it may cancel the waiting game),
``reserved`` (a rematch) a JSON list, per seat, of the hash of the token that seat had in the
previous game (None: anyone may take it), ``rematch_of`` / ``rematch`` the links between games.
"""
from __future__ import annotations

import hmac
import time
from typing import Any

from shared.play import turn_clock
from shared.play import meta as gm
from shared.log import platform_events as pe, proofs
from shared.play.auth import hash_token, new_token
from shared.log.eventstore import AppendResult
from shared.play.problems import Problem
from shared.play.runtime import GameRuntime, LoadedGame, game_abandoned, game_cancelled, new_game_id
from shared.play.search import bot_budget_ms

ATTEMPTS = 64      # each conflict is somebody else's accepted append: the loop always ends


def _same_hash(token: str | None, stored: str | None) -> bool:
    return bool(token) and bool(stored) and hmac.compare_digest(hash_token(token or "").encode(),
                                                                (stored or "").encode())


class Seats:
    def __init__(self, runtime: GameRuntime, takeover_bot: str) -> None:
        self.runtime = runtime
        self.takeover_bot = takeover_bot

    # -- creating -------------------------------------------------------------------------------
    def create(self, players: list[dict[str, Any]], options: dict[str, Any], seed: int | None,
               listed: bool, turn_seconds: int | None = None, fallback_bot: str | None = None,
               bot_budget_ms: int | None = None) -> dict[str, Any]:
        """``POST /games``: the game, and a host token when seats are open (it may cancel)."""
        game_id = new_game_id()
        host = f"{game_id}.{new_token()}" if any(p.get("open") for p in players) else None
        extra = {"host": hash_token(host)} if host else {}
        game_id, version, seats = self.runtime.create(players, options, seed, listed=listed,
                                                      extra_meta=extra, game_id=game_id,
                                                      turn_seconds=turn_seconds, fallback_bot=fallback_bot,
                                                      bot_budget_ms=bot_budget_ms)
        body: dict[str, Any] = {"id": game_id, "version": version, "players": seats}
        if host:
            body["host_token"] = host
        return body

    # -- taking and leaving a seat -------------------------------------------------------------
    def take(self, game_id: str, seat: int, name: str | None, old_token: str | None) -> dict[str, Any]:
        """Take open ``seat``; the game starts when it was the last one.  A reserved seat (a
        rematch) is taken with the previous game's token of that seat (``old_token``)."""
        for _ in range(ATTEMPTS):
            loaded = self.runtime.load(game_id)
            meta, players = loaded.meta, loaded.players
            self._check_seat(players, seat)
            self._check_not_cancelled(meta)
            player = players[seat]
            if meta.get("status") != "waiting" or not player.get("open"):
                raise Problem("seat-taken", f"Seat {seat} is already taken.")
            if player.get("reserved"):
                reserved = gm.reserved_of(meta)
                if not _same_hash(old_token, reserved[seat] if seat < len(reserved) else None):
                    raise Problem("seat-reserved", f"Seat {seat} is kept for its player in the previous game: "
                                  "send that game's token (Authorization: Bearer <old token>).")
                name = name or player.get("name")
            if not name:
                raise Problem("validation-error", "Give the name to show at the table.",
                              errors=[{"detail": "Missing data for required field.", "pointer": "/name"}])
            token = f"{game_id}.{new_token()}"
            players[seat] = {"seat": seat, "name": name, "bot": None}
            tokens = gm.tokens_of(meta)
            tokens[seat] = hash_token(token)
            events = [{"type": pe.SEAT_JOINED, "data": {"seat": seat, "name": name}}]
            fields = gm.seat_fields(players, tokens)
            starts = not any(p.get("open") for p in players)
            if starts:
                events.append({"type": pe.GAME_STARTED, "data": {}})
                fields.update(self.runtime.status_fields(self.runtime.rules_for(meta), loaded.state))
            result = self.runtime.append_platform(loaded, events, seat, fields)
            if result.status != "OK":
                continue
            if starts:
                self._started(loaded, result, fields["players"])
            return {"id": game_id, "version": result.version, "seat": seat, "name": name, "bot": None,
                    "token": token, "started": starts}
        raise self._busy()

    def _started(self, loaded: LoadedGame, result: AppendResult, players_field: str) -> None:
        runtime = self.runtime
        runtime.relist(loaded.game_id, loaded.meta, "active")
        runtime.notify_acting_bots(loaded.game_id, result.version, loaded.state, players_field,
                                   runtime.rules_for(loaded.meta))

    def leave(self, game_id: str, seat: int) -> int:
        """The holder of ``seat`` (authenticated by the caller) gives it up before the start."""
        for _ in range(ATTEMPTS):
            loaded = self.runtime.load(game_id)
            self._check_waiting(loaded.meta)
            players = loaded.players
            if players[seat].get("open"):
                raise Problem("seat-open", f"Seat {seat} is not taken.")   # left already
            reserved = gm.reserved_of(loaded.meta)
            kept = seat < len(reserved) and reserved[seat] is not None
            players[seat] = {"seat": seat, "name": players[seat]["name"] if kept else None, "bot": None,
                             "open": True, **({"reserved": True} if kept else {})}
            tokens = gm.tokens_of(loaded.meta)
            tokens[seat] = None
            result = self.runtime.append_platform(
                loaded, [{"type": pe.SEAT_LEFT, "data": {"seat": seat}}], seat,
                gm.seat_fields(players, tokens))
            if result.status == "OK":
                return result.version
        raise self._busy()

    def cancel(self, game_id: str, host_token: str | None) -> int:
        """The host cancels a waiting game (status ``cancelled``; it leaves the list)."""
        for _ in range(ATTEMPTS):
            loaded = self.runtime.load(game_id)
            if not host_token:
                raise Problem("unauthenticated", "Send the host token answered at creation: "
                              "Authorization: Bearer <host_token>.")
            if not _same_hash(host_token, loaded.meta.get("host")):
                raise Problem("not-host", "Only the game's host token (answered at creation) may cancel it.")
            self._check_waiting(loaded.meta)
            result = self.runtime.append_platform(
                loaded, [{"type": pe.GAME_CANCELLED, "data": {}}], None, {"status": "cancelled", "to_act": "[]"})
            if result.status == "OK":
                self.runtime.best_effort(self.runtime.store.index_active, self.runtime.game.name, game_id, False)
                self.runtime.relist(game_id, loaded.meta, "cancelled")
                return result.version
        raise self._busy()

    # -- resigning ----------------------------------------------------------------------------
    def resign(self, game_id: str, seat: int) -> dict[str, Any]:
        """A bot (the game's rule-of-thumb bot) plays ``seat`` from now on; its token only reads."""
        for _ in range(ATTEMPTS):
            loaded = self.runtime.load(game_id)
            self._check_not_cancelled(loaded.meta)
            if loaded.meta.get("status") == "waiting":
                raise Problem("game-waiting", "The game has not started: leave the seat instead "
                              "(DELETE /games/{id}/seats/{seat}).")
            rules = self.runtime.rules_for(loaded.meta)
            if rules.result(loaded.state) is not None:
                raise Problem("game-over", "The game is over; there is nothing to resign.")
            players = loaded.players
            if players[seat].get("resigned"):
                raise Problem("seat-resigned", f"Seat {seat} has resigned already.")
            players[seat] = {**players[seat], "bot": self.takeover_bot, "resigned": True}
            fields = gm.seat_fields(players)
            result = self.runtime.append_platform(
                loaded, [{"type": pe.SEAT_RESIGNED, "data": {"seat": seat, "bot": self.takeover_bot}}],
                seat, fields)
            if result.status == "OK":
                self.runtime.notify_acting_bots(game_id, result.version, loaded.state, fields["players"], rules)
                return {"version": result.version, "seat": seat, "bot": self.takeover_bot}
        raise self._busy()

    # -- rematch --------------------------------------------------------------------------------
    def rematch(self, game_id: str, seat: int, token: str) -> tuple[dict[str, Any], bool]:
        """The next game of a finished one (same options and seats; bots stay bots, human seats
        are kept for their holders), and whether this call created it (False: it existed)."""
        for _ in range(ATTEMPTS):
            loaded = self.runtime.load(game_id)
            meta = loaded.meta
            if meta.get("rematch"):
                return {"id": meta["rematch"], "rematch_of": game_id}, False
            if meta.get("status") != "finished":
                raise Problem("game-not-finished", "A rematch follows a finished game.")
            new_id = new_game_id()
            # The link first, with the version check: of two rematch calls, one appends and the
            # other, loading again, finds the link and answers the same game.
            result = self.runtime.append_platform(
                loaded, [{"type": pe.REMATCH, "data": {"game_id": new_id}}], seat, {"rematch": new_id})
            if result.status != "OK":
                continue
            old_tokens = gm.tokens_of(meta)
            players: list[dict[str, Any]] = []
            for p in loaded.players:
                if p.get("bot") and not p.get("resigned"):
                    players.append({"name": p["name"], "bot": p["bot"]})
                else:
                    players.append({"name": p["name"], "open": True, "reserved": True})
            extra = {"rematch_of": game_id, "host": hash_token(token),
                     **gm.reserved_field([h if p.get("open") else None for h, p in zip(old_tokens, players)])}
            clock = turn_clock.settings(meta)           # the rematch keeps the turn clock and the bots' budget
            self.runtime.create(players, self.options_of(game_id, meta), None, listed=gm.is_listed(meta, default=True),
                                extra_meta=extra, game_id=new_id, bot_budget_ms=bot_budget_ms(meta), **clock)
            return {"id": new_id, "rematch_of": game_id}, True
        raise self._busy()

    def options_of(self, game_id: str, meta: dict[str, str]) -> dict[str, Any]:
        """The game's options (in the meta; a game created before they were kept there: its setup)."""
        if meta.get("options"):
            return gm.options_of(meta)
        return self.runtime.store.read(game_id, after=0, limit=1)[0]["cause"]["options"]

    # -- checks -------------------------------------------------------------------------------
    @staticmethod
    def _check_seat(players: list[dict[str, Any]], seat: int) -> None:
        if not 0 <= seat < len(players):
            raise Problem("seat-not-found", f"The game has seats 0 to {len(players) - 1}.")

    @staticmethod
    def _check_not_cancelled(meta: dict[str, str]) -> None:
        if meta.get("status") == "cancelled":
            raise game_cancelled()
        if meta.get("status") == "abandoned":
            raise game_abandoned()

    def _check_waiting(self, meta: dict[str, str]) -> None:
        self._check_not_cancelled(meta)
        if meta.get("status") != "waiting":
            raise Problem("game-not-waiting", "The game has started: seats no longer change hands "
                          "(resign instead).")

    @staticmethod
    def _busy() -> Problem:
        return Problem("stale-version", "The game's seats kept changing while this was decided; retry.")


# -- abandoned games (the sweeper) ------------------------------------------------------------------

UNFINISHED = ("waiting", "active")


def last_move_ms(meta: dict[str, str]) -> int:
    """When the game last saw a move (its creation when none): what abandonment is counted from."""
    return int(meta.get("moved_at") or meta.get("created_at") or 0)


def abandon_if_idle(runtime: GameRuntime, game_id: str, after_seconds: int, now_ms: int | None = None) -> int | None:
    """End a game nobody moved in for ``after_seconds``: ``platform.game_abandoned`` goes into its
    log with the status ``abandoned``, followed by ``platform.seed_revealed`` (moves and seat
    changes are refused from then on, its log is public in full, it leaves the index of unfinished
    games and the lists, and keeps the lifetime of a finished game).
    Returns the new version, or None when the game is not (or no longer) to be abandoned."""
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    for _ in range(ATTEMPTS):
        loaded = runtime.load(game_id)
        meta = loaded.meta
        if meta.get("status") not in UNFINISHED or runtime.rules_for(meta).result(loaded.state) is not None:
            return None
        last = last_move_ms(meta)
        if after_seconds <= 0 or now_ms - last < after_seconds * 1000:
            return None
        data = {"status": "abandoned", "result": None, "last_move_at": turn_clock.iso(last),
                "idle_seconds": after_seconds}
        events = [{"type": pe.GAME_ABANDONED, "data": data}]
        if "seed_salt" in meta:
            # The game is over: its seed commitment is opened in the same append, as a finish
            # opens it, so its dice and cards can be checked (shared.log.proofs).
            events.append(proofs.reveal_event(loaded.seed, meta["seed_salt"]))
        result = runtime.append_platform(loaded, events, None, {"status": "abandoned", "to_act": "[]"})
        if result.status != "OK":
            continue                 # it moved meanwhile: judge again
        runtime.best_effort(runtime.store.index_active, runtime.game.name, game_id, False)
        runtime.relist(game_id, meta, "abandoned")
        if meta.get("finished_ttl"):
            runtime.best_effort(runtime.store.set_lifetime, game_id, int(meta["finished_ttl"]))
        return result.version
    return None
