"""The pure Elfenland rules engine (no Flask, no Redis, no marshmallow)."""
from services.elfenland.rules.game import DEFAULT_OPTIONS, ENGINES, ElfenlandGame

__all__ = ["DEFAULT_OPTIONS", "ENGINES", "ElfenlandGame"]
