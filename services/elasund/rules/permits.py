"""Phases 3 and 4: placing building permits, taking gold, and the special actions."""
from __future__ import annotations

from typing import Any

from shared.game.engine import IllegalMove

from services.elasund.rules import board, cards
from services.elasund.rules.board import Square, key
from services.elasund.rules.context import Ctx
from services.elasund.rules.state import State, empty_squares, gold_in_bank

TAKE_GOLD = 2


def free_rows(state: State) -> list[int]:
    """Rows where phase 3 may place a permit without paying influence: the ship's row, or if it
    is full the rows next to it that still have room."""
    empty_rows = {row for _, row in empty_squares(state)}
    ship = state["ship"]
    if ship in empty_rows:
        return [ship]
    neighbours = [board.shift_row(ship, -1), board.shift_row(ship, 1)]
    return [row for row in neighbours if row in empty_rows]


def require_empty(state: State, col: Any, row: Any) -> Square:
    if (col, row) not in empty_squares(state):
        raise IllegalMove("square-not-empty", "Permits go on empty squares of the city.")
    return col, row


def require_in_supply(state: State, seat: int, value: Any) -> int:
    if value not in state["supply"][seat]["permits"]:
        raise IllegalMove("permit-not-in-supply", f"You have no permit {value!r} in your supply.")
    return value


def check_place_permit(state: State, seat: int, value: Any, col: Any, row: Any, pay_colour: Any) -> None:
    require_in_supply(state, seat, value)
    require_empty(state, col, row)
    if row in free_rows(state):
        if pay_colour is not None:
            raise IllegalMove("payment-not-needed", "That row is open without influence cards.")
    elif pay_colour is None:
        raise IllegalMove("row-not-open", "Permits go in the ship's row (or next to it when it is full); "
                                          "2 influence cards of one colour open any row.")
    else:
        cards.matching_colour(state, seat, pay_colour, 2)
    cards.require_gold(state, seat, value)


def place_permit(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    value, col, row, colour = move["value"], move["col"], move["row"], move.get("pay_colour")
    check_place_permit(ctx.state, seat, value, col, row, colour)
    if colour is not None:
        cards.pay_matching(ctx, seat, colour, 2)
    cards.pay_gold(ctx, seat, value)
    ctx.emit("permit_placed", seat=seat, value=value, col=col, row=row)


def take_gold(ctx: Ctx, seat: int, reason: str) -> None:
    # An empty bank does not forbid the action; it just yields what is left.
    amount = min(TAKE_GOLD, gold_in_bank(ctx.state))
    ctx.emit("cards_drawn", seat=seat, gold=amount, influence=[], reason=reason)


# -- phase 4 -------------------------------------------------------------------------------------------
def own_permit(state: State, seat: int, col: Any, row: Any) -> int:
    permit = state["permits"].get(key(col, row)) if isinstance(col, int) and isinstance(row, int) else None
    if permit is None or permit[0] != seat:
        raise IllegalMove("not-your-permit", "There is no permit of yours on that square.")
    return permit[1]


def check_move_permit(state: State, seat: int, move: dict[str, Any]) -> None:
    own_permit(state, seat, move["from_col"], move["from_row"])
    require_empty(state, move["col"], move["row"])
    cards.matching_colour(state, seat, move["pay_colour"], 2)


def move_permit(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    check_move_permit(ctx.state, seat, move)
    cards.pay_matching(ctx, seat, move["pay_colour"], 2)
    ctx.emit("permit_moved", seat=seat, **{"from": [move["from_col"], move["from_row"]]},
             to=[move["col"], move["row"]])


def check_upgrade_permit(state: State, seat: int, move: dict[str, Any]) -> int:
    old = own_permit(state, seat, move["col"], move["row"])
    value = require_in_supply(state, seat, move["value"])
    if value <= old:
        raise IllegalMove("permit-not-higher", "An upgrade puts a higher permit in place of the old one.")
    cards.matching_colour(state, seat, move["pay_colour"], 2)
    cards.require_gold(state, seat, value - old)
    return old


def upgrade_permit(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    old = check_upgrade_permit(ctx.state, seat, move)
    cards.pay_matching(ctx, seat, move["pay_colour"], 2)
    cards.pay_gold(ctx, seat, move["value"] - old)
    ctx.emit("permit_upgraded", seat=seat, col=move["col"], row=move["row"], value=move["value"])


def require_all_colours(state: State, seat: int) -> None:
    if not cards.has_all_colours(state, seat):
        raise IllegalMove("not-enough-influence", "This needs 3 influence cards of different colours.")


def check_place_anywhere(state: State, seat: int, move: dict[str, Any]) -> None:
    require_in_supply(state, seat, move["value"])
    require_empty(state, move["col"], move["row"])
    require_all_colours(state, seat)
    cards.require_gold(state, seat, move["value"])


def place_anywhere(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    check_place_anywhere(ctx.state, seat, move)
    cards.pay_one_of_each(ctx, seat)
    cards.pay_gold(ctx, seat, move["value"])
    ctx.emit("permit_placed", seat=seat, value=move["value"], col=move["col"], row=move["row"])


def special_gold(ctx: Ctx, seat: int) -> None:
    require_all_colours(ctx.state, seat)
    cards.pay_one_of_each(ctx, seat)
    take_gold(ctx, seat, reason="special")
