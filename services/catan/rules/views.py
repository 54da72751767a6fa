"""What each viewer may see: ``view`` (a filtered state) and ``redact`` (a filtered event).

Public: the board, buildings, bank, dice, card *counts*, played knights, public points.
Private to their owner: resource cards, development cards (victory point cards included) and
the card drawn or stolen.  The remaining deck is only shown as a size (its composition would
reveal what the others bought).  Once the game is over everything is shown.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from services.catan.rules.board import EDGE_NODES, HEX_NODES, RESOURCES
from services.catan.rules.state import (
    CITY, DEV_CARDS, MAIN, OVER, PIECES, ROAD, SETTLEMENT, TRADE, Ruleset, State, may_trade, resource_names, to_act,
    victory_points,
)
from services.catan.rules.view_types import (
    ByResource, Cards, CatanView, DevCards, Harbour, Options, SeatView,
)

Event = dict[str, Any]


def _by_resource(values: Sequence[int]) -> ByResource:
    return cast(ByResource, dict(zip(RESOURCES, values)))


def _dev_cards(counts: Sequence[int]) -> DevCards:
    return cast(DevCards, {DEV_CARDS[i]: n for i, n in enumerate(counts) if n})


def _player_view(state: State, seat: int, viewer: int | None) -> SeatView:
    open_book = viewer == seat or state["phase"] == OVER
    hand, dev = state["hands"][seat], state["dev_hand"][seat]
    pieces = state["pieces"][seat]
    return {
        "seat": seat,
        "resource_count": sum(hand),
        "resources": cast(Cards, resource_names(hand)) if open_book else None,
        "dev_card_count": sum(dev),
        "dev_cards": _dev_cards(dev) if open_book else None,
        "dev_cards_new": _dev_cards(state["dev_new"][seat]) if open_book else None,
        "knights_played": state["knights"][seat],
        "road_length": state["road_length"][seat],
        "public_points": victory_points(state, seat, hidden=False),
        "points": victory_points(state, seat) if open_book else None,
        "pieces_left": {"roads": pieces[ROAD], "settlements": pieces[SETTLEMENT], "cities": pieces[CITY]},
        "pieces_placed": {"roads": PIECES[ROAD] - pieces[ROAD],
                          "settlements": PIECES[SETTLEMENT] - pieces[SETTLEMENT],
                          "cities": PIECES[CITY] - pieces[CITY]},
        "trade_rates": _by_resource(state["rates"][seat]),
        "must_discard": state["discards"][seat],
    }


def view(state: State, viewer: int | None, rules: Ruleset) -> CatanView:
    offer = state["offer"]
    return {
        "players": state["players"],
        "options": cast(Options, dict(state["options"])),
        "you": viewer,
        "board": {
            "terrains": list(state["terrains"]),
            "numbers": list(state["numbers"]),
            "harbours": [cast(Harbour, dict(h, nodes=list(h["nodes"]))) for h in state["harbours"]],
            "robber": state["robber"],
            # The fixed topology, so a client without this code can map ids to places.
            "hex_nodes": [list(corners) for corners in HEX_NODES],
            "edge_nodes": [list(nodes) for nodes in EDGE_NODES],
        },
        "node_owner": list(state["node_owner"]),
        "node_level": list(state["node_level"]),
        "edge_owner": list(state["edge_owner"]),
        "phase": state["phase"],
        "to_act": to_act(state),
        "current": state["current"],
        "turn": state["turn"],
        "first_player": state["first_player"],
        "setup_node": state["setup_node"],
        "dice": list(state["dice"]) if state["dice"] else None,
        "rolled": state["rolled"],
        "dev_card_played": state["dev_played"],
        "free_roads": state["free_roads"],
        "bank": _by_resource(state["bank"]),
        "dev_deck_size": sum(state["dev_deck"]),
        "longest_road": state["longest_road"],
        "largest_army": state["largest_army"],
        # Offers and counter-offers are spoken aloud at the table: public, like the answers.
        "offer": ({"seat": offer["seat"], "give": dict(offer["give"]), "get": dict(offer["get"]),
                   "answers": list(offer["answers"]),
                   "counters": [dict(give=dict(c["give"]), get=dict(c["get"])) if c else None
                                for c in offer["counters"]]} if offer else None),
        # Whether a trade would be taken now, not merely later this turn: the rules take trades
        # in the main phase only (an open offer is one being made), never before the roll.
        "trading_open": state["phase"] in (MAIN, TRADE) and may_trade(state, rules),
        "offers_this_turn": state["offers"],
        "winner": state["winner"],
        "seats": [_player_view(state, seat, viewer) for seat in range(state["players"])],
    }


# Event type -> (field hidden from the others, seats allowed to see it besides the actor).
_SECRET_FIELDS: dict[str, tuple[str, str | None]] = {
    "dev_card_bought": ("card", None),
    "card_stolen": ("resource", "victim"),
}


def redact(event: Event, viewer: int | None) -> Event:
    secret = _SECRET_FIELDS.get(event["type"])
    if secret is None:
        return event
    field, also = secret
    data = event["data"]
    if viewer is not None and (viewer == data["seat"] or (also and viewer == data[also])):
        return event
    return {"type": event["type"], "data": {**data, field: None}}
