"""``setup`` and ``decide``: validate moves and turn them into events."""
from __future__ import annotations

import random
from typing import Any
from collections.abc import Callable

from shared.game.engine import GameOver, IllegalMove, InvalidOptions, NotYourTurn, event

from services.elasund.rules import board, cards, construction, flow, permits
from services.elasund.rules.context import Ctx
from services.elasund.rules.events import evolve
from services.elasund.rules.options import resolve_options
from services.elasund.rules.versions import Engine
from services.elasund.rules.state import (
    BUILD, CHURCH_CHOICE, DISCARD, HUT_REBUILD, PERMIT, PIRATE_ROW, ROLL, SHIP_CHOICE, SPECIAL, State,
    cubes_on_board, to_act,
)

START_GOLD = board.COMPONENTS["cards"]["start_gold"]
START_INFLUENCE = board.COMPONENTS["cards"]["start_influence"]


def setup(players: int, options: dict[str, Any], rng: random.Random, engine: Engine) -> list[dict[str, Any]]:
    if not 2 <= players <= 4:
        raise InvalidOptions("Elasund is for 2 to 4 players.")
    options = resolve_options(options)
    rounds, first = start_player_rolls(players, rng)
    opening = event("game_started", players=players, options=options, start_rolls=rounds, first_player=first)
    ctx = Ctx(evolve(None, opening), rng, engine)
    ctx.emit("influence_deck_formed", counts=dict(board.COMPONENTS["cards"]["influence"]))
    for seat in range(players):
        for kind in board.STARTERS:
            col, row = board.starter_square(seat, kind)
            ctx.emit("building_built", id=ctx.state["next_building_id"], kind=kind, seat=seat, col=col,
                     row=row, cubes=[], trade_points=0)
    for seat in range(players):
        cards.draw(ctx, seat, gold=START_GOLD, influence=START_INFLUENCE, reason="start")
    flow.start_turn(ctx, first)
    return [opening, *ctx.events]


def start_player_rolls(players: int, rng: random.Random) -> tuple[list[dict[str, list[int]]], int]:
    """Everyone rolls both dice; the tied highest roll again until one is highest."""
    contenders = list(range(players))
    rounds: list[dict[str, list[int]]] = []
    while True:
        rolls = {str(seat): [rng.randint(1, 6), rng.randint(1, 6)] for seat in contenders}
        rounds.append(rolls)
        best = max(sum(dice) for dice in rolls.values())
        contenders = [int(seat) for seat, dice in rolls.items() if sum(dice) == best]
        if len(contenders) == 1:
            return rounds, contenders[0]


# -- decide ----------------------------------------------------------------------------------------------
MoveHandler = Callable[[Ctx, int, dict[str, Any]], None]


def field(move: dict[str, Any], name: str, kind: type = int) -> Any:
    value = move.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise IllegalMove("invalid-field", f"Move field {name!r} must be a {kind.__name__}.")
    return value


def _roll(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    flow.roll(ctx)


def _choose_row(then: Callable[[Ctx, int], None]) -> MoveHandler:
    def handler(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
        row = field(move, "row")
        if row not in ctx.state["pending"]["rows"]:
            raise IllegalMove("row-not-allowed", f"Choose one of the rows {ctx.state['pending']['rows']}.")
        then(ctx, row)
    return handler


def _is_count(value: Any) -> bool:
    # Exactly an int: 1.0 or True compare equal to 1 but would reach the events and the state.
    return type(value) is int and value >= 0


def _discard(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    influence = move.get("influence")
    influence = {} if influence is None else influence
    gold = move.get("gold", 0)
    if not isinstance(influence, dict) or not set(influence) <= set(board.INFLUENCE_COLOURS) \
            or not all(_is_count(n) for n in influence.values()):
        raise IllegalMove("invalid-field", "Move field 'influence' must map colours to counts.")
    if not _is_count(gold):
        raise IllegalMove("invalid-field", "Move field 'gold' must be a count.")
    choice = {"gold": gold, "influence": {c: influence.get(c, 0) for c in board.INFLUENCE_COLOURS}}
    if choice not in flow.discard_options_for(ctx.state, seat):
        owed = ctx.state["pending"]["owed"][str(seat)]
        raise IllegalMove("wrong-discard", f"Discard exactly {owed} cards you hold"
                          + (" (influence only)." if ctx.state["pending"]["reason"] != "pirates" else "."))
    ctx.emit("cards_discarded", seat=seat, reason=ctx.state["pending"]["reason"], **choice)
    if not ctx.state["pending"]["owed"]:
        flow.finish_discard(ctx)


def _build(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    plan = construction.check_build(ctx.state, seat, field(move, "building", str), field(move, "col"),
                                    field(move, "row"), move.get("pay_colour"))
    construction.build(ctx, seat, plan)


def _build_wall(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    construction.build_wall(ctx, seat, field(move, "space", str))


def _build_church(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    construction.build_church(ctx, seat)


def _end_building(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    flow.enter_permit(ctx)


def _choose_church(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    construction.choose_church_tile(ctx, seat, field(move, "tile"))


def _rebuild_hut(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    construction.rebuild_hut(ctx, seat, field(move, "col"), field(move, "row"))


def _place_permit(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    permits.place_permit(ctx, seat, _permit_fields(move))
    enter_special_or_end(ctx, seat)


def _take_gold(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    permits.take_gold(ctx, seat, reason="phase3")
    enter_special_or_end(ctx, seat)


def _permit_fields(move: dict[str, Any]) -> dict[str, Any]:
    fields = {name: field(move, name) for name in ("value", "col", "row")}
    return {**fields, "pay_colour": move.get("pay_colour")}


def enter_special_or_end(ctx: Ctx, seat: int) -> None:
    """Phase 4 is skipped when the seat holds fewer than two influence cards: then it cannot pay
    for any special action (a pair, or one of each colour).  Not when its colours cannot pay:
    everyone would see the phase skipped and learn that its cards are all of different colours."""
    if sum(ctx.state["hands"][seat]["influence"].values()) >= 2:
        flow.enter_special(ctx)
    else:
        ctx.turn_over = True


def _special(action: Callable[[Ctx, int, dict[str, Any]], None]) -> MoveHandler:
    def handler(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
        action(ctx, seat, move)
        ctx.turn_over = True
    return handler


def _move_permit(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    fields = {name: field(move, name) for name in ("from_col", "from_row", "col", "row")}
    permits.move_permit(ctx, seat, {**fields, "pay_colour": move.get("pay_colour")})


def _upgrade_permit(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    permits.upgrade_permit(ctx, seat, _permit_fields(move))


def _place_anywhere(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    permits.place_anywhere(ctx, seat, _permit_fields(move))


def _special_gold(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    permits.special_gold(ctx, seat)


def _end_turn(ctx: Ctx, seat: int, move: dict[str, Any]) -> None:
    pass


# Which moves each phase accepts.
HANDLERS: dict[str, dict[str, MoveHandler]] = {
    ROLL: {"roll": _roll},
    SHIP_CHOICE: {"move_ship": _choose_row(flow.move_ship)},
    PIRATE_ROW: {"move_pirates": _choose_row(flow.send_pirates)},
    DISCARD: {"discard": _discard},
    BUILD: {"build": _build, "build_wall": _build_wall, "build_church": _build_church,
            "end_building": _end_building},
    CHURCH_CHOICE: {"choose_church_tile": _choose_church},
    HUT_REBUILD: {"rebuild_hut": _rebuild_hut},
    PERMIT: {"place_permit": _place_permit, "take_gold": _take_gold},
    SPECIAL: {"move_permit": _special(_move_permit), "upgrade_permit": _special(_upgrade_permit),
              "place_permit_anywhere": _special(_place_anywhere), "special_gold": _special(_special_gold),
              "end_turn": _special(_end_turn)},
}
MOVE_TYPES = sorted({name for moves in HANDLERS.values() for name in moves})


def decide(state: State, seat: int, move: dict[str, Any], rng: random.Random,
           engine: Engine) -> list[dict[str, Any]]:
    if state["winner"] is not None:
        raise GameOver()
    if seat not in to_act(state):
        raise NotYourTurn()
    move_type = move.get("type")
    handler = HANDLERS[state["phase"]].get(move_type) if isinstance(move_type, str) else None
    if handler is None:
        if move_type not in MOVE_TYPES:
            raise IllegalMove("unknown-move", f"Unknown move type {move_type!r}.")
        raise IllegalMove("wrong-phase", f"{move_type!r} is not allowed in phase {state['phase']!r}.",
                          allowed=sorted(HANDLERS[state["phase"]]))
    ctx = Ctx(state, rng, engine)
    handler(ctx, seat, move)
    current = ctx.state["current"]
    # Victory is checked during the player's own turn, the moment all 10 cubes are out.
    if cubes_on_board(ctx.state, current) >= board.CUBES_PER_PLAYER:
        ctx.emit("game_won", seat=current)
    elif ctx.turn_over:
        flow.end_turn(ctx)
    return ctx.events
