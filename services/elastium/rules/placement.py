"""Placing a band: which bands a seat may place now, and how it may pay for the pegs.

Payment, per peg of the band (the rules' "règles de défausse"):
* a peg already holding one of the payer's bands is free;
* an empty peg costs one card of its colour, discarded;
* a peg holding other players' bands costs one card given to one of them (payer's choice);
* two cards of one colour are a joker for any peg; on a peg held by several other players the
  two cards may go to one of them or be split between two (``second_to``);
* Cursed Triangle: on another player's peg the payer may instead give that player 1 energy and
  discard the card.

A payment is a list ``[{"peg", "cards", "to", "second_to", "energy"}]``, one entry per peg that
costs something.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Iterator

from shared.game.engine import IllegalMove
from services.elastium.rules.board import Band, Board
from services.elastium.rules.state import COLOURS, State, bands_left, bands_of, board_of, is_cursed, own_pegs

def check_band(state: State, seat: int, pegs: list[str]) -> Band:
    """The band ``pegs`` names, if ``seat`` may place it now (payment aside)."""
    b = board_of(state)
    if len(set(pegs)) != len(pegs) or any(p not in b.colours or p not in b.bands_by_peg for p in pegs):
        raise IllegalMove("unknown-peg", "Every peg must be a distinct, playable peg of this board.",
                          pegs=pegs)
    sizes = b.band_sizes
    if len(pegs) not in sizes:
        raise IllegalMove("band-size-not-allowed",
                          f"This scenario allows bands of {sorted(sizes)} pegs.", pegs=pegs)
    band = b.band_for(pegs)
    if band is None:
        raise IllegalMove("band-not-on-lines", "The band's sides must follow printed lines: a line, "
                          "a triangle or a rhombus of two triangles.", pegs=pegs)
    if _mixes_idol(b, band):
        raise IllegalMove("mixed-idol-band", "A band may not explore an idol together with normal "
                          "ground; explore the idol alone.", pegs=pegs)
    left = bands_left(state, seat)
    if left is not None and left <= 0:
        raise IllegalMove("no-bands-left", "This player has placed all of their bands.")
    if band.key in bands_of(state, seat):
        raise IllegalMove("band-already-placed", "This player already has a band on exactly these pegs.")
    _check_connection(state, seat, b, band)
    return band


def _mixes_idol(b: Board, band: Band) -> bool:
    if not b.rules.get("mixed_idol_normal_band_forbidden") or len(band.explores) < 2:
        return False
    return len({"idol" in b.segments[s] for s in band.explores}) > 1


def _check_connection(state: State, seat: int, b: Board, band: Band) -> None:
    mine = own_pegs(state, seat)
    if b.scenario == "labyrinth" and mine:
        heads = state["chain_heads"][seat]
        if not any(p in heads for p in band.pegs):
            raise IllegalMove("band-not-from-chain-head",
                              "In the Labyrinth each band continues the chain from its head.", heads=heads)
        return
    if not mine:
        if not starts_ok(state, seat, b, band):
            raise IllegalMove("first-band-not-on-start-peg",
                              "The first band must use a bright start peg allowed to this player.",
                              start_pegs=list(start_pegs(state, seat, b)))
        return
    if b.rules.get("connection_rule", True) and not any(p in mine for p in band.pegs):
        raise IllegalMove("band-not-connected",
                          "Each band after the first must share a peg with this player's bands.")


def start_pegs(state: State, seat: int, b: Board) -> tuple[str, ...]:
    if b.start_rule == "none":
        return tuple(b.pegs)
    pegs = b.start_pegs_for(seat)
    if b.start_rule == "any_listed_unoccupied":
        pegs = tuple(p for p in pegs if not state["peg_owners"].get(p))
    return pegs


def starts_ok(state: State, seat: int, b: Board, band: Band) -> bool:
    return b.start_rule == "none" or any(p in start_pegs(state, seat, b) for p in band.pegs)


def candidate_bands(state: State, seat: int) -> list[Band]:
    """Bands ``seat`` may place now by shape and connection (payment not checked)."""
    b = board_of(state)
    left = bands_left(state, seat)
    if left is not None and left <= 0:
        return []
    mine = own_pegs(state, seat)
    if not mine:
        anchors: list[str] | tuple[str, ...] | None = start_pegs(state, seat, b)
    elif b.scenario == "labyrinth":
        anchors = state["chain_heads"][seat]
    elif not b.rules.get("connection_rule", True):
        anchors = None
    else:
        anchors = sorted(mine)
    pool = (b.bands if anchors is None
            else {band.key: band for peg in anchors for band in b.bands_by_peg.get(peg, ())})
    placed = bands_of(state, seat)
    result = []
    for key in sorted(pool):
        band = pool[key]
        if key in placed or _mixes_idol(b, band):
            continue
        if b.scenario == "labyrinth" and band.walls <= set(state["walls"][seat]):
            continue
        result.append(band)
    return result


# -- payment ----------------------------------------------------------------------------------

def pegs_to_pay(state: State, seat: int, band: Band) -> list[tuple[str, list[int]]]:
    """(peg, other owners) for each peg of the band not already holding the payer's band."""
    owners = state["peg_owners"]
    return [(peg, [o for o in owners.get(peg, []) if o != seat])
            for peg in band.pegs if seat not in owners.get(peg, [])]


def check_payment(state: State, seat: int, band: Band, payment: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Validate ``payment`` and return it normalised (band peg order, every key present)."""
    b = board_of(state)
    due = dict(pegs_to_pay(state, seat, band))
    by_peg = _payment_by_peg(payment, due)
    normalised = [_checked_peg_payment(state, b, peg, by_peg[peg], due[peg]) for peg in band.pegs if peg in due]
    needed = {c: 0 for c in COLOURS}
    for entry in normalised:
        for card in entry["cards"]:
            needed[card] += 1
    energy = sum(entry["energy"] for entry in normalised)
    hand = state["hands"][seat]
    if any(hand[c] < n for c, n in needed.items()):
        raise IllegalMove("cards-not-in-hand", "The payment uses cards this player does not hold.",
                          needed={c: n for c, n in needed.items() if n})
    if energy > state["energy"][seat]:
        raise IllegalMove("not-enough-energy", "Not enough energy to give.")
    return normalised


def _payment_by_peg(payment: list[dict[str, Any]], due: dict[str, list[int]]) -> dict[str, dict[str, Any]]:
    """The payment's entry for each peg due: exactly one each, and none for another peg."""
    by_peg: dict[str, dict[str, Any]] = {}
    for entry in payment:
        peg = entry.get("peg")
        if peg not in due or peg in by_peg:
            raise IllegalMove("payment-mismatch", "Pay exactly once for each peg of the band that does "
                              "not already hold one of your bands.", due=sorted(due))
        by_peg[peg] = entry
    if set(by_peg) != set(due):
        raise IllegalMove("payment-mismatch", "Pay exactly once for each peg of the band that does "
                          "not already hold one of your bands.", due=sorted(due))
    return by_peg


def _checked_peg_payment(state: State, b: Board, peg: str, entry: dict[str, Any], others: list[int]) -> dict[str, Any]:
    """One peg's payment, checked against its colour and the players on it, and normalised."""
    cards = list(entry.get("cards") or [])
    colour = b.colours[peg]
    if not (cards == [colour] or (len(cards) == 2 and cards[0] == cards[1] and cards[0] in COLOURS)):
        raise IllegalMove("wrong-card-colour", f"Peg {peg} takes one {colour} card or two cards "
                          "of one colour (a joker).", peg=peg)
    to = entry.get("to")
    if (to is None and others) or (to is not None and to not in others):
        raise IllegalMove("wrong-recipient", "Cards for an empty peg are discarded; cards for "
                          "another player's peg go to one of the players on it.", peg=peg, owners=others)
    pays_energy = bool(entry.get("energy"))
    if pays_energy and not (is_cursed(state) and to is not None):
        raise IllegalMove("energy-payment-not-allowed", "Only in the Cursed Triangle, and only for "
                          "another player's peg, may energy be given instead of the card.", peg=peg)
    second = entry.get("second_to")
    if second is not None and (len(cards) != 2 or pays_energy or to is None or second == to
                               or second not in others):
        raise IllegalMove("wrong-recipient", "Only the two cards of a joker may be split, between "
                          "two different players on the peg.", peg=peg, owners=others)
    return {"peg": peg, "cards": cards, "to": to, "second_to": second, "energy": pays_energy}


def payments(state: State, seat: int, band: Band, limit: int | None = None) -> list[list[dict[str, Any]]]:
    """Every distinct way to pay for ``band`` (the first ``limit`` only, if given).

    Two payments are the same when they leave every hand, discard pile and energy reserve the
    same: which of two discarded pegs got which joker, or the order of a split joker's two
    receivers, changes nothing.  One spelling of each is listed (exact card before jokers,
    richest joker colour first); ``decide`` accepts every spelling.
    """
    b = board_of(state)
    due = pegs_to_pay(state, seat, band)
    hand = dict(state["hands"][seat])
    if sum(hand.values()) < len(due):
        return []          # not even one card per peg: skip the search (most bands, most turns)
    energy = state["energy"][seat]
    cursed = is_cursed(state)
    joker_order = sorted(COLOURS, key=hand.__getitem__, reverse=True)    # richest colour first (stable)
    found: list[list[dict[str, Any]]] = []
    seen: set[tuple[Any, ...]] = set()

    def options(peg: str, others: list[int]) -> Iterator[tuple[list[str], int | None, int | None, bool]]:
        colour = b.colours[peg]
        card_sets = ([[colour]] if hand[colour] >= 1 else []) + [
            [c, c] for c in joker_order if hand[c] >= 2]
        for cards in card_sets:
            for to in (others or [None]):  # type: ignore[list-item]
                yield cards, to, None, False
                if cursed and to is not None and energy >= 1:
                    yield cards, to, None, True
            if len(cards) == 2:           # a joker split between two owners (one order of the two)
                for i, to in enumerate(others):
                    for second in others[i + 1:]:
                        yield cards, to, second, False

    def outcome(chosen: list[dict[str, Any]]) -> tuple[Any, ...]:
        """Where every card and energy token goes: (receiver, card) pairs and (receiver, energy)."""
        moved: list[tuple[int, str]] = []
        for pay in chosen:
            for index, card in enumerate(pay["cards"]):
                if pay["to"] is None or pay["energy"]:
                    moved.append((-1, card))                 # discarded
                else:
                    second = pay["second_to"]
                    moved.append((second if index == 1 and second is not None else pay["to"], card))
        energy_to = sorted(pay["to"] for pay in chosen if pay["energy"])
        return tuple(sorted(moved)), tuple(energy_to)

    def walk(index: int, chosen: list[dict[str, Any]], energy_left: int) -> None:
        if limit is not None and len(found) >= limit:
            return
        if index == len(due):
            key = outcome(chosen)
            if key not in seen:
                seen.add(key)
                found.append(list(chosen))
            return
        peg, others = due[index]
        for cards, to, second, pays_energy in options(peg, others):
            if pays_energy and energy_left < 1:
                continue
            if any(hand[c] < cards.count(c) for c in cards):
                continue
            for c in cards:
                hand[c] -= 1
            chosen.append({"peg": peg, "cards": cards, "to": to, "second_to": second, "energy": pays_energy})
            walk(index + 1, chosen, energy_left - pays_energy)
            chosen.pop()
            for c in cards:
                hand[c] += 1

    walk(0, [], energy)
    return found


def affordable(state: State, seat: int, band: Band) -> bool:
    return bool(payments(state, seat, band, limit=1))
