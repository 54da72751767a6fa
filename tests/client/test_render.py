"""The text renderers on real views of every game whose engine imports: they never crash."""
from __future__ import annotations

import importlib
import json
import random
from typing import Any

import pytest

from shared.game.engine import random_strategy
from shared.text.render import (Context, describe_event, describe_move, event_words, render_replay, render_state,
                                render_view, seat_scores)
from shared.text.render.common import describe_event_generic, describe_generic, generic_state, terminal_safe

GAMES = ("catan", "elasund", "elfenland", "elastium")
# What only each game's own renderer writes (the generic layout writes none of it).
OWN_WORDS = {"catan": ("Board (hex", "Bank:", "Harbours:"), "elasund": ("Building stock:", "Church:"),
             "elfenland": ("Elves:", "towns visited"), "elastium": ("Market:", "Pegs (")}


PLAYERS = [{"seat": 0, "name": "me", "bot": None}, {"seat": 1, "name": "bob", "bot": "random"},
           {"seat": 2, "name": "eve", "bot": "random"}]


def load_game(name: str) -> Any:
    """The game's engine; a game that fails to import fails the test (never skips it)."""
    return importlib.import_module(f"services.{name}.api").PLUGIN.game


def view_of(game: Any, state: Any, seat: int | None) -> dict[str, Any]:
    result = game.result(state)
    return {"id": "g1", "game": game.name, "version": 1, "status": "finished" if result else "active",
            "to_act": game.to_act(state), "result": result, "you": seat, "players": PLAYERS,
            "state": game.view(state, seat)}


@pytest.mark.parametrize("name", GAMES)
def test_renderers_on_real_views_of_a_random_game(name: str) -> None:
    game = load_game(name)
    rng = random.Random(4)
    state = game.replay(game.setup(3, game.default_options(), rng))
    checked = own_words = 0
    for step in range(3000):
        if game.result(state) is not None:
            break
        acting = game.to_act(state)
        seat = acting[0]
        if step % 15 == 0:
            view = view_of(game, state, seat)
            text = render_view(view)
            if name != "elasund":          # Elasund shows the hand of the seat to act only
                assert "Your hand" in text, text
            # The game's own renderer ran (not the generic fallback), for the seat and a spectator.
            for shown in (text, render_view(view_of(game, state, None))):
                assert shown.splitlines()[2].lower().startswith(name), shown
                assert all(words in shown for words in OWN_WORDS[name]), shown
            own = importlib.import_module(f"services.{name}.render").describe_move
            for move in game.legal_moves(state, seat):
                line = describe_move(move, name, view["state"])
                assert line and "\n" not in line
                assert line == terminal_safe(str(own(move, view["state"])), keep_newlines=False)
                own_words += line != describe_generic(move)
            checked += 1
        move = random_strategy(game, state, seat, rng)
        for e in game.decide(state, seat, move, rng):
            state = game.evolve(state, e)
    final = render_view(view_of(game, state, 0))
    if game.result(state) is not None:
        assert "Game over" in final
    assert checked >= 3 and own_words > 0


@pytest.mark.parametrize("name", [*GAMES, "unknown-game", None])
@pytest.mark.parametrize("state", [
    {}, {"players": 3}, {"seats": [None, 1, "x"], "board": [], "hands": {}, "buildings": [1], "dice": [1]},
    {"players": "two", "score": None, "market": 3, "bands": [None], "walls": {"A": 1}, "permits": {"x": 5}},
    {"board": {"terrains": ["forest"], "numbers": None}, "node_owner": 5, "seats": [{"seat": 0}]},
    [], None, "text",
])
def test_renderers_never_crash_on_partial_or_odd_views(name: str | None, state: Any) -> None:
    ctx = Context(players=[{"seat": 0}, "odd"], you=0, to_act=[0])
    text = render_state(name, state, ctx)
    # A game's renderer reads only its own view's type (VIEW_TYPE, whose keys the platform checks
    # first); anything else, and a game without a renderer, gets the generic key: value lines.
    if isinstance(state, dict):
        assert all(f"{key}:" in text for key in state), text
    else:
        assert text.strip() == (state if isinstance(state, str) else json.dumps(state))
    view = render_view({"game": name, "state": state, "to_act": None, "players": None})
    assert view.startswith(f"{name or 'game'}  version ?") or view.startswith(f"{name} ")
    assert "Game over. Winner: seat 0" in render_replay(name, {"version": 3, "state": state, "result": {"winners": [0]}})
    assert "road" in describe_move({"type": "build_road", "edge": 999}, name, state)
    assert "3" in describe_move({"type": "build_settlement", "node": 3}, name, state)
    assert "band" in describe_move({"type": "place_band"}, name, state)
    assert "travel" in describe_move({"type": "travel", "cards": None}, name, state)
    assert describe_move({}, name, state) == "?" and describe_move("roll", name, state) == "roll"
    # An event the game does not know, or one whose data is odd: generic words, who and what.
    event = {"seq": 1, "type": "x_happened", "data": {"n": 2}, "cause": {"kind": "move", "seat": 0}}
    assert describe_event(event, name, ctx) == "#1    seat 0: x happened, n 2"
    odd = {"seq": 2, "type": "dice_rolled", "data": {"seat": 1, "dice": "x"}}
    assert describe_event(odd, name, ctx).startswith("#2    seat 1: dice rolled")
    assert describe_event("odd", name) == "odd"


def test_a_failing_renderer_falls_back_to_the_generic_layout_and_fails_in_strict_mode(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any) -> str:
        raise KeyError("a bug in the renderer")
    catan = importlib.import_module("services.catan.render")
    for function in ("render_state", "describe_move", "describe_event", "scores"):
        monkeypatch.setattr(catan, function, broken)
    game = load_game("catan")
    state = game.view(game.replay(game.setup(3, game.default_options(), random.Random(0))), None)   # a whole view
    event = {"seq": 1, "type": "dice_rolled", "data": {"seat": 0, "dice": [1, 2]}}
    monkeypatch.setenv("BOARDGAMES_STRICT", "0")            # a client or a server: the page goes on
    assert render_state("catan", state) == generic_state(state)
    assert describe_move({"type": "roll"}, "catan") == "roll"
    assert event_words("catan", event, ["ann"]) == describe_event_generic(event, ["ann"])
    assert seat_scores("catan", state) is None
    monkeypatch.setenv("BOARDGAMES_STRICT", "1")            # the tests: the bug shows
    for call in (lambda: render_state("catan", state), lambda: describe_move({"type": "roll"}, "catan"),
                 lambda: event_words("catan", event, ["ann"]), lambda: seat_scores("catan", state)):
        with pytest.raises(KeyError, match="a bug in the renderer"):
            call()


def test_generic_fallback_and_descriptions_read_well() -> None:
    text = render_state("not-a-game", {"score": [1, 2], "nested": {"a": list(range(60))}, "flag": True})
    assert "score: [1,2]" in text and "nested:" in text
    assert describe_move({"type": "bank_trade", "give": "wool", "get": "ore"}) == "bank trade: give wool, get ore"
    assert describe_move({"type": "discard", "resources": {"grain": 2, "ore": 0}}) == "discard: resources 2 grain"
    assert describe_move({"type": "secret_counter", "reveal": True}) == "secret counter: reveal yes"
    assert describe_move({"type": "roll"}, "catan") == "roll the dice"
    event = {"seq": 7, "type": "dice_rolled", "data": {"seat": 1, "dice": [3, 4]},
             "cause": {"kind": "move", "seat": 1, "move": {"type": "roll"}}}
    ctx = Context(players=PLAYERS)
    assert describe_event(event, "catan", ctx) == "#7    bob rolls 3+4 = 7"
    # Platform events (seats joining...) read in the same generic words for every game.
    joined = {"seq": 1, "type": "platform.seat_joined", "data": {"seat": 2, "name": "eve"}}
    assert describe_event(joined, "catan", ctx) == "#1    eve: seat joined, name eve"


def test_elastium_shows_the_pegs_with_colours_and_holders() -> None:
    game = load_game("elastium")
    view = game.view(game.replay(game.setup(2, {"scenario": "volcano"}, random.Random(0))), None)
    view["peg_owners"] = {"c3r7": [1], "c0r0": [0, 1]}
    lines = render_state("elastium", view, Context()).splitlines()
    grid = {line.split()[0]: line for line in lines if line.startswith("  r")}
    assert list(grid) == [f"r{row}" for row in range(9, -1, -1)]
    assert grid["r0"].split()[1:3] == ["b01", "r"]        # c0r0 is bleu, held by seats 0 and 1
    assert grid["r7"].split()[4] == "j1"                   # c3r7: jaune, seat 1
    assert grid["r5"].split()[4] == "x"                    # the crater peg c3r5 takes no band
    assert "Pegs (" not in render_state("elastium", {**view, "scenario": "nowhere"}, Context())   # no grid, no crash


def test_elfenland_names_the_towns_a_road_joins() -> None:
    assert describe_move({"type": "travel", "road": 3, "cards": ["raft"]}, "elfenland") == \
        "travel along road 3 (Jxara-Virst, plain) using raft"
    assert describe_move({"type": "place_counter", "road": 99, "counter": "giant_pig"}, "elfenland") == \
        "place giant pig on road 99"
    game = load_game("elfenland")
    view = game.view(game.replay(game.setup(2, game.default_options(), random.Random(0))), None)
    view["board"] = {"0": {"transports": ["dragon"], "obstacle": None, "gold": False, "double": False}}
    assert "  road 0 (Beata-Elvenhold, plain): dragon" in render_state("elfenland", view, Context())


def test_catan_trade_offer_reads_from_the_answering_seat() -> None:
    # A whole view (the renderer reads nothing short of one) with the offer under test in it.
    game = load_game("catan")
    view = game.view(game.replay(game.setup(4, game.default_options(), random.Random(1))), 0)
    offer = {"seat": 1, "give": {"grain": 1}, "get": {"ore": 1}, "answers": [None, False, None, True],
             "counters": [None] * 4}
    state = {**view, "offer": offer}
    text = render_state("catan", state, Context(players=PLAYERS))
    assert text.splitlines()[-1] == "Trade offer from seat 1 (bob, bot:random): gives 1 grain for 1 ore; seat 3 accepts"
    assert describe_move({"type": "answer_trade", "accept": False}, "catan", state) == \
        "decline the trade offer (you give 1 ore, get 1 grain)"
    assert describe_move({"type": "confirm_trade", "seat": 3}, "catan") == "trade with seat 3, who accepted"


@pytest.mark.parametrize("name", GAMES)
def test_player_text_never_reaches_the_terminal_as_control_characters(name: str) -> None:
    """A server may be old or hostile: names with escapes are shown escaped, never acted on."""
    import io

    from shared.client.cli import Terminal

    game = load_game(name)
    state = game.replay(game.setup(3, game.default_options(), random.Random(1)))
    evil = [{**p, "name": f"{p['name']}\x1b[2J\u202e\n\x07"} for p in PLAYERS]
    view = {**view_of(game, state, 0), "players": evil, "seeded_by_client": True}
    ctx = Context(players=evil, you=0, to_act=game.to_act(state))
    event = {"seq": 2, "type": "x\x1b]0;title\x07", "data": {"note": "\x1b[31m"},
             "cause": {"kind": "move", "seat": 1, "move": {"type": "roll\x1b[1A"}}}
    texts = [render_view(view), render_replay(name, {"version": 1, "status": "active", "to_act": [1],
                                                     "result": None, "state": view["state"]}, evil),
             render_state(name, view["state"], ctx), describe_event(event, name, ctx),
             describe_move({"type": "x\x1b[2J", "n": "\u2066"}, name)]
    out = io.StringIO()
    Terminal(io.StringIO(), out).say("problem: \x1b[2J\r")
    texts.append(out.getvalue())
    for text in texts:
        assert not any(c in text for c in "\x1b\u202e\u2066\x07\r"), repr(text)
    assert "bob\\x1b[2J\\u202e\\n\\x07" in render_view(view)
    assert "Seeded by its creator" in render_view(view)


NAMES = ["ann", "bob", "cy"]
EVENT_WORDS = [
    ("catan", {"type": "settlement_built", "data": {"seat": 1, "node": 12, "free": True}},
     "bob builds a settlement at node 12 (free)"),
    ("catan", {"type": "resources_produced", "data": {"gains": [{}, {"ore": 2}, {"wool": 1, "brick": 1}],
                                                      "shortages": []}},
     "bob gets 2 ore; cy gets 1 wool, 1 brick"),
    ("catan", {"type": "card_stolen", "data": {"seat": 2, "victim": 0, "resource": None}},
     "cy steals a card from ann"),
    ("catan", {"type": "bank_traded", "data": {"seat": 0, "give": "wool", "count": 3, "get": "ore"}},
     "ann trades 3 wool with the bank for 1 ore"),
    ("elasund", {"type": "permit_placed", "data": {"seat": 0, "value": 3, "col": 2, "row": 11}},
     "ann places a permit of value 3 at column 2, row 11"),
    ("elasund", {"type": "cards_drawn", "data": {"seat": 2, "gold": 1, "influence": [None, None]}},
     "cy draws 1 gold and 2 influence"),
    ("elasund", {"type": "cards_drawn", "data": {"seat": 1, "gold": 2, "influence": []}}, "bob draws 2 gold"),
    ("elfenland", {"type": "travelled", "data": {"seat": 1, "road": 3, "to": "Virst", "cards": ["raft", "raft"],
                                                 "coins": 0, "earned": 4}},
     "bob travels to Virst along road 3 (Jxara-Virst, plain) with 2 raft, earning 4 gold"),
    ("elfenland", {"type": "counter_placed", "data": {"seat": 0, "counter": "giant_pig", "road": 16}},
     "ann places giant pig on road 16 (Lapphalya-Rivinia, forest)"),
    ("elfenland", {"type": "bid_placed", "data": {"seat": 2, "amount": 7}}, "cy bids 7 gold"),
    ("elastium", {"type": "band_placed", "data": {"seat": 1, "pegs": ["c0r0", "c1r0", "c0r1"], "explored": ["a"],
                                                  "enclosed": []}},
     "bob stretches a band over 3 pegs (c0r0, c1r0, c0r1), exploring 1"),
    ("elastium", {"type": "game_ended", "data": {"winners": [1], "scores": [9, 23]}},
     "the game ends: ann 9, bob 23; winner bob"),
]


@pytest.mark.parametrize("name,event,text", EVENT_WORDS, ids=[f"{g}-{e['type']}" for g, e, _ in EVENT_WORDS])
def test_each_game_describes_its_events_in_words(name: str, event: dict[str, Any], text: str) -> None:
    assert event_words(name, event, NAMES) == text
    # A seat without a name in the list reads as "seat N".
    assert "seat" in event_words(name, {**event, "data": {**event["data"], "seat": 3}}, NAMES) \
        or "seat" not in event["data"]


@pytest.mark.parametrize("name", GAMES)
def test_every_event_of_a_random_game_reads_in_the_games_own_words(name: str) -> None:
    """No event of a played game falls back to the raw generic words (type name and data dump)."""
    game = load_game(name)
    rng = random.Random(5)
    records = game.setup(3, game.default_options(), rng)
    state = game.replay(records)
    for _ in range(400):
        if game.result(state) is not None:
            break
        seat = game.to_act(state)[0]
        for e in game.decide(state, seat, random_strategy(game, state, seat, rng), rng):
            records.append(e)
            state = game.evolve(state, e)
    generic = {e["type"] for e in records
               if event_words(name, e, NAMES) == event_words("no-such-game", e, NAMES)}
    assert not generic, generic


def test_each_game_words_its_scores() -> None:
    from shared.text.render import seat_scores

    assert seat_scores("catan", {"seats": [{"points": 7}, {"public_points": 3, "points": None}]}) == ["7 VP", "3 VP"]
    assert seat_scores("elasund", {"cubes_on_board": [8, 10]}) == ["8 cubes", "10 cubes"]
    assert seat_scores("elfenland", {"seats": [{"visited": ["Jxara", "Virst"]}, {"visited": []}]}) == ["2 towns", "0 towns"]
    assert seat_scores("elastium", {"score": [9, 23]}) == ["9 points", "23 points"]
    assert seat_scores("no-such-game", {"score": [1]}) is None and seat_scores("catan", "odd") is None
