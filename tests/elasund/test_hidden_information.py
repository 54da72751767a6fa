"""Hands, drawn colours, pirate discards and buried church tiles stay private."""
from __future__ import annotations

# Positions: set-ups, events folded as the engine records them (helpers.py) and random games.
# _scramble_secrets alone writes into a state, a copy of one, on purpose: it redraws the secrets a
# viewer must not see, and the view must not change.

import json
import random

from services.elasund.rules import board
from services.elasund.rules.game import GAME
from shared.game.testing import assert_views_hide, play_random_game

from tests.elasund.helpers import at_phase, fresh, give

SECRET_EVENTS = {"cards_drawn": "influence", "cards_discarded": "influence", "loot_taken": "influence",
                 "church_drawn": "tiles", "church_tile_bottomed": "tile"}


def test_views_show_own_hand_and_only_hand_sizes_of_others() -> None:
    state = give(fresh(3), 1, influence=["red", "red", "green"])
    mine = GAME.view(state, 1)
    assert mine["hands"][1] == state["hands"][1]
    assert mine["hands"][0] == {"cards": 4} and mine["hands"][2] == {"cards": 4}
    spectator = GAME.view(state, None)
    assert all(set(hand) == {"cards"} for hand in spectator["hands"])
    assert_views_hide(GAME, state, 0, [state["hands"][1]["influence"], state["hands"][1]])
    # The deck shows only its size: there is no order to leak, and no colour split.
    assert isinstance(spectator["influence_deck"], int) and isinstance(spectator["influence_discard"], int)


def test_drawn_church_tiles_are_shown_only_to_the_drawer() -> None:
    state = give(at_phase(fresh(3), "build", current=2, ship=3), 2, gold=7)
    events = GAME.decide(state, 2, {"type": "build_church"}, __import__("random").Random(5))
    for e in events:
        state = GAME.evolve(state, e)
    drawn = next(e for e in events if e["type"] == "church_drawn")
    assert GAME.view(state, 2)["church"]["drawn"] == drawn["data"]["tiles"]
    assert "drawn" not in GAME.view(state, 0)["church"]
    assert GAME.redact(drawn, 0)["data"]["tiles"] is None
    assert GAME.redact(drawn, None)["data"]["tiles"] is None
    assert GAME.redact(drawn, 2) == drawn


def test_redacted_logs_never_show_another_seats_secret_cards() -> None:
    played = play_random_game(GAME, 3, seed=11, max_moves=700, check_every=50)
    seen_secret = 0
    for viewer in [None, 0, 1, 2]:
        for e in played.events:
            shown = GAME.redact(e, viewer)
            field = SECRET_EVENTS.get(e["type"])
            if field and e["data"].get("seat") != viewer:
                assert shown["data"][field] is None, (viewer, e)
                seen_secret += 1
                assert e["data"][field] is not None                       # redact copied, never mutated
            elif field:
                assert shown == e
            json.dumps(shown)
    assert seen_secret > 0
    hands = played.state["hands"]
    assert sum(sum(hand["influence"].values()) for hand in hands) > 0     # some colours to hide
    for seat in range(3):
        view = GAME.view(played.state, seat)
        assert view["hands"][seat]["influence"] == hands[seat]["influence"]
        for other in range(3):
            if other != seat:      # only the hand's size: no colour split, no gold/influence split
                size = hands[other]["gold"] + sum(hands[other]["influence"].values())
                assert view["hands"][other] == {"cards": size}, (seat, other)


def test_redacted_draws_keep_the_number_of_cards() -> None:
    event = {"type": "cards_drawn", "data": {"seat": 1, "gold": 2, "influence": ["red", "blue"], "reason": "income"}}
    assert GAME.redact(event, 0) == {"type": "cards_drawn", "data": {"seat": 1, "gold": 2, "influence": None,
                                                                     "influence_count": 2, "reason": "income"}}


def test_pirate_discards_and_the_loot_are_private_in_kind() -> None:
    discarded = {"type": "cards_discarded", "data": {"seat": 1, "reason": "pirates", "gold": 1,
                                                     "influence": {"red": 1, "blue": 0, "green": 0}}}
    assert GAME.redact(discarded, 0)["data"] == {"seat": 1, "reason": "pirates", "gold": 1, "influence": None,
                                                 "influence_count": 1}
    loot = {"type": "loot_taken", "data": {"seat": 0, "gold": 0, "influence": {"red": 1, "blue": 0, "green": 0}}}
    assert GAME.redact(loot, 1)["data"] == {"seat": 0, "gold": None, "influence": None, "influence_count": 1,
                                            "count": 1}
    assert GAME.redact(loot, 0) == loot


def _scramble_secrets(state: dict, viewer: int | None, rng: random.Random) -> dict:
    """The same position with every secret the viewer must not see redrawn: other seats' colour
    splits, the deck and discard-pile splits, the pirates' pool split, the church stack, the two
    tiles another seat drew and the tile another seat buried."""
    state = GAME.copy(state)

    def split(total: int) -> dict[str, int]:
        cuts = sorted(rng.randint(0, total) for _ in range(2))
        return dict(zip(board.INFLUENCE_COLOURS, [cuts[0], cuts[1] - cuts[0], total - cuts[1]]))

    for seat, hand in enumerate(state["hands"]):
        if seat != viewer:
            hand["influence"] = split(sum(hand["influence"].values()))
    for name in ("influence_deck", "influence_discard"):
        state[name] = split(sum(state[name].values()))
    pool = state["pending"].get("pool")
    if pool:
        pool["influence"] = split(sum(pool["influence"].values()))
    church = state["church"]
    if church["bottom_seat"] != viewer and church["bottom"] is not None:
        church["bottom"] = rng.choice(church["pool"])
    rng.shuffle(church["pool"])
    if church["drawn"] and not (viewer == state["current"] and state["phase"] == "church_choice"):
        church["drawn"] = rng.sample(range(1, 10), len(church["drawn"]))
    return state


def test_views_do_not_change_when_the_secrets_of_others_change() -> None:
    rng = random.Random(4)
    seen = set()
    for players, seed in [(2, 1), (4, 2), (3, 4)]:
        state = GAME.replay(GAME.setup(players, GAME.default_options(), random.Random(seed)))
        for step in range(900):
            if GAME.result(state):
                break
            if step % 3 == 0 or state["phase"] in ("church_choice", "discard"):
                seen.add(state["phase"])
                seen.update(name for name in ("pool",) if state["pending"].get(name))
                seen.update(name for name in ("bottom",) if state["church"]["bottom"] is not None)
                for viewer in [None, *range(players)]:
                    assert GAME.view(_scramble_secrets(state, viewer, rng), viewer) == GAME.view(state, viewer), \
                        (step, state["phase"], viewer)
            seat = rng.choice(GAME.to_act(state))
            for e in GAME.decide(state, seat, rng.choice(GAME.legal_moves(state, seat)), random.Random(step)):
                state = GAME.evolve(state, e)
    assert {"church_choice", "discard", "pool", "bottom"} <= seen
