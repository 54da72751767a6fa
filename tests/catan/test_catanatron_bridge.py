"""The catanatron bridge: the id map, the state and move translations, whole games in catanatron."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

catanatron = pytest.importorskip("catanatron")

from catanatron import Color, Game  # noqa: E402
from catanatron.models.board import STATIC_GRAPH, base_map  # noqa: E402
from catanatron.models.coordinate_system import UNIT_VECTORS, add  # noqa: E402
from catanatron.models.map import MINI_MAP_TEMPLATE, CatanMap  # noqa: E402
from catanatron.players.weighted_random import WeightedRandomPlayer  # noqa: E402

from services.catan import catanatron_bridge as bridge  # noqa: E402
from services.catan.bots import STRATEGIES  # noqa: E402
from services.catan.rules import board  # noqa: E402
from services.catan.rules.state import victory_points  # noqa: E402

GAME = bridge.GAME
ROOT = Path(__file__).resolve().parents[2]
COLORS = (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)

pytestmark = pytest.mark.slow      # whole games in catanatron, one in a subprocess (make test-fast leaves it out)


def weighted_game(seed: int) -> Any:
    players = [WeightedRandomPlayer(c) for c in COLORS]
    game = Game(players, seed=seed)
    bridge.seat_players(game, players)
    return game


def tick(game: Any) -> None:
    """One decision, the actions in a stable order (so the test replays the same in any process)."""
    game.play_tick(decide_fn=bridge.decide_in_stable_order)


# -- the id map ----------------------------------------------------------------------------------
def test_the_id_map_is_a_bijection_that_keeps_adjacency() -> None:
    ids = bridge.id_map()
    assert sorted(ids.node_of) == list(range(54)) and sorted(ids.node_of.values()) == list(range(54))
    assert [ids.node_of[ids.their_node[n]] for n in range(54)] == list(range(54))
    assert sorted(ids.hex_of.values()) == list(range(19))
    # Every catanatron edge joins the two nodes of one of our edges, and the 72 are all ours.
    theirs = {tuple(sorted(e)) for e in STATIC_GRAPH.subgraph(base_map.land_nodes).edges()}
    assert len(theirs) == board.EDGE_COUNT
    ours = {ids.edge_of[e] for e in theirs}
    assert ours == set(range(board.EDGE_COUNT))
    for a, b in theirs:
        assert set(board.EDGE_NODES[ids.edge_of[(a, b)]]) == {ids.node_of[a], ids.node_of[b]}
        assert ids.their_edge[ids.edge_of[(a, b)]] == (a, b)
    # Each tile's six nodes are our hex's six corners (in the same clockwise order).
    for coordinate, tile in base_map.land_tiles.items():
        refs = {ref.value: node for ref, node in tile.nodes.items()}
        assert [ids.node_of[refs[r]] for r in bridge.NODE_REFS] == board.HEX_NODES[ids.hex_of[coordinate]]
        # and neighbouring tiles are neighbouring hexes.
        neighbours = {ids.hex_of[c] for c in (add(coordinate, v) for v in UNIT_VECTORS.values())
                      if c in ids.hex_of}
        assert neighbours == set(board.HEX_NEIGHBOURS[ids.hex_of[coordinate]])


def test_harbour_positions_coincide_and_only_the_kinds_are_shuffled() -> None:
    ids = bridge.id_map()
    ours = sorted(board.EDGE_ID[tuple(h["nodes"])] for h in board.harbour_layout())
    assert list(ids.harbour_edges) == ours          # all nine on the same coastal sides
    # catanatron shuffles which kind sits where each game; the set of kinds is the same (5 + 4).
    kinds = Counter("3:1" if p.resource is None else bridge.OURS[p.resource]
                    for p in base_map.ports_by_id.values())
    assert kinds == Counter(h["kind"] for h in board.harbour_layout())


def test_other_topologies_are_refused() -> None:
    with pytest.raises(ValueError):
        bridge.build_id_map(CatanMap.from_template(MINI_MAP_TEMPLATE))


# -- the state -----------------------------------------------------------------------------------
def mid_game(seed: int = 3, turns: int = 40) -> Any:
    game = weighted_game(seed)
    while game.state.num_turns < turns or game.state.current_prompt.value != "PLAY_TURN" \
            or game.state.is_road_building:
        tick(game)
        assert game.winning_color() is None
    return game


def test_a_translated_state_matches_catanatron_mid_game() -> None:
    game = mid_game()
    cs, ids = game.state, bridge.id_map()
    color = cs.current_color()
    state, seat = bridge.translate(game, color, random.Random(0))
    ps = cs.player_state
    assert seat == cs.color_to_index[color] and state["current"] == seat
    assert state["phase"] == ("main" if ps[f"P{seat}_HAS_ROLLED"] else "roll")
    for coordinate, tile in cs.board.map.land_tiles.items():
        hex_id = ids.hex_of[coordinate]
        assert state["numbers"][hex_id] == tile.number
        assert state["terrains"][hex_id] == bridge.TERRAIN[tile.resource]
    assert state["robber"] == ids.hex_of[cs.board.robber_coordinate]
    buildings = {ids.node_of[n]: (cs.color_to_index[c], 2 if k == "CITY" else 1)
                 for n, (c, k) in cs.board.buildings.items()}
    assert {n: (o, lvl) for n, (o, lvl) in enumerate(zip(state["node_owner"], state["node_level"])) if o >= 0} \
        == buildings
    assert len(buildings) >= 8
    roads = {ids.edge_of[e]: cs.color_to_index[c] for e, c in cs.board.roads.items()}
    assert {e: o for e, o in enumerate(state["edge_owner"]) if o >= 0} == roads
    assert state["hands"][seat] == [ps[f"P{seat}_{bridge.THEIRS[r]}_IN_HAND"] for r in board.RESOURCES]
    assert state["dev_hand"][seat] == [ps[f"P{seat}_{c}_IN_HAND"] for c in bridge.THEIR_DEV]
    assert state["bank"] == [cs.resource_freqdeck[i] for i in bridge.THEIR_INDEX]
    assert sum(state["dev_deck"]) == len(cs.development_listdeck)
    for s in range(4):
        assert sum(state["hands"][s]) == sum(ps[f"P{s}_{r}_IN_HAND"] for r in bridge.THEIR_RESOURCES)
        assert sum(state["dev_hand"][s]) == sum(ps[f"P{s}_{c}_IN_HAND"] for c in bridge.THEIR_DEV)
        assert victory_points(state, s, hidden=False) == ps[f"P{s}_VICTORY_POINTS"]
        assert state["knights"][s] == ps[f"P{s}_PLAYED_KNIGHT"]
        assert (state["longest_road"] == s) == ps[f"P{s}_HAS_ROAD"]
        assert (state["largest_army"] == s) == ps[f"P{s}_HAS_ARMY"]
    # Our engine accepts it: listed moves decide and evolve, the view renders.
    moves = GAME.legal_moves(state, seat)
    assert moves and seat in GAME.to_act(state)
    for e in GAME.decide(state, seat, moves[-1], random.Random(1)):
        GAME.evolve(GAME.copy(state), e)
    assert GAME.view(state, seat)["board"]


def test_the_others_cards_are_never_read() -> None:
    # Reshuffle the others' true cards (same counts, same pools): the translation is the same.
    game = mid_game(seed=5, turns=60)
    color = game.state.current_color()
    seat = game.state.color_to_index[color]
    before = bridge.translate(game, color, random.Random(7))[0]
    other = game.copy()
    ps = other.state.player_state
    others = [s for s in range(4) if s != seat]
    pool = [r for s in others for r in bridge.THEIR_RESOURCES for _ in range(ps[f"P{s}_{r}_IN_HAND"])]
    dev_pool = [c for s in others for c in bridge.THEIR_DEV for _ in range(ps[f"P{s}_{c}_IN_HAND"])]
    sizes = {s: sum(ps[f"P{s}_{r}_IN_HAND"] for r in bridge.THEIR_RESOURCES) for s in others}
    dev_sizes = {s: sum(ps[f"P{s}_{c}_IN_HAND"] for c in bridge.THEIR_DEV) for s in others}
    assert len(set(pool)) > 1                       # the test means something
    random.Random(99).shuffle(pool)
    random.Random(98).shuffle(dev_pool)
    for s in others:
        for r in bridge.THEIR_RESOURCES:
            ps[f"P{s}_{r}_IN_HAND"] = 0
        for c in bridge.THEIR_DEV:
            ps[f"P{s}_{c}_IN_HAND"] = 0
        for _ in range(sizes[s]):
            ps[f"P{s}_{pool.pop()}_IN_HAND"] += 1
        for _ in range(dev_sizes[s]):
            ps[f"P{s}_{dev_pool.pop()}_IN_HAND"] += 1
    assert bridge.translate(other, color, random.Random(7))[0] == before


# -- the moves -----------------------------------------------------------------------------------
def _known_difference(move: dict[str, Any], state: dict[str, Any]) -> bool:
    """Our moves catanatron 3.2.1 has no action for (its rules, not the bridge's)."""
    kind = move["type"]
    if kind == "move_robber":            # catanatron must steal when someone can be robbed
        return move["victim"] is None
    if kind == "play_road_building":     # it needs road money to play the card
        return True
    if kind.startswith("play_") and not state["rolled"]:
        return True                      # only a knight before the roll
    return False


def test_our_legal_moves_map_onto_catanatron_playable_actions() -> None:
    seen: Counter[str] = Counter()
    for seed in (11, 12, 13):
        game = weighted_game(seed)
        deal = random.Random(seed)
        while game.winning_color() is None:
            cs = game.state
            state, seat = bridge.translate(game, cs.current_color(), deal)
            playable = {bridge.action_key(a) for a in cs.playable_actions}
            mapped: dict[Any, dict[str, Any]] = {}
            for move in GAME.legal_moves(state, seat):
                mapped[bridge.move_key(move, state, seat, cs.colors)] = move
            prompt = cs.current_prompt.value
            if prompt == "PLAY_TURN":
                prompt = "road_building" if cs.is_road_building else state["phase"]
            seen[prompt] += 1
            kinds = {k[0] for k in playable}
            if "END_TURN" in kinds:
                seen["end_turn"] += 1
            if kinds & {"BUILD_ROAD", "BUILD_SETTLEMENT", "BUILD_CITY", "BUY_DEVELOPMENT_CARD"} \
                    and prompt == "main":
                seen["builds"] += 1
            # Every catanatron action is one of our legal moves (but a one-card Year of Plenty from
            # a short bank, which our rules do not have) ...
            lacking = {k for k in playable - set(mapped)
                       if not (k[0] == "PLAY_YEAR_OF_PLENTY" and len(k[1]) == 1)}
            assert not lacking, (prompt, lacking)
            # ... and ours that catanatron lacks are its known rule differences.
            for key in set(mapped) - playable:
                assert _known_difference(mapped[key], state), (prompt, mapped[key])
            tick(game)
    for prompt in ("BUILD_INITIAL_SETTLEMENT", "BUILD_INITIAL_ROAD", "roll", "main", "MOVE_ROBBER",
                   "DISCARD", "end_turn", "builds"):
        assert seen[prompt] > 0, (prompt, seen)


def test_a_move_without_a_counterpart_falls_back_and_is_counted() -> None:
    game = mid_game(seed=4)
    tally = bridge.Tally()

    def trader(game_: Any, state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
        return {"type": "offer_trade", "give": {"ore": 1}, "get": {"wool": 1}}

    def main_turn_with_a_choice() -> bool:
        cs = game.state
        return cs.current_prompt.value == "PLAY_TURN" and not cs.is_road_building \
            and cs.player_state[f"P{cs.current_player_index}_HAS_ROLLED"] and len(cs.playable_actions) > 1

    while not main_turn_with_a_choice():
        tick(game)
    playable = game.state.playable_actions
    action = bridge.choose_action(game, game.state.current_color(), playable, trader, random.Random(0),
                                  random.Random(0), None, tally)
    assert tally.fallbacks == Counter({"offer_trade": 1})
    assert action.action_type.value == "END_TURN"


def test_a_strategy_taking_allowed_gets_the_predicate_and_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: Counter[str] = Counter()

    def expert(game: Any, state: Any, seat: int, rng: random.Random, *, budget_ms: int | None = None,
               allowed: Any = None) -> dict[str, Any]:
        assert budget_ms == 50 and allowed is not None
        moves = game.legal_moves(state, seat)           # the full list: the predicate filters
        calls["all"] += len(moves)
        ok = [m for m in moves if allowed(m)]
        calls["allowed"] += len(ok)
        return rng.choice(ok)

    monkeypatch.setitem(STRATEGIES, "fake-expert", expert)
    result = bridge.play_game("fake-expert", seed=21, our_seat=1, budget_ms=50)
    assert result["finished"] and calls["allowed"] > 0
    assert calls["all"] > calls["allowed"]             # something was filtered out
    assert not result["tally"].fallbacks


# -- whole games ---------------------------------------------------------------------------------
def test_greedy_plays_whole_games_in_catanatron() -> None:
    result = bridge.run_match(3, "greedy", seed=2, budget_ms=None)
    assert result["games"] == 3 and result["unfinished"] == 0
    assert result["fallbacks"] <= 1, result["fallback_moves"]
    assert result["decisions"] > 50
    lo, hi = result["wilson95"]
    assert 0 <= lo <= result["win_rate"] <= hi <= 1


def test_seats_rotate() -> None:
    seats = []
    for our_seat in range(4):
        ours = bridge.player_class()(Color.RED, "random", seed=our_seat)
        others = [WeightedRandomPlayer(c) for c in COLORS[1:]]
        order = others[:our_seat] + [ours] + others[our_seat:]
        game = Game(order, seed=30 + our_seat)
        bridge.seat_players(game, order)
        seats.append(game.state.colors.index(Color.RED))
        assert game.state.playable_actions[0].color == game.state.colors[0]
    assert seats == [0, 1, 2, 3]


def test_the_cli_prints_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    bridge.main(["--games", "1", "--bot", "greedy", "--seed", "4"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert result["games"] == 1 and result["bot"] == "greedy" and "seconds" in result


def test_a_seed_replays_the_same_in_another_process() -> None:
    # catanatron orders some actions by set iteration (string hashes; hash(None) on 3.11): the
    # bench sorts them, so the same seed gives the same games whatever the process's hashing.
    outputs = []
    for hash_seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-m", "services.catan.catanatron_bridge", "--games", "2",
                               "--seed", "3"], capture_output=True, text=True, check=True, cwd=ROOT,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed})
        result = json.loads(done.stdout)
        result.pop("seconds")
        outputs.append(result)
    assert outputs[0] == outputs[1]
