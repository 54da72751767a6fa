"""RFC 9457 problem details: one exception type and one JSON shape for every error.

Every 4xx a client sees has a stable ``type`` URI, a ``title``, the HTTP ``status``, a human
``detail`` and a machine ``reason`` code; extensions (``current_version``, ``errors``) are added
where they help the client correct the request.
"""
from __future__ import annotations

from typing import Any

PROBLEM_MEDIA_TYPE = "application/problem+json"

# reason -> (status, title).  Game rule violations are not listed: they are all
# ``illegal-move`` (422) with the engine's own ``reason``.
KNOWN_PROBLEMS: dict[str, tuple[int, str]] = {
    "malformed-request": (400, "Malformed request"),
    "unauthenticated": (401, "Missing or invalid credentials"),
    "not-your-seat": (403, "This token does not act for that seat"),
    "not-found": (404, "Not found"),
    "game-not-found": (404, "No such game"),
    "method-not-allowed": (405, "Method not allowed"),
    "not-acceptable": (406, "Not acceptable"),
    "stale-version": (409, "The game has moved on"),
    "not-your-turn": (409, "Not your turn"),
    "game-over": (409, "The game is over"),
    # Seats (shared.play.seats)
    "game-waiting": (409, "The game waits for players"),
    "game-cancelled": (409, "The game was cancelled"),
    "game-abandoned": (409, "The game was abandoned"),
    "game-not-waiting": (409, "The game has started"),
    "game-not-finished": (409, "The game is not over"),
    "seat-taken": (409, "The seat is taken"),
    "seat-open": (409, "The seat is not taken"),
    "seat-not-found": (404, "No such seat"),
    "seat-reserved": (403, "The seat is kept for its previous player"),
    "seat-resigned": (403, "The seat resigned"),
    "not-host": (403, "Not the game's host"),
    "payload-too-large": (413, "Request body too large"),
    "unsupported-media-type": (415, "Unsupported media type"),
    "validation-error": (422, "The request does not match the schema"),
    "idempotency-key-reused": (422, "Idempotency key reused with another request"),
    "illegal-move": (422, "Illegal move"),
    "invalid-options": (422, "Invalid game options"),
    "seed-not-allowed": (422, "This service does not take a client-chosen seed"),
    "unknown-move-type": (422, "Unknown move type"),
    "precondition-required": (428, "Precondition required"),
    "rate-limited": (429, "Too many requests"),
    "too-many-games": (429, "Too many unfinished games from this address"),
    "not-ready": (503, "Service not ready"),
    "capacity": (503, "Too many games running"),
    "engine-unavailable": (503, "This instance does not serve the game's rules engine version"),
    "internal-error": (500, "Internal server error"),
}


class Problem(Exception):
    """Raise anywhere in a request to answer with ``application/problem+json``."""

    def __init__(self, kind: str, detail: str, *, status: int | None = None,
                 reason: str | None = None, **extensions: Any) -> None:
        super().__init__(detail)
        default_status, self.title = KNOWN_PROBLEMS.get(kind, (422, kind.replace("-", " ").capitalize()))
        self.kind = kind
        self.status = status or default_status
        self.detail = detail
        self.reason = reason or kind
        self.extensions = extensions

    def body(self, base_uri: str) -> dict[str, Any]:
        return {
            "type": base_uri + self.kind,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            "reason": self.reason,
            **self.extensions,
        }


def json_pointer(path: list[str | int]) -> str:
    """``["move", "cards", 0]`` -> ``/move/cards/0`` (RFC 6901 escaping)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def flatten_errors(messages: Any, path: list[str | int] | None = None) -> list[dict[str, str]]:
    """marshmallow's nested ``{field: [messages]}`` -> ``[{detail, pointer}]`` (RFC 9457 §3)."""
    path = path or []
    out: list[dict[str, str]] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            key_path = path + ([] if key == "_schema" else [key])
            out.extend(flatten_errors(value, key_path))
    elif isinstance(messages, list):
        for item in messages:
            out.extend(flatten_errors(item, path))
    else:
        out.append({"detail": str(messages), "pointer": json_pointer(path)})
    return out


class RetryLater(Problem):
    """A problem answered with a ``Retry-After`` header (seconds)."""

    def __init__(self, kind: str, detail: str, retry_after: int, reason: str | None = None,
                 **extensions: Any) -> None:
        super().__init__(kind, detail, reason=reason, **extensions)
        self.retry_after = max(1, int(retry_after))
