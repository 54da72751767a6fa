"""A small Python client for the game services' HTTP contract (the same for every game).

    from shared.client.client import GameClient, ProblemError

    lobby = GameClient("http://127.0.0.1:8001")                      # Catan under ``make run``
    created = lobby.create_game([{"name": "me"}, {"name": "A", "bot": "greedy"},
                                 {"name": "B", "bot": "random"}], seed=7)   # Catan: 3-4 seats
    gid = created["id"]
    me = lobby.with_token(created["players"][0]["token"])           # acts for seat 0
    view = me.game(gid)
    if view["you"] in view["to_act"]:                                # bots may move first
        legal = me.legal_moves(gid)                                  # {version, seat, moves}
        try:
            me.post_move(gid, legal["moves"][0], expected_version=legal["version"])
        except ProblemError as exc:
            print(exc.status, exc.reason, exc.detail)
    else:
        me.events(gid, after=view["version"], wait=20)               # long-poll until something happens
    for event in lobby.follow(gid):                                  # as a spectator, until the end
        print(event["seq"], event["type"])                           # (waits forever on a human seat)

Every error the server answers is ``application/problem+json``; the client raises it as
:class:`ProblemError`.  :meth:`GameClient.post_move` always sends an ``Idempotency-Key``
(a fresh uuid4 unless given) and retries connection errors and 5xx answers with the same key,
so a move whose answer was lost is never played twice.
"""
from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import requests

__all__ = ["GameClient", "ProblemError", "PROBLEM_MEDIA_TYPE"]

PROBLEM_MEDIA_TYPE = "application/problem+json"
# Answers worth retrying with the same Idempotency-Key: the server failed or is busy with it.
RETRY_STATUSES = frozenset({500, 502, 503, 504})


class ProblemError(Exception):
    """An RFC 9457 problem answered by a game service (or a non-JSON error passed off as one).

    ``status`` is the HTTP status, ``reason`` the stable machine code (``not-your-turn``,
    ``settlement-too-close``...), ``detail`` the sentence for people and ``body`` the whole
    problem document (extensions such as ``current_version`` or ``errors`` included).
    """

    def __init__(self, status: int, reason: str, detail: str, body: dict[str, Any] | None = None) -> None:
        self.status = status
        self.reason = reason
        self.detail = detail
        self.body: dict[str, Any] = body if body is not None else {}
        super().__init__(f"{status} {reason}: {detail}" + "".join(f"; {p}: {d}" for p, d in self.errors))

    @property
    def errors(self) -> list[tuple[str, str]]:
        """On ``validation-error``: ``(pointer, detail)`` pairs such as ``("/players", "Length must be...")``."""
        listed = self.body.get("errors")
        if not isinstance(listed, list):
            return []
        return [(str(e.get("pointer") or "/"), str(e.get("detail") or "")) for e in listed if isinstance(e, dict)]

    @property
    def current_version(self) -> int | None:
        """On ``stale-version``: the game's version now."""
        value = self.body.get("current_version")
        return value if isinstance(value, int) else None

    @classmethod
    def from_response(cls, response: requests.Response) -> ProblemError:
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            text = (response.text or response.reason or "").strip()[:300]
            body = {"status": response.status_code, "reason": "http-error",
                    "detail": text or f"HTTP {response.status_code}"}
        return cls(int(body.get("status") or response.status_code), str(body.get("reason") or "http-error"),
                   str(body.get("detail") or body.get("title") or ""), body)


class GameClient:
    """One game service (one base URL), optionally acting for one seat (its Bearer token).

    ``timeout`` bounds every request (seconds; long-polls get ``wait`` on top).  ``retries`` and
    ``backoff`` govern the retries of safe requests (reads, and moves thanks to their idempotency
    key): attempt ``n`` waits ``backoff * 2**n`` seconds first, at most ``max_backoff``.
    """

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 10.0, *,
                 retries: int = 4, backoff: float = 0.2, max_backoff: float = 5.0,
                 session: requests.Session | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.session = session or requests.Session()

    def with_token(self, token: str | None) -> GameClient:
        """A client for the same service acting for another seat (sharing the connection pool)."""
        return GameClient(self.base_url, token, self.timeout, retries=self.retries, backoff=self.backoff,
                          max_backoff=self.max_backoff, session=self.session)

    # -- the contract -------------------------------------------------------------------------
    def create_game(self, players: list[dict[str, Any]], options: dict[str, Any] | None = None,
                    seed: int | None = None, listed: bool = True, turn_seconds: int | None = None,
                    fallback_bot: str | None = None, bot_budget_ms: int | None = None) -> dict[str, Any]:
        """``POST /games``: ``{id, version, players: [{seat, name, bot, token}], host_token?}``.

        ``players`` are ``{"name": ..., "bot": None | strategy}`` or ``{"open": True}`` (a seat
        for whoever takes it: the game waits, and ``host_token`` may cancel it); a human seat's
        token is in this answer only.  ``listed=False`` keeps the game out of :meth:`list_games`.
        ``turn_seconds`` sets a turn clock: a seat that lets it run out is played by ``fallback_bot``
        (default: the game's rule-of-thumb bot).  ``bot_budget_ms``: how long the ``expert`` bots
        think a move (20 to 2000; default 200).  Not retried: creating twice would make two games.
        """
        body: dict[str, Any] = {"players": players, "options": options or {}}
        if seed is not None:
            body["seed"] = seed
        if turn_seconds is not None:
            body["turn_seconds"] = turn_seconds
        if fallback_bot is not None:
            body["fallback_bot"] = fallback_bot
        if bot_budget_ms is not None:
            body["bot_budget_ms"] = bot_budget_ms
        if not listed:
            body["listed"] = False
        return self._request("POST", "/games", json_body=body, retry=False)

    def list_games(self, status: str | None = None, limit: int = 20, cursor: str | None = None) -> dict[str, Any]:
        """``GET /games``: ``{games: [{id, status, version, options, players, to_act, created_at,
        moved_at, rematch_of}], next}``, newest first; pass ``next`` as ``cursor`` for the next page.
        ``status``: ``waiting``, ``running`` or ``finished``."""
        params: dict[str, Any] = {"limit": limit}
        if status:
            params["status"] = status
        if cursor:
            params["cursor"] = cursor
        return self._request("GET", "/games", params=params)

    def take_seat(self, game_id: str, seat: int, name: str | None = None) -> dict[str, Any]:
        """``POST /games/{id}/seats/{seat}``: take an open seat; ``{id, version, seat, name, token,
        started}`` (the token only here).  A seat kept for you in a rematch: this client's token is
        your previous game's, and ``name`` may be left out.  Not retried (409 ``seat-taken``)."""
        return self._request("POST", f"/games/{game_id}/seats/{seat}",
                             json_body={"name": name} if name else {}, retry=False)

    def leave_seat(self, game_id: str, seat: int) -> dict[str, Any]:
        """``DELETE /games/{id}/seats/{seat}`` with this seat's token, before the game starts."""
        return self._request("DELETE", f"/games/{game_id}/seats/{seat}", retry=False)

    def cancel(self, game_id: str) -> dict[str, Any]:
        """``POST /games/{id}/cancel`` with the host token: the waiting game is cancelled."""
        return self._request("POST", f"/games/{game_id}/cancel", retry=False)

    def resign(self, game_id: str) -> dict[str, Any]:
        """``POST /games/{id}/resign``: a bot plays this client's seat from now on; ``{version, seat, bot}``."""
        return self._request("POST", f"/games/{game_id}/resign", retry=False)

    def rematch(self, game_id: str) -> dict[str, Any]:
        """``POST /games/{id}/rematch`` of a finished game: ``{id, rematch_of}``, the same game
        however often asked (retried safely); take your seat in it with :meth:`take_seat`."""
        return self._request("POST", f"/games/{game_id}/rematch")

    def game(self, game_id: str) -> dict[str, Any]:
        """``GET /games/{id}``: ``{id, game, version, status, to_act, result, you, players, state}``."""
        return self._request("GET", f"/games/{game_id}")

    def legal_moves(self, game_id: str) -> dict[str, Any]:
        """``GET /games/{id}/legal-moves`` for this client's seat: ``{version, seat, moves}``, every
        page of them (a position rarely has more than one)."""
        answer = self._request("GET", f"/games/{game_id}/legal-moves")
        while answer.get("next"):
            page = self._request("GET", f"/games/{game_id}/legal-moves", params={"cursor": answer["next"]})
            answer = {**page, "moves": answer["moves"] + page["moves"]}
        return answer

    def post_move(self, game_id: str, move: dict[str, Any], expected_version: int | None = None,
                  idempotency_key: str | None = None) -> dict[str, Any]:
        """``POST /games/{id}/moves``: play ``move`` for this client's seat; ``{version, events}``.

        ``expected_version`` is sent as ``If-Match`` (409 ``stale-version`` if the game moved on).
        Connection errors, timeouts and 5xx answers are retried with the same ``Idempotency-Key``
        (a uuid4 unless given) with exponential backoff: the server answers a repeat with the
        first answer, so the move is played at most once.  Problems raise :class:`ProblemError`.
        """
        headers = {"Idempotency-Key": idempotency_key or uuid.uuid4().hex}
        if expected_version is not None:
            headers["If-Match"] = f'"{expected_version}"'
        return self._request("POST", f"/games/{game_id}/moves", json_body=move, headers=headers,
                             retry=True, retry_reasons=("request-in-progress",))

    def events(self, game_id: str, after: int = 0, limit: int = 200, wait: float = 0) -> dict[str, Any]:
        """``GET /games/{id}/events``: ``{version, status, events}`` with ``seq > after``.

        With ``wait`` > 0 the server holds the request (up to its own cap) until an event exists.
        """
        params: dict[str, Any] = {"after": after, "limit": limit}
        if wait:
            params["wait"] = wait
        return self._request("GET", f"/games/{game_id}/events", params=params, extra_timeout=wait)

    def follow(self, game_id: str, after: int = 0, wait: float = 20, limit: int = 200) -> Iterator[dict[str, Any]]:
        """Yield the game's events after ``after`` as they happen, until the game is finished
        (or cancelled while it waited for players, or abandoned: nothing more is logged then either).

        Uses the long-poll (``wait`` seconds per request), so it neither spins nor misses events;
        it returns once the game is over and every event has been yielded.  A game waiting for a
        human seat's move never ends by itself: play that seat elsewhere, or stop iterating.
        """
        page = self.events(game_id, after=after, limit=limit)
        while True:
            for event in page["events"]:
                after = max(after, int(event["seq"]))
                yield event
            if page["status"] in ("finished", "cancelled", "abandoned") and after >= int(page["version"]):
                return
            caught_up = after >= int(page["version"])
            page = self.events(game_id, after=after, limit=limit, wait=wait if caught_up else 0)

    def replay(self, game_id: str, version: int) -> dict[str, Any]:
        """``GET /games/{id}/replay?version=N``: the spectator's ``{version, status, to_act, result, state}``."""
        return self._request("GET", f"/games/{game_id}/replay", params={"version": version})

    def audit(self, game_id: str) -> dict[str, Any]:
        """``GET /games/{id}/audit``: ``{ok, version, head_hash, first_bad_event?, problem?}``."""
        return self._request("GET", f"/games/{game_id}/audit", extra_timeout=30)

    def healthy(self) -> bool:
        """Whether the service answers ``/healthz`` (never raises)."""
        try:
            return self.session.get(self.base_url + "/healthz", timeout=self.timeout).ok
        except requests.RequestException:
            return False

    # -- plumbing -----------------------------------------------------------------------------
    def _request(self, method: str, path: str, *, params: dict[str, Any] | None = None,
                 json_body: Any = None, headers: dict[str, str] | None = None, retry: bool = True,
                 retry_reasons: tuple[str, ...] = (), extra_timeout: float = 0) -> dict[str, Any]:
        all_headers = {"Accept": "application/json"}
        if self.token:
            all_headers["Authorization"] = f"Bearer {self.token}"
        all_headers.update(headers or {})
        data = None
        if json_body is not None:
            data = json.dumps(json_body)
            all_headers["Content-Type"] = "application/json"
        attempts = self.retries + 1 if retry else 1
        for attempt in range(attempts):
            last = attempt == attempts - 1
            try:
                response = self.session.request(method, self.base_url + path, params=params, data=data,
                                                headers=all_headers, timeout=self.timeout + extra_timeout)
            except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError):
                # No answer, or one cut short (an instance killed mid-reply): the same as a lost
                # connection.  A move is retried safely under its Idempotency-Key.
                if last:
                    raise
                self._sleep(attempt)
                continue
            if response.status_code < 400:
                return response.json()
            problem = ProblemError.from_response(response)
            if not last and (response.status_code in RETRY_STATUSES or problem.reason in retry_reasons):
                self._sleep(attempt)
                continue
            raise problem
        raise AssertionError("unreachable")  # pragma: no cover

    def _sleep(self, attempt: int) -> None:
        time.sleep(min(self.max_backoff, self.backoff * 2 ** attempt))

    def __repr__(self) -> str:
        return f"GameClient({self.base_url!r}, token={'set' if self.token else None})"
