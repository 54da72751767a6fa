"""Elastium as text: scenario and round, the market, scores and energy, bands, your hand."""
from __future__ import annotations

from collections import Counter
from typing import Any

from shared.render.common import Context, counts, describe_generic, describe_with, game_end_words, words


def _at(values: Any, seat: int) -> Any:
    return values[seat] if isinstance(values, list) and seat < len(values) else None


COLOUR = {"gris": "g", "bleu": "b", "vert": "v", "rouge": "r", "jaune": "j"}


def _scenario_board(scenario: Any) -> dict[str, Any]:
    """The printed board of a scenario (peg colours...) from the rules' data; empty if unavailable."""
    try:
        from services.elastium.rules.board import raw_boards
        return dict(raw_boards()["scenarios"][scenario])
    except Exception:  # noqa: BLE001 - the client may run without the rules installed
        return {}


def render_pegs(state: dict[str, Any], columns: int = 8, rows: int = 10) -> list[str]:
    """The peg grid, north (row 9) at the top; odd rows sit half a step east, as on the board."""
    board = _scenario_board(state.get("scenario"))
    colours = board.get("peg_colours") or {}
    if not colours:
        return []
    unplayable = set(board.get("unplayable_pegs") or [])
    owners = state["peg_owners"] if isinstance(state.get("peg_owners"), dict) else {}
    lines = ["Pegs (cXrY; colour g=gris b=bleu v=vert r=rouge j=jaune, then the seats whose bands hold it; "
             "x = no band):",
             "       " + "".join(f"c{c:<5}" for c in range(columns)).rstrip()]
    for row in reversed(range(rows)):
        cells = []
        for col in range(columns):
            peg = f"c{col}r{row}"
            if peg in unplayable:
                cells.append("x")
            else:
                held = owners[peg] if isinstance(owners.get(peg), list) else []
                cells.append(COLOUR.get(colours.get(peg, ""), "?") + "".join(map(str, held)))
        lines.append(f"  r{row:<2} " + ("   " if row % 2 else "") + "".join(c.ljust(6) for c in cells).rstrip())
    return lines


def render_state(state: dict[str, Any], ctx: Context) -> str:
    you = ctx.you if ctx.you is not None else state.get("seat")
    lines = [f"Elastium ({state.get('scenario', '?')}): round {state.get('round', '?')}/{state.get('max_rounds', '?')}, "
             f"phase {state.get('phase', '?')}"
             + (f", {ctx.name(state['turn_seat'])} has {state.get('actions_left', '?')} actions left"
                if isinstance(state.get("turn_seat"), int) and not (ctx.result or state.get("result")) else "")]
    if state.get("market") is not None:
        lines.append(f"Market: {counts(state.get('market'), 'empty')}; deck {state.get('deck_count', '?')}, "
                     f"energy supply {state.get('energy_supply', '?')}")
    if ctx.board:
        lines += render_pegs(state)
    if state.get("end_triggered") is not None:
        lines.append(f"End triggered: {state['end_triggered']}")
    bands = Counter(b.get("seat") for b in state.get("bands") or [] if isinstance(b, dict))
    pegs = Counter(seat for owners in (state.get("peg_owners") or {}).values() if isinstance(owners, list)
                   for seat in owners)
    lines.append("Players:")
    players, score = state.get("players"), state.get("score")
    seats = players if isinstance(players, int) and players > 0 else len(score) if isinstance(score, list) else 0
    for seat in range(seats):
        bits = [f"score {_at(state.get('score'), seat)}", f"energy {_at(state.get('energy'), seat)}",
                f"{_at(state.get('hand_counts'), seat)} cards", f"{bands.get(seat, 0)} bands on the board",
                f"{pegs.get(seat, 0)} pegs", f"{len(_at(state.get('enclosed'), seat) or [])} segments inside own bands"]
        lines.append(f" {ctx.marker(seat)} {ctx.name(seat)}: " + ", ".join(b for b in bits if "None" not in b))
        if seat == you and state.get("hand") is not None:
            lines.append(f"Your hand: {counts(state.get('hand'), 'empty')}")
    if state.get("pending_bonus_cards"):
        lines.append(f"Bonus cards to take: {state['pending_bonus_cards']}")
    return "\n".join(lines)


def payment(value: Any) -> str:
    """``[{"peg": "c6r0", "cards": ["bleu"], "energy": false, "to": null}, ...]`` -> ``"c6r0: bleu; ..."``."""
    if not isinstance(value, list):
        return counts(value)
    parts = []
    for item in value:
        if not isinstance(item, dict):
            parts.append(str(item))
            continue
        paid = "+".join(map(str, item.get("cards") or []))
        if item.get("energy"):
            paid = (paid + "+" if paid else "") + "energy"
        to = f" to seat {item['to']}" if item.get("to") is not None else ""
        parts.append(f"{item.get('peg', '?')}: {paid or 'nothing'}{to}")
    return "; ".join(parts) or "nothing"


def describe_move(move: dict[str, Any], state: dict[str, Any] | None = None) -> str:
    kind = move.get("type")
    if kind == "take_cards":
        market = move.get("market") or []
        return "take cards: " + (", ".join(map(str, market)) + " from the market" if market else "from the deck")
    if kind == "place_band":
        return f"place a band on {'+'.join(map(str, move.get('pegs') or []))}, pay {payment(move.get('payment'))}"
    if kind in ("buy_action", "end_turn") and len(move) == 1:
        return {"buy_action": "buy an extra action", "end_turn": "end your turn"}[kind]
    return describe_generic(move)


def _hidden(cards: Any) -> str:
    """Cards by colour; hidden ones (another seat's draw) as a count."""
    if isinstance(cards, list):
        return counts(dict(Counter(map(str, cards)))) if cards and all(cards) else f"{len(cards)} cards"
    return str(cards) if cards else "a card"


def _band(d: dict[str, Any], who: str, names: Any) -> str:
    pegs = d.get("pegs") or []
    bits = [f"{who} stretches a band over {len(pegs)} pegs ({', '.join(map(str, pegs))})"]
    if d.get("explored"):
        bits.append(f"exploring {len(d['explored'])}")
    if d.get("enclosed"):
        bits.append(f"enclosing {len(d['enclosed'])}")
    return ", ".join(bits)


# The words for each event in the log (the CLI's event lines and the web table's log).
EVENTS: dict[str, Any] = {
    "game_started": lambda d, who, names: f"a game of {words(d['scenario'])} for {d['players']} players, "
                                          f"at most {d['max_rounds']} rounds",
    "deck_shuffled": lambda d, who, names: f"the deck of {len(d['deck'])} cards is shuffled" if d.get("deck")
                                           else "the deck is shuffled",
    "private_decks_dealt": lambda d, who, names: "each player gets a private deck",
    "cards_dealt": lambda d, who, names: f"{who} is dealt {_hidden(d.get('cards'))}",
    "market_card_revealed": lambda d, who, names: f"{d['card']} is turned up in the market",
    "action_started": lambda d, who, names: f"{who}: {words(d['action'])}",
    "market_card_taken": lambda d, who, names: f"{who} takes {d['card']} from the market",
    "card_drawn": lambda d, who, names: f"{who} draws {_hidden(d.get('card'))}",
    "band_placed": _band,
    "items_collected": lambda d, who, names: f"{who} collects {len(d.get('items') or [])} items"
                                             + (f" worth {d['treasure']} treasure" if d.get("treasure") else ""),
    "points_scored": lambda d, who, names: f"{who} scores {d['points']} points ({words(d['reason'])})",
    "image_completed": lambda d, who, names: f"{who} completes image {d['image']}",
    "turn_ended": lambda d, who, names: f"{who} ends the turn",
    "round_ended": lambda d, who, names: f"round {d['round']} ends",
    "action_bought": lambda d, who, names: f"{who} buys an extra action",
    "discards_reshuffled": lambda d, who, names: "the discards are reshuffled into the deck",
    "end_triggered": lambda d, who, names: f"the end is near ({words(d['reason'])}, by {who})",
    "game_ended": lambda d, who, names: game_end_words(d.get("scores"), d.get("winners"), names),
}


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    """One event in words, e.g. ``"bob stretches a band over 3 pegs (c0r0, c1r0, c0r1)"``."""
    return describe_with(EVENTS, event, names)


def scores(state: dict[str, Any]) -> list[str]:
    """Each seat's score as the table shows it: its points."""
    return [f"{n} points" for n in state.get("score") or []]


def warn_move(move: dict[str, Any], state: dict[str, Any], you: int) -> str | None:
    """What a move costs that a player may not expect, for the table to confirm first (NOTES.md):
    in the Volcano, spending the energy one needs to escape at the end."""
    if state.get("scenario") != "volcano":
        return None
    spent = 3 if move.get("type") == "buy_action" else 0
    if move.get("type") == "place_band":
        spent = sum(1 for pay in move.get("payment") or [] if pay.get("energy"))
    energy = _at(state.get("energy"), you) or 0
    if spent and energy - spent < 7:
        return (f"This spends {spent} energy and leaves you {energy - spent}: in the Volcano a player with fewer "
                "than 7 energy at the end does not escape and loses.")
    return None
