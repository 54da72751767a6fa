"""Elasund as text: phase and dice, the ship, each player's buildings, supply and (your) hand."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from shared.render.common import Context, compact, counts, describe_generic


def render_state(state: dict[str, Any], ctx: Context) -> str:
    you = ctx.you
    dice = state.get("dice")
    dice_text = f", dice {'+'.join(map(str, dice))}" if isinstance(dice, list) and dice else ""
    lines = [f"Elasund: turn {state.get('turn', '?')}, phase {state.get('phase', '?')}{dice_text}"
             + (f", current {ctx.name(state['current'])}" if isinstance(state.get("current"), int) else "")]
    extras = []
    if "ship" in state:
        extras.append(f"ship at row {state['ship'] if state['ship'] is not None else '-'}")
    if state.get("pirates"):
        extras.append("pirates!")
    if "gold_bank" in state:
        extras.append(f"gold bank {state['gold_bank']}")
    if "influence_deck" in state:
        extras.append(f"influence deck {state['influence_deck']}")
    if extras:
        lines.append(", ".join(extras))
    if isinstance(state.get("stock"), dict):
        lines.append(f"Building stock: {counts(state['stock'])}")
    if isinstance(state.get("church"), dict):
        church = state["church"]
        lines.append(f"Church: {len(church.get('tiles') or {})} tiles built, {church.get('stack', '?')} left")
    by_seat: dict[Any, list[str]] = defaultdict(list)
    for b in state.get("buildings") or []:
        if isinstance(b, dict):
            tp = f" {b['trade_points']}tp" if b.get("trade_points") else ""
            cubes = f" cubes {b['cubes']}" if b.get("cubes") else ""
            by_seat[b.get("seat")].append(f"{b.get('kind', '?')}@{b.get('col', '?')},{b.get('row', '?')}{tp}{cubes}")
    walls_by: dict[Any, list[str]] = defaultdict(list)
    for space, wall in (state.get("walls") or {}).items():
        if isinstance(wall, dict):
            walls_by[wall.get("seat")].append(space + ("(tower)" if wall.get("tower") else ""))
    permits_by: dict[Any, list[str]] = defaultdict(list)
    for where, permit in (state.get("permits") or {}).items():
        if isinstance(permit, list) and len(permit) == 2:
            permits_by[permit[0]].append(f"{permit[1]}@{where}")
    hands, supply = state.get("hands") or [], state.get("supply") or []
    trade, on_board = state.get("trade") or [], state.get("cubes_on_board") or []
    lines.append("Players:")
    for seat in range(int(state.get("players") or len(hands) or 0)):
        info = []
        if seat < len(trade):
            info.append(f"trade {trade[seat]}")
        if seat < len(on_board):
            info.append(f"{on_board[seat]} cubes on board")
        hand = hands[seat] if seat < len(hands) and isinstance(hands[seat], dict) else {}
        if "cards" in hand:
            info.append(f"{hand['cards']} cards in hand")
        lines.append(f" {ctx.marker(seat)} {ctx.name(seat)}: " + ", ".join(info))
        lines.append(f"     buildings: {'; '.join(by_seat.get(seat, [])) or '-'}")
        if walls_by.get(seat) or permits_by.get(seat):
            lines.append(f"     walls: {', '.join(walls_by.get(seat, [])) or '-'}; permits on board: "
                         f"{', '.join(permits_by.get(seat, [])) or '-'}")
        if seat < len(supply) and isinstance(supply[seat], dict):
            s = supply[seat]
            lines.append(f"     supply: permits {counts(s.get('permits'))}; buildings {counts(s.get('buildings'))}; "
                         f"walls built {s.get('walls_built', 0)}")
        if seat == you or "gold" in hand:
            if "gold" in hand or "influence" in hand:
                lines.append(f"Your hand: {hand.get('gold', 0)} gold; influence {counts(hand.get('influence'))}")
    if state.get("pending"):
        lines.append(f"Pending: {compact(state['pending'])}")
    return "\n".join(lines)


def describe_move(move: dict[str, Any], state: dict[str, Any] | None = None) -> str:
    kind = move.get("type")
    if kind in ("build", "place_permit", "place_permit_anywhere", "rebuild_hut") and "col" in move:
        what = move.get("building") or (f"permit {move['value']}" if "value" in move else "worker hut")
        pay = f", pay with {move['pay_colour']}" if move.get("pay_colour") else ""
        verb = "build" if kind in ("build", "rebuild_hut") else "place"
        return f"{verb} {what} at column {move['col']}, row {move['row']}{pay}"
    simple = {"roll": "roll the dice", "end_turn": "end your turn", "end_building": "stop building",
              "take_gold": "take gold", "build_church": "build a church tile", "special_gold": "take special gold"}
    if kind in simple and len(move) == 1:
        return simple[kind]
    return describe_generic(move)
