"""Catan as text: the 19 hexes in their 3-4-5-4-3 rows, bank, players, your hand and the offer."""
from __future__ import annotations

from typing import Any

from shared.render.common import Context, counts, describe_generic, describe_with, seat_name

ROWS = (3, 4, 5, 4, 3)
SHORT = {"hills": "Hil", "forest": "For", "pasture": "Pas", "fields": "Fie", "mountains": "Mou",
         "desert": "Des", "sea": "Sea"}
PRODUCES = {"hills": "brick", "forest": "lumber", "pasture": "wool", "fields": "grain", "mountains": "ore"}
LEVEL = {1: "settlement", 2: "city"}


def _topology() -> tuple[list[list[int]], list[tuple[int, int]]]:
    """hex -> corner nodes and edge -> its two nodes, from the rules' board (empty if unavailable)."""
    try:
        from services.catan.rules.board import EDGE_NODES, HEX_NODES
        return [list(h) for h in HEX_NODES], [tuple(e) for e in EDGE_NODES]  # type: ignore[misc]
    except Exception:  # noqa: BLE001 - the client may run without the rules installed
        return [], []


HEX_NODES, EDGE_NODES = _topology()


def hex_label(board: dict[str, Any], hex_id: int) -> str:
    terrains, numbers = board.get("terrains") or [], board.get("numbers") or []
    terrain = terrains[hex_id] if hex_id < len(terrains) else "?"
    number = numbers[hex_id] if hex_id < len(numbers) else None
    return f"{terrain}" + (f" {number}" if number else "")


def node_hexes(board: dict[str, Any], node: int) -> str:
    """``"forest 9, hills 6"``: the hexes around a corner (empty if the topology is unknown)."""
    return ", ".join(hex_label(board, h) for h, corners in enumerate(HEX_NODES) if node in corners)


def render_board(board: dict[str, Any], robber: Any) -> list[str]:
    terrains, numbers = board.get("terrains") or [], board.get("numbers") or []
    if len(terrains) != sum(ROWS):
        return ["Board: " + ", ".join(f"{i}:{t}" for i, t in enumerate(terrains))] if terrains else []
    lines, hex_id, cell = ["Board (hex: terrain number, R = robber):"], 0, 12
    for length in ROWS:
        cells = []
        for _ in range(length):
            number = numbers[hex_id] if hex_id < len(numbers) else None
            mark = "R" if hex_id == robber else " "
            text = f"{hex_id:>2}:{SHORT.get(terrains[hex_id], str(terrains[hex_id])[:3])} {number or '':>2}{mark}"
            cells.append(text.ljust(cell))
            hex_id += 1
        lines.append("  " + " " * ((5 - length) * cell // 2) + "".join(cells).rstrip())
    harbours = board.get("harbours") or []
    if harbours:
        lines.append("Harbours: " + "; ".join(
            f"{h.get('kind')}{'' if h.get('kind') == '3:1' else ' 2:1'} at nodes "
            + "-".join(str(n) for n in h.get("nodes", [])) for h in harbours if isinstance(h, dict)))
    return lines


def buildings_of(state: dict[str, Any], seat: int) -> tuple[list[int], list[int], int]:
    owners, levels = state.get("node_owner"), state.get("node_level")
    owners, levels = owners if isinstance(owners, list) else [], levels if isinstance(levels, list) else []
    settlements = [n for n, o in enumerate(owners) if o == seat and (levels[n] if n < len(levels) else 1) == 1]
    cities = [n for n, o in enumerate(owners) if o == seat and n < len(levels) and levels[n] == 2]
    edges = state.get("edge_owner")
    roads = sum(1 for o in (edges if isinstance(edges, list) else []) if o == seat)
    return settlements, cities, roads


def render_state(state: dict[str, Any], ctx: Context) -> str:
    you = ctx.you if ctx.you is not None else state.get("you")
    lines = []
    dice = state.get("dice")
    dice_text = f", dice {dice[0]}+{dice[1]}={dice[0] + dice[1]}" if isinstance(dice, list) and len(dice) == 2 else ""
    lines.append(f"Catan: turn {state.get('turn', '?')}, phase {state.get('phase', '?')}{dice_text}"
                 + (f", current {ctx.name(state['current'])}" if isinstance(state.get("current"), int) else ""))
    board = state.get("board") or {}
    if ctx.board:
        lines += render_board(board, board.get("robber"))
    if state.get("bank") is not None:
        lines.append(f"Bank: {counts(state.get('bank'))}; development cards left: {state.get('dev_deck_size', '?')}")
    awards = []
    for key, label in (("longest_road", "Longest road"), ("largest_army", "Largest army")):
        if state.get(key) is not None:
            awards.append(f"{label}: {ctx.name(state[key])}")
    if awards:
        lines.append("; ".join(awards))
    lines.append("Players:")
    for seat_info in state.get("seats") or []:
        if not isinstance(seat_info, dict):
            continue
        seat = seat_info.get("seat")
        points = seat_info.get("points")
        vp = f"{points} VP" if points is not None else f"{seat_info.get('public_points', '?')} VP shown"
        settlements, cities, roads = buildings_of(state, seat) if isinstance(seat, int) else ([], [], 0)
        lines.append(f" {ctx.marker(seat)} {ctx.name(seat)}: {vp}, {seat_info.get('resource_count', '?')} cards, "
                     f"{seat_info.get('dev_card_count', 0)} dev cards, {seat_info.get('knights_played', 0)} knights, "
                     f"road length {seat_info.get('road_length', 0)}"
                     + (f", must discard {seat_info['must_discard']}" if seat_info.get("must_discard") else ""))
        lines.append(f"     settlements at {', '.join(map(str, settlements)) or '-'}; cities at "
                     f"{', '.join(map(str, cities)) or '-'}; {roads} roads")
        if seat == you:
            lines.append(f"Your hand: {counts(seat_info.get('resources'), 'empty')}")
            dev = seat_info.get("dev_cards") or {}
            new = seat_info.get("dev_cards_new") or {}
            lines.append(f"Your development cards: {counts(dev)}" + (f" (bought this turn: {counts(new)})" if counts(new, '') else ""))
            rates = {k: v for k, v in (seat_info.get("trade_rates") or {}).items() if v != 4}
            if rates:
                lines.append("Your better trade rates: " + ", ".join(f"{k} {v}:1" for k, v in rates.items()))
    offer = state.get("offer")
    if isinstance(offer, dict):
        answers, counters = _listed(offer, "answers"), _listed(offer, "counters")

        def answer(i: int, a: Any) -> str:
            counter = counters[i] if i < len(counters) and isinstance(counters[i], dict) else None
            if counter:     # a counter-offer, from the countering seat's side
                return f"{ctx.name(i)} counters: gives {counts(counter.get('give'))} for {counts(counter.get('get'))}"
            return f"{ctx.name(i)} {'accepts' if a else 'declines'}"
        said = ", ".join(answer(i, a) for i, a in enumerate(answers) if a is not None and i != offer.get("seat"))
        lines.append(f"Trade offer from {ctx.name(offer.get('seat'))}: gives {counts(offer.get('give'))} "
                     f"for {counts(offer.get('get'))}; " + (said or "no answer yet"))
    return "\n".join(lines)


def _listed(offer: dict[str, Any], key: str) -> list[Any]:
    value = offer.get(key)
    return value if isinstance(value, list) else []


def describe_move(move: dict[str, Any], state: dict[str, Any] | None = None) -> str:
    board = (state or {}).get("board") or {}
    kind = move.get("type")
    if kind in ("build_settlement", "build_city") and isinstance(move.get("node"), int):
        where = node_hexes(board, move["node"]) if board else ""
        return f"build a {'city' if kind == 'build_city' else 'settlement'} at node {move['node']}" \
            + (f" ({where})" if where else "")
    if kind == "build_road" and isinstance(move.get("edge"), int):
        edge = move["edge"]
        nodes = f" (nodes {EDGE_NODES[edge][0]}-{EDGE_NODES[edge][1]})" if edge < len(EDGE_NODES) else ""
        return f"build a road on edge {edge}{nodes}"
    if kind == "move_robber":
        hex_id = move.get("hex")
        where = f" ({hex_label(board, hex_id)})" if board and isinstance(hex_id, int) else ""
        victim = move.get("victim")
        return f"move the robber to hex {hex_id}{where}" + (f", steal from seat {victim}" if victim is not None else "")
    if kind == "answer_trade" and isinstance(move.get("accept"), bool):
        offer = (state or {}).get("offer") if isinstance((state or {}).get("offer"), dict) else {}
        terms = f" (you give {counts(offer.get('get'))}, get {counts(offer.get('give'))})" if offer else ""
        return ("accept" if move["accept"] else "decline") + " the trade offer" + terms
    if kind == "confirm_trade" and isinstance(move.get("seat"), int):
        offer = (state or {}).get("offer")
        counters = _listed(offer, "counters") if isinstance(offer, dict) else []
        counter = counters[move["seat"]] if 0 <= move["seat"] < len(counters) else None
        if isinstance(counter, dict):
            return (f"accept seat {move['seat']}'s counter-offer (you give {counts(counter.get('get'))}, "
                    f"get {counts(counter.get('give'))})")
        return f"trade with seat {move['seat']}, who accepted"
    if kind == "counter_trade":
        return f"counter-offer: you give {counts(move.get('give'))}, get {counts(move.get('get'))}"
    if kind == "bank_trade":
        return f"trade with the bank: give {counts(move.get('give'))}, get {counts(move.get('get'))}"
    simple = {"roll": "roll the dice", "end_turn": "end your turn", "buy_dev_card": "buy a development card",
              "play_knight": "play a knight", "play_road_building": "play road building",
              "cancel_trade": "cancel your trade offer"}
    if kind in simple and len(move) == 1:
        return simple[kind]
    return describe_generic(move)


def _dice(d: dict[str, Any]) -> str:
    a, b = d["dice"]
    return f"{a}+{b} = {a + b}"


def _robber(d: dict[str, Any], who: str, names: Any) -> str:
    victim = d.get("victim")
    return f"{who} moves the robber to hex {d['hex']}" + (f" and robs {seat_name(names, victim)}"
                                                         if victim is not None else "")


def _produced(d: dict[str, Any], who: str, names: Any) -> str:
    gains = [f"{seat_name(names, seat)} gets {counts(g)}" for seat, g in enumerate(d.get("gains") or [])
             if counts(g, "")]
    short = f" (the bank is short of {counts(d['shortages'])})" if d.get("shortages") else ""
    return ("; ".join(gains) or "nobody produces anything") + short


# The words for each event in the log (the CLI's event lines and the web table's log).
EVENTS: dict[str, Any] = {
    "game_started": lambda d, who, names: f"the game starts with {d['players']} players",
    "settlement_built": lambda d, who, names: f"{who} builds a settlement at node {d['node']}"
                                              + (" (free)" if d.get("free") else ""),
    "city_built": lambda d, who, names: f"{who} builds a city at node {d['node']}",
    "road_built": lambda d, who, names: f"{who} builds a road on edge {d['edge']}" + (" (free)" if d.get("free") else ""),
    "starting_resources": lambda d, who, names: f"{who} takes the starting resources {counts(d['resources'])}",
    "dice_rolled": lambda d, who, names: f"{who} rolls {_dice(d)}",
    "resources_produced": _produced,
    "turn_ended": lambda d, who, names: f"{who} ends the turn",
    "robber_moved": _robber,
    "card_stolen": lambda d, who, names: f"{who} steals {d.get('resource') or 'a card'} from "
                                         f"{seat_name(names, d['victim'])}",
    "cards_discarded": lambda d, who, names: f"{who} discards {counts(d['resources'])}",
    "bank_traded": lambda d, who, names: f"{who} trades {d['count']} {d['give']} with the bank for 1 {d['get']}",
    "dev_card_bought": lambda d, who, names: f"{who} buys a development card"
                                             + (f" ({d['card'].replace('_', ' ')})" if d.get("card") else ""),
    "knight_played": lambda d, who, names: f"{who} plays a knight",
    "monopoly_played": lambda d, who, names: f"{who} plays monopoly on {d['resource']} and takes "
                                             f"{sum(d.get('taken') or [])}",
    "road_building_played": lambda d, who, names: f"{who} plays road building",
    "year_of_plenty_played": lambda d, who, names: f"{who} plays year of plenty for {counts(d['resources'])}",
    "trade_offered": lambda d, who, names: f"{who} offers {counts(d['give'])} for {counts(d['get'])}",
    "trade_answered": lambda d, who, names: f"{who} {'accepts' if d['accept'] else 'declines'} the offer",
    "trade_cancelled": lambda d, who, names: f"{who} withdraws the trade offer",
    "trade_confirmed": lambda d, who, names: f"{who} trades with {seat_name(names, d['partner'])}",
    "road_building_ended": lambda d, who, names: f"{who} has built the free roads",
}


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    """One event in words, e.g. ``"bob rolls 3+4 = 7"``; ``names`` has one name per seat."""
    return describe_with(EVENTS, event, names)


def scores(state: dict[str, Any]) -> list[str]:
    """Each seat's score as the table shows it: its victory points (the public ones for others)."""
    out = []
    for info in state.get("seats") or []:
        points = info.get("points") if info.get("points") is not None else info.get("public_points")
        out.append(f"{points} VP" if points is not None else "")
    return out


def warn_move(move: dict[str, Any], state: dict[str, Any], you: int) -> str | None:
    """What a move costs that a player may not expect, for the table to confirm first (NOTES.md):
    the robber on a hex of one's own buildings, and ending a turn with more than 7 cards."""
    if move.get("type") == "move_robber":
        corners = HEX_NODES[move["hex"]] if 0 <= move.get("hex", -1) < len(HEX_NODES) else []
        owners = state.get("node_owner") or []
        if any(node < len(owners) and owners[node] == you for node in corners):
            return (f"The robber would block your own building on {hex_label(state.get('board') or {}, move['hex'])}: "
                    "that hex produces nothing for you while it stays there.")
    if move.get("type") == "end_turn":
        held = sum((state["seats"][you].get("resources") or {}).values())
        if held > 7:
            return (f"You end your turn holding {held} resource cards: if anyone rolls a 7 before your next turn, "
                    f"you discard {held // 2} of them.")
    return None
