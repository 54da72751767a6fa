"""``legal_moves``: every move a seat may make now, each exactly as ``decide`` accepts it.

Only the free-form domestic trade moves are left out: the offer of the player on turn
(``offer_trade``) and the others' counter-offers (``counter_trade``), whose give/get counts have
no sensible finite list; their schemas describe them.
This runs at every step of self-play, so it checks affordability before walking the board and
relies on the precomputed tables and the per-seat road lists.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from services.catan.rules import board
from services.catan.rules.board import RESOURCES
from services.catan.rules.moves import robbable, robber_victims
from services.catan.rules.state import (
    CITY, CITY_COST, DEV_CARD_COST, DEV_CARDS, DISCARD, EMPTY, KNIGHT, MAIN, MONOPOLY, OVER, ROAD,
    ROAD_BUILDING, ROAD_COST, ROBBER, ROLL, SETTLEMENT, SETTLEMENT_COST, SETUP, TRADE,
    YEAR_OF_PLENTY, Ruleset, State, can_afford, may_trade, road_spots, settlement_allowed_at, settlement_spots, to_act,
)

Move = dict[str, Any]

@lru_cache(maxsize=4096)
def discard_choices(hand: tuple[int, ...], count: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every way to give up ``count`` cards from ``hand`` (as sorted name/count pairs)."""
    choices: list[tuple[tuple[str, int], ...]] = []

    def pick(i: int, left: int, chosen: list[tuple[str, int]]) -> None:
        if i == 4:
            if left <= hand[4]:
                choices.append(tuple(chosen + [(RESOURCES[4], left)] if left else chosen))
            return
        rest = sum(hand[i + 1:])
        for n in range(max(0, left - rest), min(hand[i], left) + 1):
            pick(i + 1, left - n, chosen + [(RESOURCES[i], n)] if n else chosen)

    pick(0, count, [])
    return tuple(choices)


def _dev_card_moves(state: State, seat: int) -> list[Move]:
    if state["dev_played"]:
        return []
    owned, new = state["dev_hand"][seat], state["dev_new"][seat]
    moves: list[Move] = []
    if owned[KNIGHT] > new[KNIGHT]:
        moves.append({"type": "play_knight"})
    road_card = DEV_CARDS.index("road_building")
    if owned[road_card] > new[road_card] and state["pieces"][seat][ROAD] and road_spots(state, seat):
        moves.append({"type": "play_road_building"})
    if owned[YEAR_OF_PLENTY] > new[YEAR_OF_PLENTY]:
        bank = state["bank"]
        # Both orders of a pair: decide accepts ["ore", "brick"] as well as ["brick", "ore"].
        for i in range(5):
            for j in range(5):
                if bank[i] >= (2 if i == j else 1) and bank[j]:
                    moves.append({"type": "play_year_of_plenty", "resources": [RESOURCES[i], RESOURCES[j]]})
    if owned[MONOPOLY] > new[MONOPOLY]:
        moves.extend({"type": "play_monopoly", "resource": name} for name in RESOURCES)
    return moves


def _main_moves(state: State, seat: int, rules: Ruleset) -> list[Move]:
    moves: list[Move] = [{"type": "end_turn"}]
    hand, pieces = state["hands"][seat], state["pieces"][seat]
    if pieces[ROAD] and can_afford(hand, ROAD_COST):
        moves.extend({"type": "build_road", "edge": e} for e in road_spots(state, seat))
    if pieces[SETTLEMENT] and can_afford(hand, SETTLEMENT_COST):
        moves.extend({"type": "build_settlement", "node": n} for n in settlement_spots(state, seat))
    if pieces[CITY] and can_afford(hand, CITY_COST):
        owner, level = state["node_owner"], state["node_level"]
        moves.extend({"type": "build_city", "node": n} for n in range(board.NODE_COUNT)
                     if owner[n] == seat and level[n] == 1)
    if can_afford(hand, DEV_CARD_COST) and any(state["dev_deck"]):
        moves.append({"type": "buy_dev_card"})
    rates, bank = state["rates"][seat], state["bank"]
    for give in range(5 if may_trade(state, rules) else 0):
        if hand[give] >= rates[give]:
            moves.extend({"type": "bank_trade", "give": RESOURCES[give], "get": RESOURCES[get]}
                         for get in range(5) if get != give and bank[get])
    moves.extend(_dev_card_moves(state, seat))
    return moves


def _robber_moves(state: State, seat: int, rules: Ruleset) -> list[Move]:
    moves: list[Move] = []
    can_rob = robbable(state, seat)
    for hex_id in range(board.HEX_COUNT):
        if hex_id == state["robber"]:
            continue
        # Robbing is optional (engine 3): no victim is always a choice; engine 2 only without one.
        victims = robber_victims(state, seat, hex_id, can_rob)
        if rules.optional_steal or not victims:
            moves.append({"type": "move_robber", "hex": hex_id, "victim": None})
        moves.extend({"type": "move_robber", "hex": hex_id, "victim": v} for v in victims)
    return moves


def _setup_moves(state: State) -> list[Move]:
    node = state["setup_node"]
    if node == EMPTY:
        return [{"type": "build_settlement", "node": n} for n in range(board.NODE_COUNT)
                if settlement_allowed_at(state, n)]
    return [{"type": "build_road", "edge": e} for e in board.NODE_EDGES[node]
            if state["edge_owner"][e] == EMPTY]


def _trade_moves(state: State, seat: int) -> list[Move]:
    offer = state["offer"]
    if seat == offer["seat"]:
        hand = state["hands"][seat]
        # Acceptances, and the counter-offers whose terms the offerer can pay.
        partners = [other for other, (answer, counter) in enumerate(zip(offer["answers"], offer["counters"]))
                    if answer is True or (counter is not None and all(
                        hand[board.RESOURCE_INDEX[name]] >= n for name, n in counter["get"].items()))]
        return [{"type": "cancel_trade"}, *({"type": "confirm_trade", "seat": other} for other in partners)]
    if offer["answers"][seat] is not None:
        return []
    hand = state["hands"][seat]
    moves: list[Move] = [{"type": "answer_trade", "accept": False}]
    if all(hand[board.RESOURCE_INDEX[name]] >= n for name, n in offer["get"].items()):
        moves.append({"type": "answer_trade", "accept": True})
    return moves


def legal_moves(state: State, seat: int, rules: Ruleset) -> list[Move]:
    phase = state["phase"]
    if phase == OVER or seat not in to_act(state):
        return []
    if phase == MAIN:
        return _main_moves(state, seat, rules)
    if phase == ROLL:
        return [{"type": "roll"}, *_dev_card_moves(state, seat)]
    if phase == SETUP:
        return _setup_moves(state)
    if phase == DISCARD:
        hand = tuple(state["hands"][seat])
        return [{"type": "discard", "resources": dict(choice)}
                for choice in discard_choices(hand, state["discards"][seat])]
    if phase == ROBBER:
        return _robber_moves(state, seat, rules)
    if phase == ROAD_BUILDING:
        return [{"type": "build_road", "edge": e} for e in road_spots(state, seat)]
    if phase == TRADE:
        return _trade_moves(state, seat)
    return []
