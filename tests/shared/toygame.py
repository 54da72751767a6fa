"""A tiny game that exercises every platform feature: dice, a hidden card, turns, an end.

"Race to 10": each seat is dealt a secret card (1-9).  On your turn you ``roll`` a die and add
it to your score, or ``hold`` to pass.  Reaching 10 wins; your secret card then counts as a
tie-break (nobody else sees it before the end).  A ``discard`` phase after a 6 asks every
*other* seat to act at once, to test simultaneous actors.
"""
from __future__ import annotations

import os
import random
import time
from typing import Any

from marshmallow import Schema, fields, validate

from shared.game.engine import Event, Game, IllegalMove, Move, NotYourTurn, event, random_strategy
from shared.game.plugin import GamePlugin


class RaceGame(Game):
    name = "race"
    title = "Race to 10"
    min_players = 2
    max_players = 4
    engine_version = "1"

    def default_options(self) -> dict[str, Any]:
        return {"target": 10}

    def setup(self, players: int, options: dict[str, Any], rng: random.Random) -> list[Event]:
        cards = [rng.randint(1, 9) for _ in range(players)]
        return [event("game_started", players=players, target=options["target"]),
                *[event("card_dealt", seat=s, card=c) for s, c in enumerate(cards)]]

    def evolve(self, state: Any, e: Event) -> Any:
        # The platform folds its own records (shared.log.platform_events) past the engine.
        assert not e["type"].startswith("platform."), f"the engine was shown {e['type']}"
        d = e["data"]
        if e["type"] == "game_started":
            return {"players": d["players"], "target": d["target"], "turn": 0, "scores": [0] * d["players"],
                    "cards": [None] * d["players"], "pending": [], "winner": None}
        if e["type"] == "card_dealt":
            state["cards"][d["seat"]] = d["card"]
        elif e["type"] == "rolled":
            state["scores"][d["seat"]] += d["die"]
            if d["die"] == 6:
                state["pending"] = [s for s in range(state["players"]) if s != d["seat"]]
        elif e["type"] == "acknowledged":
            state["pending"].remove(d["seat"])
        elif e["type"] == "turn_passed":
            state["turn"] = d["to"]
        elif e["type"] == "won":
            state["winner"] = d["seat"]
        return state

    def to_act(self, state: Any) -> list[int]:
        if state["winner"] is not None:
            return []
        return list(state["pending"]) or [state["turn"]]

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        if state["pending"]:
            return [{"type": "ack"}]
        return [{"type": "roll"}, {"type": "hold"}]

    def decide(self, state: Any, seat: int, move: Move, rng: random.Random) -> list[Event]:
        if seat not in self.to_act(state):
            raise NotYourTurn()
        if state["pending"]:
            if move["type"] != "ack":
                raise IllegalMove("must-acknowledge", "Everyone acknowledges a 6 before play goes on.")
            return [event("acknowledged", seat=seat)]
        if move["type"] == "ack":
            raise IllegalMove("nothing-to-acknowledge", "There is no 6 to acknowledge.")
        if move["type"] == "hold" and os.environ.get("SLOW_HOLD_SECONDS"):
            # A request that takes a while (the graceful-stop tests stop the server under it); with
            # SLOW_HOLD_MARKS set, it appends ``hold <pid>`` to that file as it starts to wait.
            if os.environ.get("SLOW_HOLD_MARKS"):
                with open(os.environ["SLOW_HOLD_MARKS"], "a", encoding="utf-8") as marks:
                    marks.write(f"hold {os.getpid()}\n")
            time.sleep(float(os.environ["SLOW_HOLD_SECONDS"]))
        out: list[Event] = []
        if move["type"] == "roll":
            die = rng.randint(1, 6)
            out.append(event("rolled", seat=seat, die=die))
            if state["scores"][seat] + die >= state["target"]:
                return out + [event("won", seat=seat)]
        return out + [event("turn_passed", to=(seat + 1) % state["players"])]

    def result(self, state: Any) -> dict[str, Any] | None:
        if state["winner"] is None:
            return None
        return {"winners": [state["winner"]], "scores": state["scores"]}

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return {"scores": state["scores"], "turn": state["turn"], "pending": state["pending"],
                "your_card": state["cards"][seat] if seat is not None else None}

    def conceal(self, state: Any, seat: int, rng: random.Random) -> Any:
        # The others' cards were dealt independently: their resampling is a fresh deal.
        state = self.copy(state)
        if state["winner"] is None:
            state["cards"] = [card if s == seat else rng.randint(1, 9) for s, card in enumerate(state["cards"])]
        return state

    def redact(self, e: Event, seat: int | None) -> Event:
        assert not e["type"].startswith("platform."), f"the engine was asked to redact {e['type']}"
        if e["type"] == "card_dealt" and e["data"]["seat"] != seat:
            return {"type": e["type"], "data": {"seat": e["data"]["seat"], "card": None}}
        return e


class RaceOptions(Schema):
    target = fields.Int(load_default=10, validate=validate.Range(min=2, max=100))


class Empty(Schema):
    pass


def hold_then_roll(game: Game, state: Any, seat: int, rng: random.Random) -> Move:
    return {"type": "roll"} if {"type": "roll"} in game.legal_moves(state, seat) else random_strategy(game, state, seat, rng)


PLUGIN = GamePlugin(game=RaceGame(), options_schema=RaceOptions,
                    move_schemas={"roll": Empty, "hold": Empty, "ack": Empty},
                    strategies={"random": random_strategy, "roller": hold_then_roll}, port=8999,
                    fallback_bot="roller")


def slow_roller(game: Game, state: Any, seat: int, rng: random.Random) -> Move:
    """A bot that thinks for a while: the fault tests kill its worker mid-thought.  With
    ``SLOW_BOT_MARKS`` set it appends ``start <pid>`` and ``done <pid>`` lines to that file, so a
    test can tell a turn that was cut short from one that ended."""
    marks = os.environ.get("SLOW_BOT_MARKS")

    def mark(what: str) -> None:
        if marks:
            with open(marks, "a", encoding="utf-8") as out:
                out.write(f"{what} {os.getpid()}\n")

    mark("start")
    time.sleep(float(os.environ.get("SLOW_BOT_SECONDS", "2")))
    mark("done")
    return hold_then_roll(game, state, seat, rng)


PLUGIN.strategies["slow"] = slow_roller
