"""Elasund as text: phase and dice, the ship, each player's buildings, supply and (your) hand."""
from __future__ import annotations

from collections import defaultdict
from typing import Any

from shared.render.common import Context, compact, counts, describe_generic, describe_with, seat_name


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
    players = state.get("players")
    for seat in range(players if isinstance(players, int) and players > 0 else len(hands)):
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


def _cards(d: dict[str, Any]) -> str:
    """Gold and influence cards as words; hidden ones (others' draws) as a count."""
    parts = []
    if d.get("gold"):
        parts.append(f"{d['gold']} gold")
    influence = d.get("influence")
    if isinstance(influence, list) and influence:
        parts.append(f"{len(influence)} influence ({', '.join(map(str, influence))})" if all(influence)
                     else f"{len(influence)} influence")
    elif isinstance(influence, dict) and counts(influence, ""):
        parts.append(f"influence {counts(influence)}")
    elif isinstance(influence, int) and influence:
        parts.append(f"{influence} influence")
    return " and ".join(parts) or "nothing"


def _at(d: dict[str, Any]) -> str:
    return f"column {d['col']}, row {d['row']}"


# The words for each event in the log (the CLI's event lines and the web table's log).
EVENTS: dict[str, Any] = {
    "game_started": lambda d, who, names: f"the game starts with {d['players']} players; "
                                          f"{seat_name(names, d['first_player'])} begins",
    "influence_deck_formed": lambda d, who, names: f"the influence deck is formed ({counts(d['counts'])})",
    "building_built": lambda d, who, names: f"{who} builds a {words_of(d['kind'])} at {_at(d)}",
    "building_removed": lambda d, who, names: f"{who}'s {words_of(d['kind'])} is removed",
    "cards_drawn": lambda d, who, names: f"{who} draws {_cards(d)}",
    "cards_discarded": lambda d, who, names: f"{who} discards {_cards(d)}",
    "turn_started": lambda d, who, names: f"turn {d['turn']}: {who} to play",
    "dice_rolled": lambda d, who, names: f"{who} rolls {d['dice'][0]}+{d['dice'][1]} = {d['total']}",
    "phase_entered": lambda d, who, names: f"{words_of(d['phase'])} phase",
    "ship_moved": lambda d, who, names: f"the ship moves to row {d['row']}" + (" with the pirates" if d.get("pirates") else ""),
    "pool_settled": lambda d, who, names: "the pool is paid out",
    "gold_paid": lambda d, who, names: f"{who} pays {d['amount']} gold"
                                       + (f" to {seat_name(names, d['to'])}" if d.get("to") is not None else ""),
    "influence_paid": lambda d, who, names: f"{who} pays influence {counts(d['colours'])}",
    "wall_built": lambda d, who, names: f"{who} builds a wall{' tower' if d.get('tower') else ''} on {d['space']}",
    "permit_placed": lambda d, who, names: f"{who} places a permit of value {d['value']} at {_at(d)}",
    "permit_moved": lambda d, who, names: f"{who} moves a permit from column {d['from'][0]}, row {d['from'][1]} "
                                          f"to column {d['to'][0]}, row {d['to'][1]}",
    "permit_upgraded": lambda d, who, names: f"{who} raises the permit at {_at(d)} to {d['value']}",
    "permits_returned": lambda d, who, names: f"{len(d['squares'])} permits go back to their owners",
    "trade_moved": lambda d, who, names: f"{who} moves up the trade track to {d['total']}",
    "hut_lost": lambda d, who, names: f"{who} loses a {words_of(d['kind'])}",
    "loot_taken": lambda d, who, names: f"{who} takes loot: {_cards(d)}",
    "influence_reshuffled": lambda d, who, names: "the influence cards are reshuffled",
    "church_drawn": lambda d, who, names: f"{who} draws church tiles",
    "church_tile_placed": lambda d, who, names: f"{who} places church tile {d['tile']} at {_at(d)}",
    "church_tile_bottomed": lambda d, who, names: f"{who} puts a church tile at the bottom",
    "supply_short": lambda d, who, names: f"the {d['kind']} supply runs short",
    "game_won": lambda d, who, names: f"{who} wins the game",
}


def words_of(name: Any) -> str:
    return str(name).replace("_", " ")


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    """One event in words, e.g. ``"bob builds a house at column 2, row 11"``."""
    return describe_with(EVENTS, event, names)


def scores(state: dict[str, Any]) -> list[str]:
    """Each seat's score as the table shows it: its victory cubes on the board."""
    return [f"{n} cubes" for n in state.get("cubes_on_board") or []]


def warn_move(move: dict[str, Any], state: dict[str, Any], you: int) -> str | None:
    """What a move costs that a player may not expect, for the table to confirm first (NOTES.md):
    a building that pays the other permits in its area, or that removes one's own building."""
    if move.get("type") != "build":
        return None
    from services.elasund.rules.board import footprint, key

    squares = set(footprint(move["building"], move["col"], move["row"]) or ())
    warnings = []
    owed: dict[int, int] = defaultdict(int)
    for square in squares:
        owner, value = (state.get("permits") or {}).get(key(*square), (you, 0))
        if owner != you and value:
            owed[owner] += value
    if owed:
        warnings.append(f"This also costs you {sum(owed.values())} gold for the other players' permits there "
                        f"({', '.join(f'seat {seat}: {gold}' for seat, gold in sorted(owed.items()))}).")
    for building in state.get("buildings") or []:
        covered = set(footprint(building["kind"], building["col"], building["row"]) or ()) & squares
        if building.get("seat") == you and covered:
            warnings.append(f"Your {words_of(building['kind'])} at {_at(building)} is removed, with its victory "
                            "cubes and trade points.")
    return " ".join(warnings) or None
