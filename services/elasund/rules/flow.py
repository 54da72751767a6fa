"""Turn flow: phase 1 (dice, ship, income, pirates, shortages) and the moves between phases."""
from __future__ import annotations

from typing import Any

from services.elasund.rules import board, cards
from services.elasund.rules.context import Ctx
from services.elasund.rules.state import (
    BUILD, DISCARD, PERMIT, PIRATE_ROW, SHIP_CHOICE, SPECIAL, building_squares, cubes_in_row,
    gold_in_bank, hand_size, influence_available, next_seat, towers,
)


def start_turn(ctx: Ctx, seat: int) -> None:
    ctx.emit("turn_started", seat=seat, turn=ctx.state["turn"] + 1)


def end_turn(ctx: Ctx) -> None:
    start_turn(ctx, next_seat(ctx.state, ctx.state["current"]))


def enter_build(ctx: Ctx) -> None:
    ctx.emit("phase_entered", phase=BUILD)


def enter_permit(ctx: Ctx) -> None:
    ctx.emit("phase_entered", phase=PERMIT)


def enter_special(ctx: Ctx) -> None:
    ctx.emit("phase_entered", phase=SPECIAL)


def after_build(ctx: Ctx) -> None:
    """Back to phase 2, or on to phase 3 once both builds are used."""
    if ctx.state["builds"] >= 2:
        enter_permit(ctx)
    elif ctx.state["phase"] != BUILD:
        enter_build(ctx)


# -- phase 1 ------------------------------------------------------------------------------------------
def roll(ctx: Ctx) -> None:
    state = ctx.state
    dice = [ctx.rng.randint(1, 6), ctx.rng.randint(1, 6)]
    total = sum(dice)
    ctx.emit("dice_rolled", seat=state["current"], dice=dice, total=total)
    ship = state["ship"]
    if total == 7:
        rows = [row for row in board.ROWS if row != ship]
        ctx.emit("phase_entered", phase=PIRATE_ROW, pending={"rows": rows})
    elif total == ship:
        # The ship must move: exactly two positions up or down the track, the roller chooses.
        rows = [row for row in (board.shift_row(ship, -2), board.shift_row(ship, 2)) if row is not None]
        if len(rows) == 1:
            move_ship(ctx, rows[0])
        else:
            ctx.emit("phase_entered", phase=SHIP_CHOICE, pending={"rows": rows})
    else:
        move_ship(ctx, total)


def income_due(state: dict[str, Any], row: int) -> list[dict[str, int]]:
    """Per seat, the gold and influence its buildings in ``row`` produce."""
    due = [{"gold": 0, "influence": 0} for _ in range(state["players"])]
    for building in state["buildings"]:
        icon = board.BUILDINGS[building["kind"]]["income"]
        if icon and any(square[1] == row for square in building_squares(building)):
            due[building["seat"]][icon] += 1
    return due


def move_ship(ctx: Ctx, row: int) -> None:
    ctx.emit("ship_moved", row=row, pirates=False)
    state = ctx.state
    due = income_due(state, row)
    gold_short = sum(d["gold"] for d in due) > gold_in_bank(state)
    influence_short = sum(d["influence"] for d in due) > influence_available(state)
    if gold_short:
        shortage_of_gold(ctx, due)
    for seat, owed in enumerate(due):
        cards.draw(ctx, seat, gold=0 if gold_short else owed["gold"],
                   influence=0 if influence_short else owed["influence"], reason="income")
    if influence_short:
        shortage_of_influence(ctx, due)
    else:
        enter_build(ctx)


def shortage_of_gold(ctx: Ctx, due: list[dict[str, int]]) -> None:
    """Nobody gets gold; everyone discards half their gold (rounded down) back to the bank."""
    ctx.emit("supply_short", kind="gold")
    for seat in range(ctx.state["players"]):
        half = ctx.state["hands"][seat]["gold"] // 2
        if half:
            ctx.emit("cards_discarded", seat=seat, gold=half, influence={}, reason="gold_shortage")
    if ctx.state["options"]["shortage_payout"] == "after_discard":
        _pay_if_enough(ctx, due, "gold")


def _pay_if_enough(ctx: Ctx, due: list[dict[str, int]], kind: str) -> None:
    """French rules: after the half-discard refills the bank, the income is paid after all."""
    available = gold_in_bank(ctx.state) if kind == "gold" else influence_available(ctx.state)
    if sum(d[kind] for d in due) <= available:
        for seat, owed in enumerate(due):
            cards.draw(ctx, seat, **{kind: owed[kind]}, reason="income")


def shortage_of_influence(ctx: Ctx, due: list[dict[str, int]]) -> None:
    """Nobody gets influence; everyone discards half their influence cards (their choice of
    colours), then the discards are reshuffled into a new deck."""
    ctx.emit("supply_short", kind="influence")
    owed = {str(seat): sum(hand["influence"].values()) // 2 for seat, hand in enumerate(ctx.state["hands"])}
    start_discard(ctx, "influence_shortage", owed, {"due": due})


def send_pirates(ctx: Ctx, row: int) -> None:
    """A 7: no income; each seat discards one card per own victory cube in that row."""
    ctx.emit("ship_moved", row=row, pirates=True)
    state = ctx.state
    owed = {str(seat): min(cubes_in_row(state, seat, row), hand_size(state, seat)) for seat in range(state["players"])}
    start_discard(ctx, "pirates", owed, {"pool": {"gold": 0, "influence": {c: 0 for c in board.INFLUENCE_COLOURS}}})


def start_discard(ctx: Ctx, reason: str, owed: dict[str, int], extra: dict[str, Any]) -> None:
    owed = {seat: n for seat, n in owed.items() if n > 0}
    ctx.emit("phase_entered", phase=DISCARD, pending={"reason": reason, "owed": owed, **extra})
    # A seat is not asked when the counts alone leave it one way to pay: it must give up every
    # card it may discard, or it holds gold only.  Not whenever it has one way: that would skip
    # a seat whose influence is all of one colour, and everyone would see who was not asked.
    # The counts are public (hand sizes, gold amounts); the colours are not.
    for seat, n in sorted(owed.items()):
        hand = ctx.state["hands"][int(seat)]
        influence = sum(hand["influence"].values())
        if n >= (hand["gold"] if reason == "pirates" else 0) + influence or influence == 0:
            options = discard_options_for(ctx.state, int(seat))
            ctx.emit("cards_discarded", seat=int(seat), reason=reason, **options[0])
    if not ctx.state["pending"]["owed"]:
        finish_discard(ctx)


def discard_options_for(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    pending = state["pending"]
    owed = pending["owed"].get(str(seat), 0)
    return cards.discard_options(state["hands"][seat], owed, gold_allowed=pending["reason"] == "pirates")


def finish_discard(ctx: Ctx) -> None:
    pending = ctx.state["pending"]
    if pending["reason"] == "pirates":
        loot(ctx)
        ctx.emit("pool_settled")
    else:
        ctx.emit("influence_reshuffled")
        if ctx.state["options"]["shortage_payout"] == "after_discard":
            _pay_if_enough(ctx, pending["due"], "influence")
    enter_build(ctx)


def loot(ctx: Ctx) -> None:
    """The roller takes one random discarded card per own wall tower."""
    state = ctx.state
    roller = state["current"]
    pool = state["pending"]["pool"]
    cards_in_pool = ["gold"] * pool["gold"] + [c for c in ctx.draw_order for _ in range(pool["influence"][c])]
    taken = ctx.rng.sample(cards_in_pool, min(towers(state, roller), len(cards_in_pool)))
    if taken:
        colours = [c for c in taken if c != "gold"]
        ctx.emit("loot_taken", seat=roller, gold=taken.count("gold"),
                 influence={c: colours.count(c) for c in board.INFLUENCE_COLOURS})
