"""Elfenland as text: round and phase, counters on the roads, each elf's town and visits, your hand."""
from __future__ import annotations

from typing import Any

from shared.render.common import (Context, compact, counts, describe_generic, describe_with, game_end_words,
                                  seat_name, words)


def _roads() -> dict[int, Any]:
    """Road id -> the rules' road (towns, terrain); empty when the rules are not installed."""
    try:
        from services.elfenland.rules.board import ROADS
        return {road.id: road for road in ROADS}
    except Exception:  # noqa: BLE001 - the client may run without the rules installed
        return {}


ROADS = _roads()


def road_label(road: Any) -> str:
    """``"road 0 (Beata-Elvenhold, plain)"``; just ``"road 0"`` when the map is unknown."""
    known = ROADS.get(road) if isinstance(road, int) else ROADS.get(int(road)) if str(road).isdigit() else None
    if known is None:
        return f"road {road}"
    return f"road {road} ({known.a}-{known.b}, {known.terrain})"


def render_state(state: dict[str, Any], ctx: Context) -> str:
    you = ctx.you if ctx.you is not None else state.get("viewer")
    lines = [f"Elfenland ({state.get('edition', '?')}): round {state.get('round', '?')}/{state.get('rounds', '?')}, "
             f"phase {words(state.get('phase', '?'))}, step {state.get('step', '?')}"]
    extras = [f"{k.replace('_', ' ')} {state[k]}" for k in ("deck_size", "bag_size", "discard_size", "gold_pile")
              if state.get(k) is not None]
    if extras:
        lines.append(", ".join(extras))
    if state.get("face_up_counters"):
        lines.append(f"Face-up counters: {counts(state['face_up_counters'])}")
    if state.get("face_up_cards"):
        lines.append(f"Face-up cards: {counts(state['face_up_cards'])}")
    if state.get("gold_values"):
        values = state["gold_values"]
        lines.append("Gold values: " + (", ".join(f"{town} {gold}" for town, gold in values.items())
                                         if isinstance(values, dict) else compact(values)))
    roads = state.get("board") or {}
    if isinstance(roads, dict) and roads:
        parts = []
        for road, info in sorted(roads.items(), key=lambda kv: int(kv[0]) if str(kv[0]).isdigit() else 0):
            if isinstance(info, dict):
                marks = "+".join(info.get("transports") or []) or "-"
                if info.get("obstacle"):
                    marks += f" [{info['obstacle']}]"
                if info.get("gold"):
                    marks += " (gold)"
                parts.append(f"  {road_label(road)}: {marks}")
        lines.append("Roads with counters:")
        lines += parts
    if state.get("auction"):
        lines.append(f"Auction: {compact(state['auction'])}")
    lines.append("Elves:")
    for seat, info in enumerate(state.get("seats") or []):
        if not isinstance(info, dict):
            continue
        visited = info.get("visited") or []
        counters = [c.get("kind") or "hidden" for c in info.get("counters") or [] if isinstance(c, dict)]
        bits = [f"at {info.get('town', '?')}", f"{len(visited)} towns visited",
                f"{info.get('hand_size', '?')} cards", f"counters: {', '.join(counters) or '-'}"]
        if info.get("coins") or (isinstance(info.get("coins"), int) and state.get("edition") != "elfenland"):
            bits.append(f"{info['coins']} coins")          # Elfengold and Elfenroads: 0 coins is news too
        if info.get("home"):
            bits.append(f"home {info['home']}")
        lines.append(f" {ctx.marker(seat)} {ctx.name(seat)}: " + ", ".join(bits))
        if seat == you:
            lines.append(f"Your hand: {counts(info.get('hand'), 'empty')}")
            if visited:
                lines.append(f"You visited: {', '.join(map(str, visited))}")
    return "\n".join(lines)


def describe_move(move: dict[str, Any], state: dict[str, Any] | None = None) -> str:
    kind = move.get("type")
    if kind == "place_counter":
        return f"place {words(move.get('counter'))} on {road_label(move.get('road'))}"
    if kind == "travel":
        return f"travel along {road_label(move.get('road'))} using {counts(move.get('cards'))}"
    if kind == "secret_counter":
        return "take the secret counter" + (" and reveal it" if move.get("reveal") else " (keep it hidden)")
    if kind in ("pass", "draw_card", "draw_counter", "take_gold") and len(move) == 1:
        return words(kind)
    if kind == "reveal_counter":
        return f"reveal {words(move.get('counter'))} for auction"
    if kind == "bid" and isinstance(move.get("amount"), int):
        return f"bid {move['amount']} gold"
    return describe_generic(move)


def _cards(cards: Any, noun: str = "cards") -> str:
    """Cards or counters by name; hidden ones (null in another seat's view) as a count."""
    if isinstance(cards, list):
        if cards and all(isinstance(c, str) for c in cards):
            return counts(_tally(cards))
        return f"{len(cards)} hidden {noun}" if cards else "nothing"
    return words(cards) if cards else "a hidden one"


def _tally(cards: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for card in cards:
        out[words(card)] = out.get(words(card), 0) + 1
    return out


def _travelled(d: dict[str, Any], who: str, names: Any) -> str:
    paid = f", earning {d['earned']} gold" if d.get("earned") else ""
    return f"{who} travels to {d['to']} along {road_label(d['road'])} with {_cards(d.get('cards'))}{paid}"


def _ended(d: dict[str, Any], who: str, names: Any) -> str:
    result = d.get("result") or {}
    return game_end_words(result.get("scores"), result.get("winners"), names)


# The words for each event in the log (the CLI's event lines and the web table's log).
EVENTS: dict[str, Any] = {
    "game_set_up": lambda d, who, names: f"a game of {words(d['edition'])} for {d['players']} players",
    "home_town_dealt": lambda d, who, names: f"{who}'s home town is {d['town']}" if d.get("town")
                                             else f"{who} is dealt a secret home town",
    "round_started": lambda d, who, names: f"round {d['round']} begins; {seat_name(names, d['first'])} starts",
    "cards_dealt": lambda d, who, names: f"{who} is dealt {_cards(d.get('cards'))}",
    "secret_counter_drawn": lambda d, who, names: f"{who} draws a secret counter ({_cards(d.get('counter'))})",
    "phase_started": lambda d, who, names: f"phase: {words(d['phase'])}",
    "secret_counter_chosen": lambda d, who, names: f"{who} " + (f"reveals the secret counter {words(d['counter'])}"
                                                                if d.get("reveal") else "keeps the secret counter hidden"),
    "counters_revealed": lambda d, who, names: f"face-up counters: {_cards(d['counters'])}",
    "counter_taken": lambda d, who, names: f"{who} takes {_cards(d.get('counter'))} from the {d.get('source', 'pile')}",
    "face_up_counter_added": lambda d, who, names: f"{words(d['counter'])} is turned face up",
    "counter_placed": lambda d, who, names: f"{who} places {_cards(d.get('counter'))} on {road_label(d['road'])}",
    "passed": lambda d, who, names: f"{who} passes",
    "travelled": _travelled,
    "flew": lambda d, who, names: f"{who} flies to {d.get('to', '?')}",
    "travel_finished": lambda d, who, names: f"{who} ends the journey" + (f", takes {d['take']}" if d.get("take") else ""),
    "round_ended": lambda d, who, names: "the round ends",
    "cards_kept": lambda d, who, names: f"{who} keeps {_cards(d.get('kept'))}",
    "counters_kept": lambda d, who, names: f"{who} keeps {_cards(d.get('kept'), 'counters')}",
    "game_ended": _ended,
    "face_up_card_added": lambda d, who, names: f"{words(d['card'])} is turned face up",
    "gold_cards_added": lambda d, who, names: f"{d['count']} gold cards are shuffled in",
    "counters_drawn": lambda d, who, names: f"{who} draws {_cards(d.get('counters'), 'counters')}",
    "counter_revealed": lambda d, who, names: f"{who} reveals {words(d['counter'])}",
    "auction_opened": lambda d, who, names: f"the auction opens: {_cards(d['lots'])}",
    "bid_placed": lambda d, who, names: f"{who} bids {d['amount']} gold",
    "bid_passed": lambda d, who, names: f"{who} passes on the lot",
    "lot_overbid": lambda d, who, names: f"{who} bids {d['amount']} gold",
    "lot_sold": lambda d, who, names: f"{who} buys {words(d['counter'])} for {d['price']} gold",
    "lot_unsold": lambda d, who, names: f"nobody buys {words(d['counter'])}",
    "auction_closed": lambda d, who, names: "the auction closes",
    "exchange_played": lambda d, who, names: f"{who} swaps the counters of {road_label(d['road'])} "
                                             f"and {road_label(d['other_road'])}",
    "card_drawn": lambda d, who, names: f"{who} draws {_cards(d.get('card'))}",
    "card_taken": lambda d, who, names: f"{who} takes {words(d['card'])}",
    "gold_card_found": lambda d, who, names: "a gold card turns up",
    "gold_taken": lambda d, who, names: f"{who} takes {d['coins']} gold",
    "income": lambda d, who, names: f"everyone earns {d['coins']} gold",
    "deck_reshuffled": lambda d, who, names: "the deck is reshuffled",
}


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    """One event in words, e.g. ``"bob travels to Virst along road 43 (...) with 2 unicorn"``."""
    return describe_with(EVENTS, event, names)


def scores(state: dict[str, Any]) -> list[str]:
    """Each seat's score as the table shows it: the towns its elf has visited."""
    return [f"{len(info.get('visited') or [])} towns" for info in state.get("seats") or [] if isinstance(info, dict)]


def warn_move(move: dict[str, Any], state: dict[str, Any], you: int) -> str | None:
    """What a move costs that a player may not expect, for the table to confirm first (NOTES.md):
    an over-bid in Elfengold's auction."""
    if move.get("type") == "bid":
        coins, amount = state["seats"][you]["coins"], move["amount"]
        if amount > coins:
            return (f"You have {coins} gold: a bid of {amount} is an over-bid. If it still stands when the lot "
                    f"closes, you forfeit all {coins} gold, get nothing, and the counter is auctioned again.")
    return None
