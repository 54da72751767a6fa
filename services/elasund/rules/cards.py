"""Gold and influence cards: drawing, paying, and the ways a hand can meet a discard.

Gold is a face-up bank, so only its count matters.  The influence deck is hidden; instead of
storing a shuffled order (which would have to be hidden in every view and event) the state keeps
the deck's colour counts and each draw picks uniformly among the remaining cards with the
``decide`` rng.  That is the same distribution as drawing from a shuffled deck.
"""
from __future__ import annotations

from itertools import product
from typing import Any

from shared.game.engine import IllegalMove

from services.elasund.rules import board
from services.elasund.rules.context import Ctx
from services.elasund.rules.state import State, gold_in_bank, influence_total


def draw(ctx: Ctx, seat: int, gold: int = 0, influence: int = 0, reason: str = "") -> None:
    """Give ``seat`` gold from the bank and influence from the deck (as much as there is)."""
    state = ctx.state
    gold = min(gold, gold_in_bank(state))
    if influence_total(state["influence_deck"]) < influence and influence_total(state["influence_discard"]):
        ctx.emit("influence_reshuffled")  # the discard pile becomes the new deck
    deck = [colour for colour in ctx.draw_order for _ in range(state["influence_deck"][colour])]
    colours = ctx.rng.sample(deck, min(influence, len(deck)))
    if gold or colours:
        ctx.emit("cards_drawn", seat=seat, gold=gold, influence=colours, reason=reason)


def pay_gold(ctx: Ctx, seat: int, amount: int, to: int | None = None) -> None:
    if amount:
        ctx.emit("gold_paid", seat=seat, amount=amount, to=to)


def require_gold(state: State, seat: int, amount: int) -> None:
    if state["hands"][seat]["gold"] < amount:
        raise IllegalMove("not-enough-gold", f"This needs {amount} gold.", needed=amount)


def matching_colour(state: State, seat: int, colour: Any, count: int) -> str:
    """Check ``seat`` can pay ``count`` influence cards of ``colour``; returns the colour."""
    if colour not in board.INFLUENCE_COLOURS:
        raise IllegalMove("invalid-colour", f"pay_colour must be one of {board.INFLUENCE_COLOURS}.")
    if state["hands"][seat]["influence"][colour] < count:
        raise IllegalMove("not-enough-influence", f"This needs {count} {colour} influence cards.")
    return colour


def colours_with(state: State, seat: int, count: int) -> list[str]:
    """Colours of which ``seat`` holds at least ``count`` cards (what it may pay as a match)."""
    influence = state["hands"][seat]["influence"]
    return [c for c in board.INFLUENCE_COLOURS if influence[c] >= count]


def has_all_colours(state: State, seat: int) -> bool:
    return all(n >= 1 for n in state["hands"][seat]["influence"].values())


def pay_matching(ctx: Ctx, seat: int, colour: str, count: int) -> None:
    ctx.emit("influence_paid", seat=seat, colours={colour: count})


def pay_one_of_each(ctx: Ctx, seat: int) -> None:
    ctx.emit("influence_paid", seat=seat, colours={c: 1 for c in board.INFLUENCE_COLOURS})


def discard_options(hand: dict[str, Any], owed: int, gold_allowed: bool) -> list[dict[str, Any]]:
    """Every way to discard exactly ``owed`` cards from ``hand`` ({"gold", "influence"})."""
    limits = [hand["gold"] if gold_allowed else 0] + [hand["influence"][c] for c in board.INFLUENCE_COLOURS]
    options = []
    for combo in product(*(range(min(limit, owed) + 1) for limit in limits)):
        if sum(combo) == owed:
            options.append({"gold": combo[0], "influence": dict(zip(board.INFLUENCE_COLOURS, combo[1:]))})
    return options
