"""The search bots (shared.play.search): what the search decides, its budget, and the budget's way
from ``POST /games`` to the worker that plays the turn (a real Redis)."""
from __future__ import annotations

import functools
import random
import time
from collections import Counter
from typing import Any

import pytest
import redis

from shared.game import registry
from shared.play.bots import play_bot_turn_with
from shared.game.engine import Game, IllegalMove, Move, State, play_fair
from shared.log.eventstore import EventStore
from shared.play.runtime import GameRuntime
from shared.play.search import DEFAULT_BUDGET_MS, ExpertBot
from tests.shared.conftest import auth
from tests.shared.test_clocks import clocked_client
from tests.shared.toygame import PLUGIN as RACE
from tests.shared.toygame import RaceGame

GAME = RaceGame()


def always_hold(game: Game, state: State, seat: int, rng: random.Random) -> Move:
    """A policy that never gets anywhere in Race to 10 (acknowledging a 6 when it must)."""
    moves = game.legal_moves(state, seat)
    return {"type": "hold"} if {"type": "hold"} in moves else moves[0]


def always_roll(game: Game, state: State, seat: int, rng: random.Random) -> Move:
    moves = game.legal_moves(state, seat)
    return {"type": "roll"} if {"type": "roll"} in moves else moves[0]


def scores(state: State) -> list[float]:
    return [float(s) for s in state["scores"]]


def race_state(seed: int = 3) -> State:
    return GAME.replay(GAME.setup(3, {"target": 10}, random.Random(seed)))


def test_the_search_overrules_a_policy_when_the_playouts_show_a_better_move() -> None:
    # The policy holds; the playouts (the policy again, for everyone) show that a roll gains points.
    bot = ExpertBot(always_hold, scores, horizon=3, sharpness=1.0)
    move = bot(GAME, race_state(), 0, random.Random(1), iterations=60)
    assert move == {"type": "roll"}
    assert bot.last_report is not None and bot.last_report.candidates == 2 and bot.last_report.playouts >= 60


def test_a_same_kind_search_never_trades_the_favourites_kind_for_another() -> None:
    # Rolling is better (the test above), but it is not the kind of move the policy chose.
    bot = ExpertBot(always_hold, scores, horizon=3, sharpness=1.0, same_kind=True)
    assert bot(GAME, race_state(), 0, random.Random(1), iterations=60) == {"type": "hold"}
    assert bot.last_report is not None and bot.last_report.candidates == 1


class BrokenWorlds(RaceGame):
    """A game whose determinized worlds can leave a seat to act with no move (an inconsistent deal)."""

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return [] if sum(state["scores"]) else super().legal_moves(state, seat)


def test_a_world_that_cannot_go_on_ends_the_playout_and_is_scored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDGAMES_STRICT", "0")        # a service's search plays on
    def failing_policy(game: Game, state: State, seat: int, rng: random.Random) -> Move:
        if sum(state["scores"]):
            raise RuntimeError("no move here")
        return {"type": "hold"}
    bot = ExpertBot(failing_policy, scores, horizon=5, sharpness=1.0)
    game = BrokenWorlds()
    move = bot(game, game.replay(game.setup(3, {"target": 10}, random.Random(2))), 0, random.Random(2), iterations=30)
    assert move in ({"type": "roll"}, {"type": "hold"})
    assert bot.last_report is not None and bot.last_report.playouts >= 30


class BuggyEngine(RaceGame):
    """An engine with a bug that shows once a seat has points: its decide fails (not a refusal)."""

    def decide(self, state: State, seat: int, move: Move, rng: random.Random) -> list[Any]:
        if sum(state["scores"]):
            raise KeyError("a bug in decide")
        return super().decide(state, seat, move, rng)


class RefusingWorlds(RaceGame):
    def decide(self, state: State, seat: int, move: Move, rng: random.Random) -> list[Any]:
        if sum(state["scores"]):
            raise IllegalMove("not-here", "This world refuses the move.")
        return super().decide(state, seat, move, rng)


def test_in_strict_mode_an_engine_error_inside_the_search_fails_instead_of_ending_the_playout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = BuggyEngine()
    state = game.replay(game.setup(3, {"target": 10}, random.Random(2)))
    bot = ExpertBot(always_roll, scores, horizon=5, sharpness=1.0)
    monkeypatch.setenv("BOARDGAMES_STRICT", "0")
    assert bot(game, state, 0, random.Random(2), iterations=30) in ({"type": "roll"}, {"type": "hold"})
    monkeypatch.setenv("BOARDGAMES_STRICT", "1")
    with pytest.raises(KeyError, match="a bug in decide"):
        bot(game, state, 0, random.Random(2), iterations=30)
    # A move a world refuses (a determinization the seat could not tell apart) still only ends
    # its playout.
    assert bot(RefusingWorlds(), state, 0, random.Random(2), iterations=30) in ({"type": "roll"}, {"type": "hold"})


def test_near_the_end_playouts_go_to_the_end_and_count_who_wins() -> None:
    # A value function that misleads (it dislikes one's own points): one ply deep it talks the bot out
    # of rolling; played to the end, rolling first wins more often, and nothing argues against it.
    def misleading(state: State) -> list[float]:
        return [-float(score) for score in state["scores"]]
    short = ExpertBot(always_roll, misleading, horizon=1, sharpness=1.0)
    assert short(GAME, race_state(), 0, random.Random(4), iterations=80) == {"type": "hold"}
    to_the_end = ExpertBot(always_roll, misleading, horizon=1, sharpness=1.0, endgame=lambda state: True)
    assert to_the_end(GAME, race_state(), 0, random.Random(4), iterations=80) == {"type": "roll"}


def test_the_search_keeps_the_favourite_when_nothing_is_better() -> None:
    # Both moves score the same: an evaluation that ignores the dice gives no reason to switch.
    bot = ExpertBot(always_hold, lambda state: [0.0] * state["players"], horizon=3, sharpness=1.0)
    for seed in range(5):
        assert bot(GAME, race_state(seed), 0, random.Random(seed), iterations=40) == {"type": "hold"}


def test_a_fixed_effort_makes_the_move_a_function_of_the_state_and_the_rng() -> None:
    plugin = registry.plugin("catan")
    game, expert = plugin.game, plugin.strategies["expert"]
    rng = random.Random(5)
    state = game.replay(game.setup(3, game.default_options(), rng))
    for _ in range(60):                                  # into the first turns, past set-up
        seat = game.to_act(state)[0]
        for e in game.decide(state, seat, plugin.strategies["greedy"](game, state, seat, rng), rng):
            state = game.evolve(state, e)
    seat = game.to_act(state)[0]
    moves = [expert(game, game.copy(state), seat, random.Random(9), iterations=30) for _ in range(2)]
    assert moves[0] == moves[1]
    assert moves[0] in game.legal_moves(state, seat) or moves[0]["type"] in ("offer_trade", "counter_trade")


@pytest.mark.parametrize("name", sorted(registry.available()))
@pytest.mark.slow
def test_every_game_has_an_expert_that_answers_within_its_budget(name: str) -> None:
    plugin = registry.plugin(name)
    game, expert = plugin.game, plugin.strategies["expert"]
    rng = random.Random(11)
    state = game.replay(game.setup(3, game.default_options(), rng))
    searched = 0
    for _ in range(40):
        if game.result(state) is not None:
            break
        seat = rng.choice(game.to_act(state))
        started = time.perf_counter()
        move = expert(game, game.conceal(state, seat, rng), seat, rng, budget_ms=40)
        elapsed = time.perf_counter() - started
        report = expert.last_report
        assert report is not None and report.move == move
        if report.candidates > 1:
            searched += 1
            assert report.playouts >= 1
            # The budget bounds the rounds it starts: one round may run past it, never a second.
            assert elapsed < 0.040 + report.seconds / max(report.rounds, 1) + 0.5
        events = game.decide(state, seat, move, rng)          # a legal move in the real game
        for e in events:
            state = game.evolve(state, e)
    assert searched, "no decision of the expert had a choice to make"


def test_the_budget_goes_from_the_game_to_the_bot(redis_url: str, redis_client: Any,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``POST /games`` takes ``bot_budget_ms`` (within bounds), the game shows it and its setup
    records it, and the worker hands it to a search bot."""
    client = next(clocked_client(RACE, redis_url, monkeypatch))
    players = [{"name": "a"}, {"name": "b", "bot": "roller"}]
    for bad in (0, 19, 2001, "300", 1.5):
        resp = client.post("/games", json={"players": players, "bot_budget_ms": bad})
        assert resp.status_code == 422, (bad, resp.get_json())
    resp = client.post("/games", json={"players": players, "bot_budget_ms": 350})
    assert resp.status_code == 201, resp.get_json()
    game_id = resp.get_json()["id"]
    view = client.get(f"/games/{game_id}").get_json()
    assert view["bot_budget_ms"] == 350
    first = client.get(f"/games/{game_id}/events").get_json()["events"][0]
    assert first["cause"]["bot_budget_ms"] == 350
    plain = client.post("/games", json={"players": players}).get_json()["id"]
    assert client.get(f"/games/{plain}").get_json()["bot_budget_ms"] is None

    budgets: list[int | None] = []

    class Thinker:
        takes_budget = True

        def __call__(self, game: Game, state: State, seat: int, rng: random.Random,
                     budget_ms: int | None = None) -> Move:
            budgets.append(budget_ms)
            return always_roll(game, state, seat, rng)

    runtime = GameRuntime(RACE.game, EventStore(redis.Redis.from_url(redis_url)))
    for gid in (game_id, plain):
        created, _, _ = runtime.create([{"name": "x", "bot": "thinker"}] * 2, {"target": 10},
                                       bot_budget_ms=120 if gid == game_id else None)
        loaded = runtime.load(created)
        seat = RACE.game.to_act(loaded.state)[0]
        assert play_bot_turn_with(runtime, {"thinker": Thinker()}, created, loaded.version, seat)["played"]
    assert budgets == [120, None]
    assert DEFAULT_BUDGET_MS == 200


def test_a_rematch_keeps_the_bots_budget(redis_url: str, redis_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.shared.test_seats import play_to_the_end
    client = next(clocked_client(RACE, redis_url, monkeypatch))
    created = client.post("/games", json={"players": [{"name": "a"}, {"name": "b"}], "bot_budget_ms": 700}).get_json()
    gid, tokens = created["id"], [p["token"] for p in created["players"]]
    play_to_the_end(client, gid, tokens)
    new = client.post(f"/games/{gid}/rematch", headers=auth(tokens[0])).get_json()["id"]
    assert client.get(f"/games/{new}").get_json()["bot_budget_ms"] == 700
    assert client.get(f"/games/{new}/events").get_json()["events"][0]["cause"]["bot_budget_ms"] == 700


@pytest.mark.slow
def test_catans_expert_makes_answers_and_counters_trade_offers() -> None:
    """Offers and counter-offers are not in legal_moves (their terms are free): the expert adds its
    own candidates for them, and plays all three kinds in games against greedy bots."""
    plugin = registry.plugin("catan")
    game = plugin.game
    expert = functools.partial(plugin.strategies["expert"], iterations=24)
    made: Counter[str] = Counter()
    for seed in (40, 41):
        rng = random.Random(seed)
        state = game.replay(game.setup(3, game.default_options(), rng))
        while game.result(state) is None:
            acting = game.to_act(state)
            seat = acting[0] if len(acting) == 1 else acting[rng.randrange(len(acting))]
            move = play_fair(game, expert if seat == 0 else plugin.strategies["greedy"], state, seat, rng, rng)
            made[move["type"]] += seat == 0
            for e in game.decide(state, seat, move, rng):
                state = game.evolve(state, e)
    assert made["offer_trade"] and made["answer_trade"] and made["counter_trade"], made
