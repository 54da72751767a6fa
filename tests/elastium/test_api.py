"""The plugin: options and move schemas accept exactly what the engine lists."""
from __future__ import annotations

import random

import pytest
from marshmallow import ValidationError

from services.elastium.api import PLUGIN, OptionsSchema
from services.elastium.rules.board import SCENARIOS, board
from services.elastium.rules.placement import pegs_to_pay
from shared.game.engine import IllegalMove, InvalidOptions
from shared.game.testing import play_random_game
from tests.elastium.helpers import GAME


def test_options_default_and_reject_unknown_scenarios_and_fields() -> None:
    assert OptionsSchema().load({}) == {"scenario": "jungle-temples", "max_rounds": 30}
    with pytest.raises(ValidationError):
        OptionsSchema().load({"scenario": "moon"})
    with pytest.raises(ValidationError):
        OptionsSchema().load({"colour": "blue"})


def test_setup_refuses_bad_options() -> None:
    with pytest.raises(InvalidOptions):
        GAME.setup(2, {"scenario": "moon"}, random.Random(0))
    with pytest.raises(InvalidOptions):
        GAME.setup(5, {}, random.Random(0))


def test_plugin_metadata() -> None:
    assert PLUGIN.port == 8004 and set(PLUGIN.strategies) == {"random", "greedy", "expert"}
    assert set(PLUGIN.move_schemas) == {"take_cards", "place_band", "buy_action", "end_turn", "take_bonus_card"}


@pytest.mark.parametrize("scenario", ["jungle-temples", "cursed-triangle", "labyrinth"])
@pytest.mark.slow
def test_every_listed_move_passes_its_schema_unchanged(scenario: str) -> None:
    played = play_random_game(GAME, 3, {"scenario": scenario}, seed=4, max_moves=150, check_every=50)
    state = GAME.replay(played.events[:40])
    checked = 0
    for index, e in enumerate(played.events[40:]):
        listed = GAME.legal_moves(state, GAME.to_act(state)[0]) if GAME.to_act(state) and index % 4 == 0 else []
        for move in listed:
            fields = {k: v for k, v in move.items() if k != "type"}
            assert PLUGIN.move_schemas[move["type"]]().load(fields) == fields
            checked += 1
        state = GAME.evolve(state, e)
    assert checked > 50


def test_place_band_schema_rejects_unknown_fields() -> None:
    with pytest.raises(ValidationError):
        PLUGIN.move_schemas["place_band"]().load({"pegs": ["c1r0", "c2r0"], "payment": [], "free": True})


@pytest.mark.parametrize("scenario", ["jungle-temples", "fragile-ruins", "cursed-triangle", "labyrinth"])
def test_listed_placements_are_exactly_the_affordable_bands(scenario: str) -> None:
    """Every band the board has: listed iff decide accepts it with a straightforward payment."""
    played = play_random_game(GAME, 2, {"scenario": scenario}, seed=9, max_moves=60, check_every=60)
    state = GAME.replay(played.events[:1])
    positions = []
    for e in played.events[1:]:
        if e["type"] == "action_started":       # the position just before an action
            positions.append(GAME.copy(state))
        state = GAME.evolve(state, e)
    state = positions[len(positions) // 2]      # mid-game
    seat = state["turn_seat"]
    listed = {"+".join(m["pegs"]) for m in GAME.legal_moves(state, seat) if m["type"] == "place_band"}
    for band in board(scenario, 2).bands.values():
        payment = [{"peg": peg, "cards": [board(scenario, 2).colours[peg]], "to": owners[0] if owners else None,
                    "energy": False} for peg, owners in pegs_to_pay(state, seat, band)]
        hand = state["hands"][seat]
        direct = all(hand[c] >= sum(1 for p in payment if p["cards"] == [c]) for c in hand)
        try:
            GAME.decide(state, seat, {"type": "place_band", "pegs": list(band.pegs), "payment": payment},
                        random.Random(0))
            accepted = True
        except IllegalMove as exc:
            accepted = False
            if band.key in listed and direct:
                raise AssertionError(f"{band.key} listed but refused: {exc.reason}") from exc
        if accepted:
            assert band.key in listed, band.key


MOVE_TYPES = ("take_cards", "place_band", "buy_action", "end_turn", "take_bonus_card")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_listed_bands_and_move_types_are_exactly_what_decide_accepts(scenario: str) -> None:
    """At positions of a random 3-player game: a band shape passes decide's shape, start and
    connection checks iff it is a candidate, and it is listed iff it is a candidate that can be
    paid; a move type is listed iff decide does not refuse it for the phase."""
    from services.elastium.rules.placement import candidate_bands, check_band, payments

    played = play_random_game(GAME, 3, {"scenario": scenario}, seed=21, max_moves=200, check_every=100)
    b = board(scenario, 3)
    state = GAME.replay(played.events[:1])
    checked = 0
    for index, e in enumerate(played.events[1:]):
        state = GAME.evolve(state, e)
        if index % 37 or GAME.result(state) is not None:
            continue
        seat = GAME.to_act(state)[0]
        listed = GAME.legal_moves(state, seat)
        phase_ok = set()
        for kind in MOVE_TYPES:
            move = {"type": kind, "market": [], "pegs": [], "payment": [], "source": "deck", "card": None}
            try:
                GAME.decide(state, seat, move, random.Random(0))
                phase_ok.add(kind)
            except IllegalMove as exc:
                if not exc.reason.startswith("not-allowed-in-"):
                    phase_ok.add(kind)
        kinds = {m["type"] for m in listed}
        # a type the phase allows is listed, unless it is place_band with no band to pay for
        assert kinds <= phase_ok and phase_ok - kinds <= {"place_band"}, (kinds, phase_ok)
        if not any(m["type"] == "take_cards" for m in listed):
            continue
        candidates = {band.key for band in candidate_bands(state, seat)}
        for band in b.bands.values():
            try:
                check_band(state, seat, list(band.pegs))
                shape_ok = True
            except IllegalMove:
                shape_ok = False
            assert shape_ok == (band.key in candidates), band.key
        bands_listed = {"+".join(m["pegs"]) for m in listed if m["type"] == "place_band"}
        assert bands_listed == {k for k in candidates if payments(state, seat, b.bands[k], limit=1)}
        checked += 1
    assert checked >= 2
