"""Platform events: records in a game's own log that the platform writes, not the rules engine.

Seats joining or leaving, a game starting, a clock running out, a seat resigning: each is a record
whose ``type`` begins with ``platform.``.  They are public (never redacted), chained into the log's
hashes like every record, and never shown to the engine: ``evolve``, ``redact``, ``view`` and the
audit's re-decide skip them.  This module is the single test for them.
"""
from __future__ import annotations

from typing import Any

PREFIX = "platform."


def is_platform_event(record_or_type: dict[str, Any] | str) -> bool:
    """Whether a record, an event or an event type is the platform's (and so not the engine's)."""
    kind = record_or_type if isinstance(record_or_type, str) else record_or_type.get("type", "")
    return isinstance(kind, str) and kind.startswith(PREFIX)
