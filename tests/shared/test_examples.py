"""Every operation of every checked-in spec has examples, every example fits its schema, and every
problem ``reason`` a client can meet (the platform's, each game's rules') has an example answer."""
from __future__ import annotations

import ast
import json
import re
from functools import cache
from typing import Any

import jsonschema
import pytest
import yaml

from shared.game import registry
from shared.http.examples import ILLEGAL_EXAMPLE_PREFIX, PLATFORM_PROBLEMS, PROBLEM_EXAMPLE_PREFIX, PROBLEMS_FILE
from shared.ops.spec import spec_path
from tests.shared.reasons import ROOT, collect

GAMES = registry.available()
JSON = "application/json"
PROBLEM = "application/problem+json"


@cache
def spec(game: str) -> dict[str, Any]:
    return yaml.safe_load(spec_path(game).read_text())


def check(document: dict[str, Any], schema: dict[str, Any], value: Any, where: str) -> None:
    # The schema is validated inside a copy of the document's components, so its $refs resolve.
    root = {"allOf": [schema], "components": document["components"]}
    errors = list(jsonschema.Draft202012Validator(root).iter_errors(value))
    assert not errors, f"{where}: {errors[0].message} at {list(errors[0].absolute_path)}"


def problem_examples(document: dict[str, Any]) -> dict[str, Any]:
    return {name: example for name, example in document["components"]["examples"].items()
            if name.startswith((PROBLEM_EXAMPLE_PREFIX, ILLEGAL_EXAMPLE_PREFIX))}


def operations(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(f"{method.upper()} {path}", op) for path, ops in document["paths"].items()
            for method, op in ops.items() if method != "parameters"]


def example_of(document: dict[str, Any], ref_or_example: dict[str, Any]) -> dict[str, Any]:
    if "$ref" in ref_or_example:
        return document["components"]["examples"][ref_or_example["$ref"].rsplit("/", 1)[1]]
    return ref_or_example


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.slow
def test_every_operation_has_examples_that_fit_its_schemas(game: str) -> None:
    document = spec(game)
    problem_schema = {"$ref": "#/components/schemas/Problem"}
    for name, operation in operations(document):
        body = operation.get("requestBody", {}).get("content", {}).get(JSON)
        if body is not None:
            assert "example" in body, f"{name} has no request example"
            check(document, body["schema"], body["example"], f"{name} request")
        answered = False
        for status, response in operation["responses"].items():
            for media_type, content in response.get("content", {}).items():
                where = f"{name} {status} {media_type}"
                if media_type == PROBLEM:
                    assert content.get("examples"), f"{where} has no problem example"
                    for example in content["examples"].values():
                        value = example_of(document, example)["value"]
                        assert value["status"] == int(status), where
                        check(document, problem_schema, value, where)
                    continue
                assert "example" in content or "examples" in content, f"{where} has no example"
                answered = True
                if media_type == JSON:
                    check(document, content["schema"], content["example"], where)
                elif media_type == "image/svg+xml":
                    # By reference: a generator that skips this media type prints the answer it skips.
                    [example] = content["examples"].values()
                    assert list(example) == ["$ref"], where
                    assert example_of(document, example)["value"].lstrip().startswith("<svg"), where
                elif media_type == "application/jsonl":      # a header line, then one event a line
                    [example] = content["examples"].values()
                    assert list(example) == ["$ref"], where
                    lines = example_of(document, example)["value"].splitlines()
                    header, *records = [json.loads(line) for line in lines]
                    assert header["format"] == "boardgames-log/1" and header["version"] == len(records), where
                    assert [r["seq"] for r in records] == list(range(1, len(records) + 1)), where
                else:
                    assert media_type == "text/event-stream" and content["example"].startswith("id: "), where
        assert answered, f"{name} has no answer example"


@pytest.mark.parametrize("game", GAMES)
def test_each_problem_example_is_on_the_operations_that_answer_it(game: str) -> None:
    document = spec(game)
    shown = {example["$ref"].rsplit("/", 1)[1] for _, operation in operations(document)
             for response in operation["responses"].values()
             for example in response.get("content", {}).get(PROBLEM, {}).get("examples", {}).values()}
    nowhere = {PROBLEM_EXAMPLE_PREFIX + reason for reason, (*_, ops) in PLATFORM_PROBLEMS.items() if ops == ()}
    assert set(problem_examples(document)) - nowhere == shown
    post = document["paths"]["/games/{game_id}/moves"]["post"]["responses"]
    assert {"problem.stale-version", "problem.not-your-turn"} <= set(post["409"]["content"][PROBLEM]["examples"])
    assert any(name.startswith(ILLEGAL_EXAMPLE_PREFIX) for name in post["422"]["content"][PROBLEM]["examples"])


def platform_reasons() -> set[str]:
    """Every reason the platform's code gives a problem: ``Problem(kind, ...)`` (its ``reason=``
    when that is written out) and the statuses http.py maps to a kind."""
    reasons: set[str] = set()
    for path in (ROOT / "shared").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("Problem", "RetryLater") and node.args:
                reason = next((k.value for k in node.keywords if k.arg == "reason"), node.args[0])
                if isinstance(reason, ast.Constant):
                    reasons.add(reason.value)
            elif isinstance(node, ast.Dict) and node.keys and all(
                    isinstance(k, ast.Constant) and isinstance(k.value, int) and 400 <= k.value < 600 for k in node.keys):
                reasons.update(v.value for v in node.values if isinstance(v, ast.Constant))
    return reasons


def test_the_reason_collectors_find_what_they_should() -> None:
    """The collectors are not vacuous: they see reasons written in each of the ways they read."""
    assert {"stale-version", "not-your-turn", "rate-limited", "capacity", "player-count", "not-acceptable",
            "idempotency-key-reused"} <= platform_reasons()
    catan = collect("catan")
    assert {"settlement-too-close", "invalid-trade", "must-roll-first"} <= set(catan.reasons)   # literal, helper, table
    assert "road-has-gold" in collect("elfenland").reasons                                     # a checker's return
    assert any(re.fullmatch(p, "invalid-node") for p in catan.patterns)                        # an f-string


@pytest.mark.parametrize("game", GAMES)
def test_every_reason_a_client_can_meet_has_an_example_answer(game: str) -> None:
    examples = problem_examples(spec(game))
    platform = {name.removeprefix(PROBLEM_EXAMPLE_PREFIX) for name in examples if name.startswith(PROBLEM_EXAMPLE_PREFIX)}
    missing = platform_reasons() - platform
    assert not missing, f"add an example of these to PLATFORM_PROBLEMS in shared/http/examples.py: {sorted(missing)}"
    rules = {name.removeprefix(ILLEGAL_EXAMPLE_PREFIX) for name in examples if name.startswith(ILLEGAL_EXAMPLE_PREFIX)}
    found = collect(game)
    assert not found.unresolved, f"reasons the collector cannot read (teach tests/shared/reasons.py): {found.unresolved}"
    missing = set(found.reasons) - rules - {"not-your-turn", "game-over"}
    assert not missing, (f"add these to services/{game}/{PROBLEMS_FILE} (`python -m tests.shared.reasons {game}` "
                         f"adds them with the rules' own detail texts): {sorted(missing)}")
    for pattern, source in found.patterns.items():
        assert any(re.fullmatch(pattern, reason) for reason in rules), f"no example of {source} in {PROBLEMS_FILE}"
    # And no example of a reason the rules no longer give.
    stale = {r for r in rules if r not in found.reasons and not any(re.fullmatch(p, r) for p in found.patterns)}
    assert not stale, f"{PROBLEMS_FILE} names reasons the rules of {game} never give: {sorted(stale)}"
    for name, example in examples.items():
        assert example["value"]["reason"] == name.split(".", 1)[1], name
        assert "…" not in example["value"]["detail"], f"{name}: write a real value in place of …"


@pytest.mark.parametrize("game", GAMES)
def test_the_examples_are_those_of_a_real_game(game: str) -> None:
    """The move example is one of the legal moves in the example, and posting it gave the events shown."""
    paths = spec(game)["paths"]
    legal = paths["/games/{game_id}/legal-moves"]["get"]["responses"]["200"]["content"][JSON]["example"]
    post = paths["/games/{game_id}/moves"]["post"]
    move = post["requestBody"]["content"][JSON]["example"]
    answer = post["responses"]["201"]["content"][JSON]["example"]
    assert move in legal["moves"]
    assert answer["events"][0]["seq"] == legal["version"] + 1
    assert answer["events"][0]["cause"] == {"kind": "move", "seat": legal["seat"], "move": move}
    for seq_and_data in spec(game)["paths"]["/games/{game_id}/events"]["get"]["responses"]["200"]["content"][
            "text/event-stream"]["example"].strip().split("\n\n"):
        seq, data = seq_and_data.split("\n")
        assert json.loads(data.removeprefix("data: "))["seq"] == int(seq.removeprefix("id: "))
