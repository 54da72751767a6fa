"""Which game services exist, by name: the only place that lists them all.

Workers and the runner look a game up here, so a job payload names a game, never a module path.
"""
from __future__ import annotations

import importlib
import os

from shared.game.plugin import GamePlugin

# A game joins this list once its service passes the shared contract tests.
SERVICES: dict[str, str] = {
    "catan": "services.catan.api",
    "elasund": "services.elasund.api",
    "elfenland": "services.elfenland.api",
    "elastium": "services.elastium.api",
}


def _extra() -> dict[str, str]:
    """``GAME_SERVICES_EXTRA="race=tests.shared.toygame"`` plugs in more games (tests, forks)."""
    pairs = [p.split("=", 1) for p in os.environ.get("GAME_SERVICES_EXTRA", "").split(",") if "=" in p]
    return {name.strip(): module.strip() for name, module in pairs}


def available() -> list[str]:
    """Every listed game.  A game whose module fails to import is not left out: ``plugin`` raises
    for it, so the runner stops and every test parametrised on this list fails for that game."""
    return list(SERVICES)


def plugin(name: str) -> GamePlugin:
    modules = {**SERVICES, **_extra()}
    if name not in modules:
        raise KeyError(f"unknown game {name!r}")
    module = importlib.import_module(modules[name])
    return module.PLUGIN
