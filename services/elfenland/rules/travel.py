"""What a road costs: every distinct set of cards (by kind) that pays for one road.

A payment is a sorted tuple of card kinds.  A wizard in it stands for the obstacle's extra card
and costs one coin (Elfengold's wizard variant).
"""
from __future__ import annotations

from services.elfenland.rules.board import Road
from services.elfenland.rules.components import (
    BOATMEN_CARDS, RAFT, TRANSPORT_COST, TRAVEL_CARDS, WIZARD, WIZARD_OBSTACLE_COINS)
from services.elfenland.rules.multiset import Multiset, contains, submultisets
from services.elfenland.rules.state import State, road_slot, rules_of

Payment = tuple[str, ...]


def payment_coins(cards: Payment | list[str]) -> int:
    return WIZARD_OBSTACLE_COINS if WIZARD in cards else 0


def lake_rafts(state: State, road: Road) -> int:
    """Author's rules: Mare Nebulae takes 1 raft, Mare Magnum 2; German rules: 2 on both."""
    if road.lake == "mare_nebulae" and state["options"]["lake_rules"] == "author":
        return 1
    return 2


def boatmen_available(state: State, road: Road) -> bool:
    return (road.lake == "mare_nebulae" and state["options"]["lake_rules"] == "author"
            and rules_of(state).caravans)


def river_rafts(road: Road, destination: str) -> int:
    return 1 if road.flows_to == destination else 2


class _Payments:
    """Collects the payments a hand can afford, adding the obstacle surcharge when needed."""

    def __init__(self, hand: Multiset, obstructed: bool, wizard_ok: bool) -> None:
        self.hand, self.obstructed, self.wizard_ok = hand, obstructed, wizard_ok
        self.found: set[Payment] = set()

    def same_kind(self, kind: str, count: int) -> None:
        """``count`` cards of ``kind``; an obstacle wants one more of them, or a wizard."""
        if not self.obstructed:
            self._offer([kind] * count)
            return
        self._offer([kind] * (count + 1))
        if self.wizard_ok:
            self._offer([kind] * count + [WIZARD])

    def any_cards(self, count: int) -> None:
        """Caravans and boatmen: any ``count`` travel cards (+1, or a wizard, past an obstacle)."""
        for combo in submultisets(self.hand, count + (1 if self.obstructed else 0), TRAVEL_CARDS):
            self.found.add(combo)
        if self.obstructed and self.wizard_ok:
            for combo in submultisets(self.hand, count, TRAVEL_CARDS):
                self._offer([*combo, WIZARD])

    def _offer(self, cards: list[str]) -> None:
        if contains(self.hand, cards):
            self.found.add(tuple(sorted(cards)))


def payments(state: State, seat: int, road: Road) -> list[Payment]:
    """Every way ``seat`` can pay to travel ``road`` from its town now (empty if none)."""
    seat_state = state["seats"][seat]
    town = seat_state["town"]
    if not road.touches(town):
        return []
    slot = road_slot(state, road.id)
    hand = seat_state["hand"]
    wizard_ok = hand.get(WIZARD, 0) > 0 and seat_state["coins"] >= WIZARD_OBSTACLE_COINS
    offers = _Payments(hand, slot["obstacle"] is not None, wizard_ok)
    if road.is_land:
        # A land road needs a transport counter, for its own cards and for caravans alike.
        if not slot["transports"]:
            return []
        for transport in set(slot["transports"]):
            offers.same_kind(transport, TRANSPORT_COST[transport][road.terrain])
        if rules_of(state).caravans:
            offers.any_cards(state["options"]["caravan_cards"])
    elif road.terrain == "river":
        offers.same_kind(RAFT, river_rafts(road, road.other_end(town)))
    else:
        offers.same_kind(RAFT, lake_rafts(state, road))
        if boatmen_available(state, road):
            offers.any_cards(BOATMEN_CARDS)
    return sorted(offers.found)

