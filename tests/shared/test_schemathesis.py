"""Schemathesis against every game service: no 5xx, no answer that breaks its own spec.

Requests carry a real seat token of a real game (created in Redis), so the authenticated
operations are exercised past authentication, and GETs usually target that real game.
"""
from __future__ import annotations

import dataclasses
import unicodedata
from typing import Any

import pytest
import redis
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from shared.game import registry
from shared.play.config import Settings
from shared.http.service import create_app

pytestmark = pytest.mark.slow      # generated requests by the hundred (make test-fast leaves it out)


def fresh_app(game: str, redis_url: str) -> Any:
    """The game's real app on an emptied database of its own; no bots, no long-poll waits."""
    url = redis_url.rsplit("/", 1)[0] + "/1"   # beside the suite's database (0), emptied here
    redis.Redis.from_url(url).flushdb()
    cfg = dataclasses.replace(Settings.from_env(), redis_url=url, rq_redis_url=url, enqueue_bots=False,
                              max_wait_seconds=0)
    return create_app(registry.plugin(game), cfg)


def keep_names_printable(schema: Any) -> None:
    """Generated names are mostly arbitrary Unicode, which the service refuses (no control, format
    or unassigned characters: tests/shared/test_input.py).  Those characters become "?" in the
    names of the games created here, so that games do get created and the links are followed (the
    length stays: a name generated too long must still be refused)."""

    @schema.hook("map_body")
    def printable(context: Any, body: Any) -> Any:
        if context.operation.path == "/games" and isinstance(body, dict) and isinstance(body.get("players"), list):
            for player in body["players"]:
                if isinstance(player, dict) and isinstance(player.get("name"), str):
                    player["name"] = "".join("?" if unicodedata.category(c) in ("Zl", "Zp")
                                             or unicodedata.category(c).startswith("C") else c
                                             for c in player["name"])
        return body


@pytest.mark.parametrize("game", registry.available())
def test_no_server_errors_and_answers_match_the_spec(game: str, redis_url: str) -> None:
    plugin = registry.plugin(game)
    app = fresh_app(game, redis_url)
    players = [{"name": f"p{i}"} for i in range(plugin.game.min_players)]
    created = app.test_client().post("/games", json={"players": players, "seed": 1}).get_json()
    token, game_id = created["players"][0]["token"], created["id"]
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    keep_names_printable(schema)

    @schema.auth()
    class SeatToken:
        def get(self, case: Any, context: Any) -> str:
            return token

        def set(self, case: Any, data: str, context: Any) -> None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}

    failures: list[str] = []
    seen: set[tuple[str, int]] = set()
    for result in schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def check(case: Any) -> None:
            if case.path_parameters and len(str(case.path_parameters.get("game_id", ""))) % 4:
                case.path_parameters["game_id"] = game_id   # most cases hit the real game, some a random id
            # A schema-valid move can still break a game rule: that is a 422 by design, so the
            # "schema-valid request rejected" check does not apply to this API.
            response = case.call_and_validate(excluded_checks=[positive_data_acceptance])
            seen.add((case.operation.path, response.status_code))

        try:
            check()
        except Exception as exc:  # noqa: BLE001 - collect every operation's failure, then report
            failures.append(f"{operation.method.upper()} {operation.path}: {exc}"[:3000])
    assert not failures, "\n\n".join(failures)
    # The seat token really was used: authenticated operations answered past authentication.
    assert ("/games/{game_id}/legal-moves", 200) in seen
    assert any(path == "/games/{game_id}/moves" and status in (201, 409, 422) for path, status in seen)


@pytest.mark.parametrize("game", registry.available())
def test_stateful_create_then_play_follows_the_links(game: str, redis_url: str) -> None:
    """Schemathesis chains operations through the OpenAPI links: create -> view, moves, events, ..."""
    from hypothesis.stateful import run_state_machine_as_test

    schema = schemathesis.openapi.from_wsgi("/openapi.json", fresh_app(game, redis_url))
    keep_names_printable(schema)
    tokens: dict[str, str] = {}
    created: list[str] = []        # every game created along the links (some have no human seat)

    @schema.auth()
    class SeatTokens:
        """The token of the game a call targets, as its creation answered it."""

        def get(self, case: Any, context: Any) -> str:
            return tokens.get((case.path_parameters or {}).get("game_id", ""), "")

        def set(self, case: Any, data: str, context: Any) -> None:
            if data:
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}

    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            if case.method.upper() == "POST" and case.path == "/games" and response.status_code == 201:
                body = response.json()
                created.append(body["id"])
                humans = [p["token"] for p in body["players"] if p["token"]]
                if humans:
                    tokens[body["id"]] = humans[0]

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any) -> None:
            case.validate_response(response, excluded_checks=[positive_data_acceptance])

    run_state_machine_as_test(Workflow, settings=settings(
        max_examples=12, stateful_step_count=6, deadline=None, database=None,
        suppress_health_check=list(HealthCheck)))
    assert created, "no game was created along the links"
