"""Catan as text: the 19 hexes in their 3-4-5-4-3 rows, bank, players, your hand and the offer."""
from __future__ import annotations

from typing import Any

from shared.text.i18n import N_, translator
from shared.text.render.common import Context, counts, describe_generic, describe_with, seat_name
from shared.text.render.panels import Item, Panel, Row, counted, seat_label

# Catan's words, in French from locale/fr/LC_MESSAGES/messages.po (the French rules' terms).
_ = translator(__file__)

ROWS = (3, 4, 5, 4, 3)
SHORT = {"hills": N_("Hil"), "forest": N_("For"), "pasture": N_("Pas"), "fields": N_("Fie"), "mountains": N_("Mou"),
         "desert": N_("Des"), "sea": N_("Sea")}
# The phases of a turn (services/catan/rules/state.py), as the text view names them.
PHASES = (N_("setup"), N_("roll"), N_("discard"), N_("robber"), N_("main"), N_("road_building"), N_("trade"),
          N_("over"))
PRODUCES = {"hills": "brick", "forest": "lumber", "pasture": "wool", "fields": "grain", "mountains": "ore"}
LEVEL = {1: "settlement", 2: "city"}
# The game's title as the pages head it (its Game.title, in the rules' language in French).
TITLE = N_("The Settlers of Catan")
# The words of Catan's data the pages show in their forms (shared.text.render.game_terms).
TERMS = (N_("brick"), N_("lumber"), N_("wool"), N_("grain"), N_("ore"),
         N_("hills"), N_("forest"), N_("pasture"), N_("fields"), N_("mountains"), N_("desert"), N_("sea"),
         N_("knight"), N_("monopoly"), N_("road_building"), N_("year_of_plenty"), N_("victory_point"),
         N_("offer_trade"), N_("bank_trade"), N_("counter_trade"), N_("discard"), N_("play_monopoly"),
         N_("play_year_of_plenty"), N_("give"), N_("get"), N_("resources"), N_("resource"), N_("node"),
         N_("edge"), N_("hex"), N_("victim"), N_("accept"), N_("seat"), N_("build_settlement"), N_("build_road"),
         N_("build_city"), N_("move_robber"), N_("answer_trade"), N_("confirm_trade"), N_("cancel_trade"),
         N_("play_knight"), N_("play_road_building"), N_("buy_dev_card"), N_("end_turn"), N_("roll"))


def _counts(value: Any, empty: str | None = None) -> str:
    """Counts of Catan's cards in the language in use: ``"2 argile, 1 laine"``."""
    return counts(value, empty, term=_)


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
    return f"{_(str(terrain))}" + (f" {number}" if number else "")


def node_hexes(board: dict[str, Any], node: int) -> str:
    """``"forest 9, hills 6"``: the hexes around a corner (empty if the topology is unknown)."""
    return ", ".join(hex_label(board, h) for h, corners in enumerate(HEX_NODES) if node in corners)


def render_board(board: dict[str, Any], robber: Any) -> list[str]:
    terrains, numbers = board.get("terrains") or [], board.get("numbers") or []
    if len(terrains) != sum(ROWS):
        return [_("Board: {hexes}").format(hexes=", ".join(f"{i}:{_(t)}" for i, t in enumerate(terrains)))] \
            if terrains else []
    lines, hex_id, cell = [_("Board (hex: terrain number, R = robber):")], 0, 12
    for length in ROWS:
        cells = []
        for _column in range(length):
            number = numbers[hex_id] if hex_id < len(numbers) else None
            mark = _("R") if hex_id == robber else " "
            short = SHORT.get(terrains[hex_id], str(terrains[hex_id])[:3])
            text = f"{hex_id:>2}:{_(short)} {number or '':>2}{mark}"
            cells.append(text.ljust(cell))
            hex_id += 1
        lines.append("  " + " " * ((5 - length) * cell // 2) + "".join(cells).rstrip())
    harbours = board.get("harbours") or []
    if harbours:
        lines.append(_("Harbours: {harbours}").format(harbours="; ".join(
            _("{kind} at nodes {nodes}").format(
                kind=_(str(h.get("kind"))) + ("" if h.get("kind") == "3:1" else " 2:1"),
                nodes="-".join(str(n) for n in h.get("nodes", []))) for h in harbours if isinstance(h, dict))))
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
    dice_text = _(", dice {a}+{b}={sum}").format(a=dice[0], b=dice[1], sum=dice[0] + dice[1]) \
        if isinstance(dice, list) and len(dice) == 2 else ""
    lines.append(_("Catan: turn {turn}, phase {phase}").format(turn=state.get("turn", "?"),
                                                              phase=_(str(state.get("phase", "?")))) + dice_text
                 + (_(", current {name}").format(name=ctx.name(state["current"]))
                    if isinstance(state.get("current"), int) else ""))
    board = state.get("board") or {}
    if ctx.board:
        lines += render_board(board, board.get("robber"))
    if state.get("bank") is not None:
        lines.append(_("Bank: {cards}; development cards left: {left}").format(
            cards=_counts(state.get("bank")), left=state.get("dev_deck_size", "?")))
    awards = []
    for key, label in (("longest_road", _("Longest road")), ("largest_army", _("Largest army"))):
        if state.get(key) is not None:
            awards.append(f"{label}: {ctx.name(state[key])}")
    if awards:
        lines.append("; ".join(awards))
    lines.append(_("Players:"))
    for seat_info in state.get("seats") or []:
        if not isinstance(seat_info, dict):
            continue
        seat = seat_info.get("seat")
        points = seat_info.get("points")
        vp = _("{n} VP").format(n=points) if points is not None \
            else _("{n} VP shown").format(n=seat_info.get("public_points", "?"))
        settlements, cities, roads = buildings_of(state, seat) if isinstance(seat, int) else ([], [], 0)
        lines.append(f" {ctx.marker(seat)} {ctx.name(seat)}: "
                     + _("{vp}, {cards} cards, {dev} dev cards, {knights} knights, road length {length}").format(
                         vp=vp, cards=seat_info.get("resource_count", "?"), dev=seat_info.get("dev_card_count", 0),
                         knights=seat_info.get("knights_played", 0), length=seat_info.get("road_length", 0))
                     + (_(", must discard {n}").format(n=seat_info["must_discard"])
                        if seat_info.get("must_discard") else ""))
        lines.append("     " + _("settlements at {settlements}; cities at {cities}; {roads} roads").format(
            settlements=", ".join(map(str, settlements)) or "-", cities=", ".join(map(str, cities)) or "-",
            roads=roads))
        if seat == you:
            lines.append(_("Your hand: {cards}").format(cards=_counts(seat_info.get("resources"), _("empty"))))
            dev = seat_info.get("dev_cards") or {}
            new = seat_info.get("dev_cards_new") or {}
            lines.append(_("Your development cards: {cards}").format(cards=_counts(dev))
                         + (_(" (bought this turn: {cards})").format(cards=_counts(new)) if _counts(new, "") else ""))
            rates = {k: v for k, v in (seat_info.get("trade_rates") or {}).items() if v != 4}
            if rates:
                lines.append(_("Your better trade rates: {rates}").format(
                    rates=", ".join(f"{_(k)} {v}:1" for k, v in rates.items())))
    offer = state.get("offer")
    if isinstance(offer, dict):
        answers, counters = _listed(offer, "answers"), _listed(offer, "counters")

        def answer(i: int, a: Any) -> str:
            counter = counters[i] if i < len(counters) and isinstance(counters[i], dict) else None
            if counter:     # a counter-offer, from the countering seat's side
                return _("{name} counters: gives {give} for {get}").format(
                    name=ctx.name(i), give=_counts(counter.get("give")), get=_counts(counter.get("get")))
            return (_("{name} accepts") if a else _("{name} declines")).format(name=ctx.name(i))
        said = ", ".join(answer(i, a) for i, a in enumerate(answers) if a is not None and i != offer.get("seat"))
        lines.append(_("Trade offer from {name}: gives {give} for {get}; ").format(
            name=ctx.name(offer.get("seat")), give=_counts(offer.get("give")), get=_counts(offer.get("get")))
            + (said or _("no answer yet")))
    return "\n".join(lines)


def _listed(offer: dict[str, Any], key: str) -> list[Any]:
    value = offer.get(key)
    return value if isinstance(value, list) else []


def describe_move(move: dict[str, Any], state: dict[str, Any] | None = None) -> str:
    board = (state or {}).get("board") or {}
    kind = move.get("type")
    if kind in ("build_settlement", "build_city") and isinstance(move.get("node"), int):
        where = node_hexes(board, move["node"]) if board else ""
        text = _("build a city at node {node}") if kind == "build_city" else _("build a settlement at node {node}")
        return text.format(node=move["node"]) + (f" ({where})" if where else "")
    if kind == "build_road" and isinstance(move.get("edge"), int):
        edge = move["edge"]
        nodes = _(" (nodes {a}-{b})").format(a=EDGE_NODES[edge][0], b=EDGE_NODES[edge][1]) if edge < len(EDGE_NODES) else ""
        return _("build a road on edge {edge}").format(edge=edge) + nodes
    if kind == "move_robber":
        hex_id = move.get("hex")
        where = f" ({hex_label(board, hex_id)})" if board and isinstance(hex_id, int) else ""
        victim = move.get("victim")
        return _("move the robber to hex {hex}").format(hex=hex_id) + where \
            + (_(", steal from seat {n}").format(n=victim) if victim is not None else "")
    if kind == "answer_trade" and isinstance(move.get("accept"), bool):
        offer = (state or {}).get("offer") if isinstance((state or {}).get("offer"), dict) else {}
        terms = _(" (you give {give}, get {get})").format(give=_counts(offer.get("get")), get=_counts(offer.get("give"))) \
            if offer else ""
        return (_("accept the trade offer") if move["accept"] else _("decline the trade offer")) + terms
    if kind == "confirm_trade" and isinstance(move.get("seat"), int):
        offer = (state or {}).get("offer")
        counters = _listed(offer, "counters") if isinstance(offer, dict) else []
        counter = counters[move["seat"]] if 0 <= move["seat"] < len(counters) else None
        if isinstance(counter, dict):
            return _("accept seat {n}'s counter-offer (you give {give}, get {get})").format(
                n=move["seat"], give=_counts(counter.get("get")), get=_counts(counter.get("give")))
        return _("trade with seat {n}, who accepted").format(n=move["seat"])
    if kind == "counter_trade":
        return _("counter-offer: you give {give}, get {get}").format(give=_counts(move.get("give")),
                                                                     get=_counts(move.get("get")))
    if kind == "bank_trade":
        return _("trade with the bank: give {give}, get {get}").format(give=_counts(move.get("give")),
                                                                       get=_counts(move.get("get")))
    simple = {"roll": N_("roll the dice"), "end_turn": N_("end your turn"), "buy_dev_card": N_("buy a development card"),
              "play_knight": N_("play a knight"), "play_road_building": N_("play road building"),
              "cancel_trade": N_("cancel your trade offer")}
    if kind in simple and len(move) == 1:
        return _(simple[kind])
    return describe_generic(move, _)


def _dice(d: dict[str, Any]) -> str:
    a, b = d["dice"]
    return f"{a}+{b} = {a + b}"


def _robber(d: dict[str, Any], who: str, names: Any) -> str:
    victim = d.get("victim")
    return _("{who} moves the robber to hex {hex}").format(who=who, hex=d["hex"]) \
        + (_(" and robs {name}").format(name=seat_name(names, victim)) if victim is not None else "")


def _produced(d: dict[str, Any], who: str, names: Any) -> str:
    gains = [_("{name} gets {cards}").format(name=seat_name(names, seat), cards=_counts(g))
             for seat, g in enumerate(d.get("gains") or []) if _counts(g, "")]
    short = _(" (the bank is short of {cards})").format(cards=_counts(d["shortages"])) if d.get("shortages") else ""
    return ("; ".join(gains) or _("nobody produces anything")) + short


def _free(d: dict[str, Any]) -> str:
    return _(" (free)") if d.get("free") else ""


def _stolen(d: dict[str, Any], who: str, names: Any) -> str:
    victim = seat_name(names, d["victim"])
    if d.get("resource"):
        return _("{who} steals {resource} from {victim}").format(who=who, resource=_(d["resource"]), victim=victim)
    return _("{who} steals a card from {victim}").format(who=who, victim=victim)


# The words for each event in the log (the CLI's event lines and the web table's log).
EVENTS: dict[str, Any] = {
    "game_started": lambda d, who, names: _("the game starts with {n} players").format(n=d["players"]),
    "settlement_built": lambda d, who, names: _("{who} builds a settlement at node {node}").format(who=who, node=d["node"])
                                              + _free(d),
    "city_built": lambda d, who, names: _("{who} builds a city at node {node}").format(who=who, node=d["node"]),
    "road_built": lambda d, who, names: _("{who} builds a road on edge {edge}").format(who=who, edge=d["edge"]) + _free(d),
    "starting_resources": lambda d, who, names: _("{who} takes the starting resources {cards}").format(
        who=who, cards=_counts(d["resources"])),
    "dice_rolled": lambda d, who, names: _("{who} rolls {dice}").format(who=who, dice=_dice(d)),
    "resources_produced": _produced,
    "turn_ended": lambda d, who, names: _("{who} ends the turn").format(who=who),
    "robber_moved": _robber,
    "card_stolen": _stolen,
    "cards_discarded": lambda d, who, names: _("{who} discards {cards}").format(who=who, cards=_counts(d["resources"])),
    "bank_traded": lambda d, who, names: _("{who} trades {count} {give} with the bank for 1 {get}").format(
        who=who, count=d["count"], give=_(d["give"]), get=_(d["get"])),
    "dev_card_bought": lambda d, who, names: _("{who} buys a development card").format(who=who)
                                             + (f" ({_(d['card']).replace('_', ' ')})" if d.get("card") else ""),
    "knight_played": lambda d, who, names: _("{who} plays a knight").format(who=who),
    "monopoly_played": lambda d, who, names: _("{who} plays monopoly on {resource} and takes {n}").format(
        who=who, resource=_(d["resource"]), n=sum(d.get("taken") or [])),
    "road_building_played": lambda d, who, names: _("{who} plays road building").format(who=who),
    "year_of_plenty_played": lambda d, who, names: _("{who} plays year of plenty for {cards}").format(
        who=who, cards=_counts(d["resources"])),
    "trade_offered": lambda d, who, names: _("{who} offers {give} for {get}").format(
        who=who, give=_counts(d["give"]), get=_counts(d["get"])),
    "trade_answered": lambda d, who, names: (_("{who} accepts the offer") if d["accept"]
                                             else _("{who} declines the offer")).format(who=who),
    "trade_countered": lambda d, who, names: _("{who} makes a counter-offer: gives {give} for {get}").format(
        who=who, give=_counts(d["give"]), get=_counts(d["get"])),
    "trade_cancelled": lambda d, who, names: _("{who} withdraws the trade offer").format(who=who),
    "trade_confirmed": lambda d, who, names: _("{who} trades with {partner}").format(
        who=who, partner=seat_name(names, d["partner"])),
    "road_building_ended": lambda d, who, names: _("{who} has built the free roads").format(who=who),
}


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    """One event in words, e.g. ``"bob rolls 3+4 = 7"``; ``names`` has one name per seat."""
    return describe_with(EVENTS, event, names, _)


def scores(state: dict[str, Any]) -> list[str]:
    """Each seat's score as the table shows it: its victory points (the public ones for others)."""
    out = []
    for info in state.get("seats") or []:
        points = info.get("points") if info.get("points") is not None else info.get("public_points")
        out.append(_("{n} VP").format(n=points) if points is not None else "")
    return out


def warn_move(move: dict[str, Any], state: dict[str, Any], you: int) -> str | None:
    """What a move costs that a player may not expect, for the table to confirm first (NOTES.md):
    the robber on a hex of one's own buildings, and ending a turn with more than 7 cards."""
    if move.get("type") == "move_robber":
        corners = HEX_NODES[move["hex"]] if 0 <= move.get("hex", -1) < len(HEX_NODES) else []
        owners = state.get("node_owner") or []
        if any(node < len(owners) and owners[node] == you for node in corners):
            return _("The robber would block your own building on {hex}: "
                     "that hex produces nothing for you while it stays there.").format(
                hex=hex_label(state.get("board") or {}, move["hex"]))
    if move.get("type") == "end_turn":
        held = sum((state["seats"][you].get("resources") or {}).values())
        if held > 7:
            return _("You end your turn holding {held} resource cards: if anyone rolls a 7 before your next turn, "
                     "you discard {half} of them.").format(held=held, half=held // 2)
    return None


# The resources' swatches: the colours of the terrains that produce them on the board picture.
RESOURCE_COLOURS = {"brick": "#c0603a", "lumber": "#2f7a3b", "wool": "#a3cf62", "grain": "#edc860", "ore": "#8d939b"}
# What each phase asks of the player whose turn it is, in words.
PHASE_WORDS = {"setup": N_("placing the first settlements and roads"), "roll": N_("rolling the dice"),
               "discard": N_("discarding half of a big hand"), "robber": N_("moving the robber"),
               "main": N_("building and trading"), "road_building": N_("building two free roads"),
               "trade": N_("answering a trade offer"), "over": N_("the game is over")}
DEV_CARDS = {"knight": N_("knight"), "monopoly": N_("monopoly"), "road_building": N_("road building"),
             "year_of_plenty": N_("year of plenty"), "victory_point": N_("victory point")}


def _resource(word: str) -> str:
    return _(word)


def panels(state: dict[str, Any], ctx: Context) -> list[Panel]:
    """Whose turn and the dice, one's hand and development cards, the bank, each seat's public counts."""
    you = ctx.you
    out = []
    current = state.get("current")
    turn_rows = [Row(_("Turn"), str(state.get("turn", "?")))]
    if isinstance(current, int):
        turn_rows.append(Row(seat_label(ctx, current), _(PHASE_WORDS.get(str(state.get("phase")), str(state.get("phase")))),
                             seat=current, current=True))
    dice = state.get("dice")
    if isinstance(dice, list) and len(dice) == 2:
        turn_rows.append(Row(_("Dice"), f"{dice[0]} + {dice[1]} = {dice[0] + dice[1]}"))
    for key, label in (("longest_road", N_("Longest road")), ("largest_army", N_("Largest army"))):
        holder = state.get(key)
        turn_rows.append(Row(_(label), seat_label(ctx, holder) if isinstance(holder, int) else _("nobody yet"),
                             seat=holder if isinstance(holder, int) else None))
    out.append(Panel("turn", _("This turn"), tuple(turn_rows)))
    seats = [s for s in state.get("seats") or [] if isinstance(s, dict)]
    mine = next((s for s in seats if s.get("seat") == you), None) if isinstance(you, int) else None
    if mine is not None:
        held: dict[str, int] = mine["resources"] if isinstance(mine.get("resources"), dict) else {}
        rows = [Row(_("Resources"), "", counted({k: held.get(k, 0) for k in RESOURCE_COLOURS}, _resource, RESOURCE_COLOURS,
                                                keep_zero=True))]
        new: dict[str, int] = mine.get("dev_cards_new") or {}
        dev = {k: n + new.get(k, 0) for k, n in (mine.get("dev_cards") or {}).items()}
        rows.append(Row(_("Development cards"), "" if any(dev.values()) else _("none"),
                        counted(dev, lambda k: _(DEV_CARDS.get(k) or k))))
        rates = {k: v for k, v in (mine.get("trade_rates") or {}).items() if v != 4}
        if rates:
            rows.append(Row(_("Harbours"), ", ".join(f"{_(k)} {v}:1" for k, v in rates.items())))
        out.append(Panel("hand", _("Your hand"), tuple(rows)))
    if isinstance(state.get("bank"), dict):
        out.append(Panel("bank", _("Bank"), (
            Row(_("Resources"), "", counted({k: state["bank"].get(k, 0) for k in RESOURCE_COLOURS}, _resource,
                                            RESOURCE_COLOURS, keep_zero=True)),
            Row(_("Development cards"), _("{n} left").format(n=state.get("dev_deck_size", "?"))))))
    rows = []
    for info in seats:
        seat = info.get("seat")
        if not isinstance(seat, int):
            continue
        points = info.get("points") if info.get("points") is not None else info.get("public_points")
        settlements, cities, roads = buildings_of(state, seat)
        facts = [Item(_("Victory points"), points), Item(_("Cards"), info.get("resource_count", 0)),
                 Item(_("Development cards"), info.get("dev_card_count", 0)), Item(_("Settlements"), len(settlements)),
                 Item(_("Cities"), len(cities)), Item(_("Roads"), roads),
                 Item(_("Knights played"), info.get("knights_played", 0))]
        if info.get("must_discard"):
            facts.append(Item(_("Must discard"), info["must_discard"]))
        rows.append(Row(seat_label(ctx, seat), "", tuple(facts), seat=seat, current=seat in ctx.to_act))
    out.append(Panel("players", _("Players"), tuple(rows)))
    offer = state.get("offer")
    if isinstance(offer, dict):
        out.append(Panel("offer", _("Trade offer"), (
            Row(seat_label(ctx, offer["seat"]) if isinstance(offer.get("seat"), int) else _("someone"),
                _("gives {give} for {get}").format(give=_counts(offer.get("give")), get=_counts(offer.get("get"))),
                seat=offer.get("seat") if isinstance(offer.get("seat"), int) else None),)))
    return out

# The pages' words for each rule a move can break, by the problem's ``reason`` (the API's own
# detail stays in English for integrators; problems.json lists every reason with an example of it).
REFUSALS: dict[str, str] = {
    "already-answered": N_("You have already answered this trade offer."),
    "already-rolled": N_("The dice have already been rolled this turn."),
    "answer-the-offer": N_("Answer the open trade offer first: accept or decline it."),
    "bank-empty": N_("The bank does not have those resources."),
    "card-bought-this-turn": N_("A development card cannot be played in the turn it was bought."),
    "discard-pending": N_("Players with more than 7 cards must discard half of them first."),
    "edge-occupied": N_("There is already a road there."),
    "invalid-answer": N_("Answer the offer with yes or no."),
    "invalid-discard": N_("Discard exactly half of your cards, rounded down, from those you hold."),
    "invalid-edge": N_("There is no such side on the board."),
    "invalid-hex": N_("There is no such land hex on the board."),
    "invalid-node": N_("There is no such intersection on the board."),
    "invalid-resource": N_("That is not a resource: brick, lumber, wool, grain or ore."),
    "invalid-trade": N_("Both parties to a trade must give cards: no gifts."),
    "invalid-victim": N_("Rob an opponent who has a building on that hex and cards in hand."),
    "must-place-road": N_("Place the free roads of the Road Building card first."),
    "must-place-settlement": N_("Place a settlement first, then its road."),
    "must-roll-first": N_("Roll the dice first (only a development card may be played before)."),
    "no-dev-cards-left": N_("The development card deck is empty."),
    "no-discard-needed": N_("You do not have to discard."),
    "no-open-offer": N_("There is no open trade offer."),
    "no-pieces-left": N_("You have no more pieces of that kind in your supply."),
    "no-road-location": N_("There is nowhere left to build a road."),
    "no-such-card": N_("You do not have that development card."),
    "node-occupied": N_("That intersection is already built on."),
    "not-accepted": N_("Confirm the trade with a player who accepted it."),
    "not-connected": N_("It must touch one of your own roads or buildings."),
    "not-enough-resources": N_("You do not have the resources to pay for that."),
    "not-now": N_("That move is not allowed at this moment of the turn."),
    "not-your-settlement": N_("A city replaces one of your own settlements."),
    "offer-open": N_("Confirm or withdraw the open trade offer first."),
    "one-card-per-turn": N_("Only one development card may be played per turn."),
    "own-offer": N_("You cannot answer your own offer."),
    "road-not-at-settlement": N_("The set-up road must touch the settlement just placed."),
    "robber-must-move": N_("Move the robber first."),
    "robber-same-hex": N_("The robber must move to another land hex."),
    "same-resource": N_("Trade a resource for a different one."),
    "settlement-too-close": N_("The distance rule: the neighbouring intersections must be free."),
    "setup-in-progress": N_("During set-up only settlements and their roads are placed."),
    "trading-over": N_("Trading comes before building: you have already built or bought this turn."),
    "unknown-move": N_("This game has no such move."),
    "victim-required": N_("Choose a player to rob."),
}
