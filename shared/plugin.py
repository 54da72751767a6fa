"""What a game service hands to the platform: its engine, its schemas and its bots.

Each ``services/<game>/api.py`` builds one :class:`GamePlugin`; ``services/<game>/wsgi.py`` is
``app = create_app(PLUGIN)``.  marshmallow lives here and in ``api.py``, never in the rules.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from marshmallow import Schema

from shared.engine import Game, Strategy, thinks
from shared.pictures import Place
from shared.valuefit import FeatureSet


@dataclass(frozen=True)
class GamePlugin:
    game: Game
    # Validates ``options`` of ``POST /games``; documented in the OpenAPI spec.
    options_schema: type[Schema]
    # One schema per move type: the move's fields other than ``type``.  The platform checks the
    # shape with it (422 ``validation-error`` with JSON pointers) before the engine checks the rules.
    move_schemas: dict[str, type[Schema]]
    # Bot strategies by name; "random" must be one of them.
    strategies: dict[str, Strategy] = field(default_factory=dict)
    # Default port under ``make run``.
    port: int = 8000
    description: str = ""
    # The board as SVG, drawn from the spectator's view and the public seats ({name, bot}): a pure
    # function in the game's own package (``services/<game>/pictures.py``), see shared.pictures.
    board_svg: Callable[[dict[str, Any], list[dict[str, Any]]], str] | None = None
    # The bot that plays for a seat whose turn clock ran out, unless a game names another at
    # creation; None: its rule-of-thumb bot (``rule_of_thumb_bot``, see shared.clocks).
    fallback_bot: str | None = None
    # The game's own small ES module of move widgets for the web table (forms for moves that
    # legal-moves cannot list, such as an open trade offer): ``<web_dir>/moves.js``, served at
    # ``/web/game/moves.js``.  None: the table's generic lists and forms only.
    web_dir: Path | None = None
    # Which move fields each kind of place on its board picture fills ({"node": (place_field("node"),)}):
    # the web table makes a place clickable only for the legal moves that name it in one of its
    # own kind's fields, so a click on a hex never builds on the node of the same number.
    # A kind left out is never clickable.
    places: dict[str, tuple[Place, ...]] = field(default_factory=dict)
    # What the game sends, for the OpenAPI contract (``services/<game>/schemas.py``): its view
    # (``Game.view`` for a seat and for a spectator), its ``result``, and the ``data`` of each
    # event type as ``redact`` serves it and as the full log holds it.  The platform names them
    # after the game (``CatanView``, ``CatanEventDiceRolled``); left out, they are untyped objects.
    view_schema: type[Schema] | None = None
    result_schema: type[Schema] | None = None
    event_schemas: dict[str, type[Schema]] = field(default_factory=dict)
    # Option sets the bot ladder's games cycle through (shared.ladder; Elastium: its eight
    # scenarios), so that a bot is measured on the whole game; empty: the default options.
    bench_variants: list[dict[str, Any]] = field(default_factory=list)
    # The features its expert's value function is fit on (``python -m shared.valuefit <game>``).
    value_features: FeatureSet | None = None

    def bot_level(self, name: str) -> str:
        """``random`` is easy, a search bot that thinks for ``bot_budget_ms`` a move is hard, the
        rule-of-thumb bots that answer at once are medium."""
        if name == "random":
            return "easy"
        return "hard" if thinks(self.strategies[name]) else "medium"

    def bot_levels(self) -> list[dict[str, str]]:
        """The bots people may seat, easiest first (see :meth:`bot_level`).  The lobby and the
        terminal client offer them in this order."""
        order = {"easy": 0, "medium": 1, "hard": 2}
        return sorted(({"name": name, "level": self.bot_level(name)} for name in self.strategies),
                      key=lambda bot: (order[bot["level"]], bot["name"]))

    def rule_of_thumb_bot(self) -> str:
        """The game's rule-of-thumb bot: the last medium one listed (each game lists its strongest
        last), or ``random`` when there is none."""
        medium = [name for name in self.strategies if self.bot_level(name) == "medium"]
        return medium[-1] if medium else "random"
