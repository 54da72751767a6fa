"""The checked-in api-spec/<game>.yaml is exactly what the code generates (run `make spec`)."""
from __future__ import annotations

import pytest
import yaml

from shared import registry
from shared.spec import generated_spec, spec_path


@pytest.mark.parametrize("game", registry.available())
def test_checked_in_spec_matches_the_code(game: str) -> None:
    path = spec_path(game)
    assert path.exists(), f"{path} is missing: run `make spec`"
    assert yaml.safe_load(path.read_text()) == generated_spec(game), f"{path} drifted: run `make spec`"


@pytest.mark.parametrize("game", registry.available())
def test_every_error_is_documented_as_problem_json(game: str) -> None:
    spec = generated_spec(game)
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")) or status == "default":
                    content = response.get("content") or spec["components"]["responses"][
                        response["$ref"].rsplit("/", 1)[1]]["content"]
                    assert list(content) == ["application/problem+json"], (path, method, status)


@pytest.mark.parametrize("game", registry.available())
def test_header_parameters_leave_the_query_parameters_documented(game: str) -> None:
    """A header documented beside query arguments (Last-Event-ID) must not replace them: a generated
    client would lose ``after``, ``limit`` and ``wait``."""
    events = generated_spec(game)["paths"]["/games/{game_id}/events"]
    names = {p["name"] for p in events["get"]["parameters"] + events.get("parameters", [])}
    assert {"after", "limit", "wait", "Last-Event-ID"} <= names
