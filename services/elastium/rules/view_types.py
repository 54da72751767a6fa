"""The shape of Elastium's view (``views.view``), as the renderers read it.

The marshmallow ``View`` in services/elastium/schemas.py documents the same shape for the API;
tests/elastium/test_view_types.py holds the engine to these types over many played positions.
Pegs (``cXrY``), lines (``cArB-cCrD``) and segments (``sSiI``) are plain strings: the board's
data names them, a closed set per scenario but too long to spell out here.
"""
from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

Scenario = Literal["jungle-temples", "volcano", "archipelago", "engraved-plateau", "fragile-ruins",
                   "cursed-triangle", "two-deities", "labyrinth"]
# The cards' and pegs' colours (the French rules' names).
Colour = Literal["gris", "bleu", "vert", "rouge", "jaune"]
# The Labyrinth's artefacts.
Artefact = Literal["épée", "casque", "bouclier"]
# The seat to act's phase (state.ACTIONS, EXTRA, BONUS), or the game's end.
Phase = Literal["actions", "extra", "bonus", "over"]
# Why the game ends after the current round (moves._end_reason).
EndReason = Literal["score-reached", "images-completed", "bands-exhausted", "chains-blocked"]


class ViewHand(TypedDict):
    """A hand: how many cards of each colour (every colour listed, zeros included)."""

    gris: int
    bleu: int
    vert: int
    rouge: int
    jaune: int


class ViewBand(TypedDict):
    """A band on the board: its seat and its key (its pegs joined by ``+``)."""

    seat: int
    key: str


class ScoreBreakdown(TypedDict):
    """One seat's final score, part by part: only the parts its scenario counts."""

    seat: int
    score: int
    energy_points: int
    total: int
    escaped: NotRequired[bool]                 # Volcano
    territories: NotRequired[int]              # Cursed Triangle
    territory_points: NotRequired[int]         # Cursed Triangle
    idol_points: NotRequired[int]              # Two Deities: the seats holding a majority
    artefact_sets: NotRequired[int]            # Labyrinth
    artefact_points: NotRequired[int]          # Labyrinth


class ViewResult(TypedDict):
    winners: list[int]
    scores: list[int]
    breakdown: list[ScoreBreakdown]
    bands_used: list[int]


class ElastiumView(TypedDict):
    """What a viewer sees: every public key for everyone; ``seat`` and ``hand`` in a seat's view;
    ``hands`` (every hand, turned up) once the game is over."""

    scenario: Scenario
    players: int
    max_rounds: int
    round: int
    turn_seat: int
    actions_left: int
    extra_used: bool
    pending_bonus_cards: int
    market: list[Colour]
    discard: list[Colour]
    own_discards: list[list[Colour]]           # Cursed Triangle: each seat's discards
    score: list[int]
    energy: list[int]
    energy_supply: int
    bands: list[ViewBand]                      # in placement order
    bands_used: list[int]
    peg_owners: dict[str, list[int]]           # peg -> seats whose bands hold it, in arrival order
    explored: dict[str, int]                   # segment -> first seat to explore it
    enclosed: list[list[str]]                  # segments each seat has enclosed
    collected: dict[str, int]                  # segment or line -> seat
    penalised: list[list[str]]                 # Engraved Plateau: empty segments charged
    images_completed: list[str]
    edge_reached: list[int]                    # Jungle Temples: seats in order of arrival
    artefacts: list[dict[Artefact, int]]       # Labyrinth
    chains: list[list[str]]                    # Labyrinth: pegs, tail first
    chain_heads: list[list[str]]               # Labyrinth: pegs the next band may start at
    end_triggered: EndReason | None
    result: ViewResult | None
    phase: Phase
    deck_count: int
    own_deck_counts: list[int]                 # Cursed Triangle
    hand_counts: list[int]
    seat: NotRequired[int]                     # a seat's view
    hand: NotRequired[ViewHand]                # a seat's view
    hands: NotRequired[list[ViewHand]]         # once the game is over
