"""``legal_moves``: every move a seat may make now, each exactly as ``decide`` accepts it.

Bids are listed from the lowest raise up to the richest player's coins plus one (or the lowest
raise alone when it is higher already): a bid above
every purse already stops anyone outbidding within his means, so any higher amount has the same
effect (it is accepted, not listed).
"""
from __future__ import annotations

from shared.game.engine import Move

from services.elfenland.rules.board import ROADS, ROADS_AT, TOWNS
from services.elfenland.rules.components import (
    DOUBLE_SPELL, EXCHANGE_SPELL, OBSTACLE, TRANSPORTS, WIZARD, WIZARD_FLIGHT_COINS)
from services.elfenland.rules.multiset import size, submultisets
from services.elfenland.rules.placement import (
    double_error, exchange_error, placement_error, roads_with_transports)
from services.elfenland.rules.state import (
    State, held_counters, over_counter_limit, rules_of, to_act)
from services.elfenland.rules.travel import payments


def _secret_counter(state: State, seat: int) -> list[Move]:
    has_secret = any(c["hidden"] for c in state["seats"][seat]["counters"])
    return [{"type": "secret_counter", "reveal": False}] + (
        [{"type": "secret_counter", "reveal": True}] if has_secret else [])


def _draft_counters(state: State, seat: int) -> list[Move]:
    moves: list[Move] = [{"type": "take_counter", "counter": k} for k in sorted(set(state["face_up_counters"]))]
    if size(state["bag"]):
        moves.append({"type": "draw_counter"})
    return moves


def _draft_cards(state: State, seat: int) -> list[Move]:
    moves: list[Move] = [] if state["redraw"] else [
        {"type": "take_card", "card": c} for c in sorted(set(state["face_up_cards"]))]
    if size(state["deck"]) or size(state["discard"]):
        moves.append({"type": "draw_card"})
    if state["gold_pile"]:
        moves.append({"type": "take_gold"})
    return moves


def _reveal_counter(state: State, seat: int) -> list[Move]:
    return [{"type": "reveal_counter", "counter": k} for k in sorted(set(state["seats"][seat]["pending"]))]


def _auction(state: State, seat: int) -> list[Move]:
    coins, high = state["seats"][seat]["coins"], state["auction"]["high"]
    richest = max(s["coins"] for s in state["seats"])
    # At least the lowest raise, even when it is above every purse (an over-bid).
    bids = range(high + 1, max(richest, high) + 2) if coins else range(0)
    return [{"type": "pass"}] + [{"type": "bid", "amount": a} for a in bids]


def _placement(state: State, seat: int) -> list[Move]:
    seat_state = state["seats"][seat]
    kinds = set(held_counters(seat_state)) | ({OBSTACLE} if seat_state["obstacles"] else set())
    moves: list[Move] = [{"type": "pass"}]
    for kind in sorted(kinds - {DOUBLE_SPELL, EXCHANGE_SPELL}):
        moves += [{"type": "place_counter", "counter": kind, "road": road.id}
                  for road in ROADS if placement_error(state, seat, kind, road) is None]
    if DOUBLE_SPELL in kinds:
        moves += [{"type": "place_double", "road": road.id, "counter": kind}
                  for road in roads_with_transports(state) for kind in sorted(kinds & set(TRANSPORTS))
                  if double_error(state, seat, road, kind) is None]
    if EXCHANGE_SPELL in kinds:
        loaded = roads_with_transports(state)
        moves += [{"type": "exchange", "road": a.id, "other_road": b.id}
                  for a in loaded for b in loaded if exchange_error(state, seat, a, b) is None]
    return moves


def _movement(state: State, seat: int) -> list[Move]:
    seat_state = state["seats"][seat]
    if state["discarding"]:
        return [{"type": "keep_cards", "cards": list(c)}
                for c in submultisets(seat_state["hand"], rules_of(state).cards_kept or 0)]
    moves: list[Move] = []
    for road in ROADS_AT[seat_state["town"]]:
        moves += [{"type": "travel", "road": road.id, "cards": list(p)} for p in payments(state, seat, road)]
    if seat_state["hand"].get(WIZARD, 0) and seat_state["coins"] >= WIZARD_FLIGHT_COINS:
        moves += [{"type": "fly", "town": t} for t in TOWNS if t != seat_state["town"]]
    if not rules_of(state).gold_economy:
        moves.append({"type": "finish_travel"})
    else:
        if seat_state["moved"]:
            moves.append({"type": "finish_travel", "take": "gold"})
        moves.append({"type": "finish_travel", "take": "cards"})
    return moves


def _keep(state: State, seat: int) -> list[Move]:
    seat_state = state["seats"][seat]
    moves: list[Move] = []
    if over_counter_limit(state, seat):
        moves += [{"type": "keep_counters", "counters": list(c)}
                  for c in submultisets(held_counters(seat_state), rules_of(state).counters_kept)]
    return moves


_BY_PHASE = {
    "secret_counter": _secret_counter, "draft_counters": _draft_counters,
    "draft_cards": _draft_cards, "reveal_counter": _reveal_counter, "auction": _auction,
    "placement": _placement, "movement": _movement, "keep": _keep,
}


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    return _BY_PHASE[state["phase"]](state, seat)
