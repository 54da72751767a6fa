"""What a game service hands to the platform: its engine, its schemas and its bots.

Each ``services/<game>/api.py`` builds one :class:`GamePlugin`; ``services/<game>/wsgi.py`` is
``app = create_app(PLUGIN)``.  marshmallow lives here and in ``api.py``, never in the rules.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any
from collections.abc import Callable

from marshmallow import Schema

from shared.game.engine import EngineUnavailable, Game, Strategy, thinks
from shared.game.pictures import Place
from shared.game.value import FeatureSet


@dataclass(frozen=True)
class GamePlugin:
    # The newest rules engine: what new games are played by (see ``rules`` for the others).
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
    # The board as SVG, drawn from the spectator's view (of the game's own view type) and the public
    # seats ({name, bot}): a pure function in the game's own package (``services/<game>/pictures.py``),
    # see shared.game.pictures.
    board_svg: Callable[[Any, list[dict[str, Any]]], str] | None = None
    # The bot that plays for a seat whose turn clock ran out, unless a game names another at
    # creation; None: its rule-of-thumb bot (``rule_of_thumb_bot``, see shared.play.clocks).
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
    # Option sets the bot ladder's games cycle through (shared.ai.ladder; Elastium: its eight
    # scenarios), so that a bot is measured on the whole game; empty: the default options.
    bench_variants: list[dict[str, Any]] = field(default_factory=list)
    # The features its expert's value function is fit on (``python -m shared.ai.valuefit <game>``).
    value_features: FeatureSet | None = None
    # The win rate the ladder expects of the expert against two rule-of-thumb bots (shared.ai.ladder
    # reports whether it met it); None: only that it beats its fair share.
    expert_goal_win_rate: float | None = None
    # Every released engine version that may have recorded games, oldest first, ``game``'s own
    # last: a game keeps the rules it started with (its meta's ``engine_version``).  Empty: only
    # ``game``'s version.
    engines: dict[str, Game] = field(default_factory=dict)
    # ``make bench``'s reference match: this game's expert against another implementation's bots, for
    # a number of games (Catan: catanatron's players, in catanatron's own engine); None: there is none.
    reference_match: Callable[[int], dict[str, Any]] | None = None
    # The game's words for people (``services/<game>/render.py``): ``render_state``, and optionally
    # ``describe_move``, ``describe_event``, ``panels``... (see shared.text.render); None: generic text.
    renderer: ModuleType | None = None

    def __post_init__(self) -> None:
        if self.engines and list(self.engines)[-1] != self.game.engine_version:
            raise ValueError(f"{self.game.name}: the newest of engines must be the plugin's game")
        for version, engine in self.engines.items():
            if engine.engine_version != version:
                raise ValueError(f"{self.game.name}: engine {version!r} says it is {engine.engine_version!r}")

    @property
    def engine_versions(self) -> tuple[str, ...]:
        """The engine versions this process serves, oldest first: every released one, unless
        ``ENGINE_VERSIONS_<GAME>`` (e.g. ``ENGINE_VERSIONS_CATAN=2,3``) restricts them, as an
        instance of an older release would (rolling deploys, and their test)."""
        known = tuple(self.engines) or (self.game.engine_version,)
        allowed = os.environ.get(f"ENGINE_VERSIONS_{self.game.name.upper()}")
        if allowed is None:
            return known
        wanted = {v.strip() for v in allowed.split(",") if v.strip()}
        return tuple(v for v in known if v in wanted)

    def rules(self, version: str) -> Game:
        """The rules engine of ``version``, for a game recorded under it: its loading, moves,
        legal moves, bots, views, replay and audit.  Raises :class:`EngineUnavailable` for a
        version this process does not serve (never another version's rules instead)."""
        served = self.engine_versions
        if version not in served:
            raise EngineUnavailable(self.game.name, version, served)
        return self.engines[version] if self.engines else self.game

    def newest_rules(self) -> Game:
        """The engine new games are created with: the newest version this process serves."""
        served = self.engine_versions
        if not served:
            raise EngineUnavailable(self.game.name, self.game.engine_version, served)
        return self.rules(served[-1])

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
