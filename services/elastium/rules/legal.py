"""legal_moves: every move the seat to act may make, each exactly as ``decide`` accepts it."""
from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from services.elastium.rules.placement import candidate_bands, payments
from services.elastium.rules.state import BONUS, EXTRA, State, cards_available, is_cursed, phase

Move = dict[str, Any]


def legal_moves(state: State, seat: int) -> list[Move]:
    if state["result"] is not None or seat != state["turn_seat"]:
        return []
    current = phase(state)
    if current == BONUS:
        moves: list[Move] = [{"type": "take_bonus_card", "source": "market", "card": card}
                             for card in sorted(set(state["market"]))]
        if cards_available(state, seat):
            moves.append({"type": "take_bonus_card", "source": "deck", "card": None})
        return moves
    if current == EXTRA:
        return [{"type": "buy_action"}, {"type": "end_turn"}]
    return take_card_moves(state) + placement_moves(state, seat)


def take_card_moves(state: State) -> list[Move]:
    """Distinct choices of market colours (0, 1 or 2); the rest comes from the deck."""
    if is_cursed(state):
        return [{"type": "take_cards", "market": []}]
    market = sorted(state["market"])
    picks: set[tuple[str, ...]] = {()}
    for size in (1, 2):
        for combo in combinations_with_replacement(sorted(set(market)), size):
            if all(combo.count(c) <= market.count(c) for c in combo):
                picks.add(combo)
    return [{"type": "take_cards", "market": list(p)} for p in sorted(picks, key=lambda p: (len(p), p))]


def placement_moves(state: State, seat: int) -> list[Move]:
    return [{"type": "place_band", "pegs": list(band.pegs), "payment": payment}
            for band in candidate_bands(state, seat)
            for payment in payments(state, seat, band)]
