"""Elfenland as text: round and phase, counters on the roads, each elf's town and visits, your hand."""
from __future__ import annotations

from typing import Any

from shared.render.common import Context, compact, counts, describe_generic, words


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
        lines.append(f"Gold values: {compact(state['gold_values'])}")
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
    return describe_generic(move)
