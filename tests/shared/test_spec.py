"""The checked-in api-spec/<game>.yaml is exactly what the code generates (run `make spec`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any
from collections.abc import Iterator

import pytest
import yaml

from shared.game import registry
from shared.http.openapi import game_prefix
from shared.ops.spec import generated_spec, spec_path


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


@pytest.mark.parametrize("game", registry.available())
def test_every_component_has_a_stable_name(game: str) -> None:
    """No numbered names (apispec appends a digit when two schemas resolve to one name), and
    what a client reads is typed under the game's names: the view, its result, legal moves and
    events are named components, and the move and event unions are discriminated on ``type``."""
    import re

    spec = generated_spec(game)
    schemas = spec["components"]["schemas"]
    prefix = game_prefix(registry.plugin(game))
    numbered = [name for name in schemas if re.search(r"\d$", name)]
    assert not numbered, f"numbered component names: {numbered}"
    for union in (prefix + "Move", prefix + "GameEvent"):
        mapping = schemas[union]["discriminator"]["mapping"]
        assert [ref["$ref"] for ref in schemas[union]["oneOf"]] == list(mapping.values())
        for type_, ref in mapping.items():
            type_ref = schemas[ref.rsplit("/", 1)[1]]["properties"]["type"]["$ref"]   # a named enum
            assert schemas[type_ref.rsplit("/", 1)[1]]["enum"] == [type_]
    view = schemas[prefix + "GameView"]["properties"]
    assert view["state"]["$ref"] == f"#/components/schemas/{prefix}View"
    assert view["result"]["anyOf"] == [{"$ref": f"#/components/schemas/{prefix}Result"}, {"type": "null"}]
    assert schemas[prefix + "LegalMoves"]["properties"]["moves"]["items"] == {"$ref": f"#/components/schemas/{prefix}Move"}
    assert schemas[prefix + "EventsPage"]["properties"]["events"]["items"] == {"$ref": f"#/components/schemas/{prefix}Event"}
    untyped = [name for name, schema in schemas.items() if name.startswith(prefix)
               and any(prop.get("additionalProperties") == {} and "type" in prop and not prop.get("description", "").startswith("Cards")
                       for prop in schema.get("properties", {}).values())]
    assert untyped == [], f"objects of unknown shape: {untyped}"


@pytest.mark.parametrize("game", registry.available())
@pytest.mark.slow
def test_a_generated_client_needs_no_numbered_names(game: str, tmp_path: Path) -> None:
    """datamodel-code-generator, run on the checked-in spec, names every class after a component
    (no ``Type1``...) and builds the move and event unions as discriminated unions."""
    import re
    import subprocess
    import sys

    out = tmp_path / "models.py"
    subprocess.run([sys.executable, "-m", "datamodel_code_generator", "--input", str(spec_path(game)),
                    "--input-file-type", "openapi", "--output-model-type", "pydantic_v2.BaseModel",
                    "--output", str(out)], check=True, capture_output=True, timeout=300)
    code = out.read_text()
    numbered = re.findall(r"^class (\w*\d)\(", code, re.M)
    assert numbered == [], f"numbered class names: {numbered}"
    assert code.count("discriminator='type'") == 2, "the move and event unions are discriminated on type"


def keywords(node: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) of a document, at any depth."""
    if isinstance(node, list):
        for item in node:
            yield from keywords(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            yield key, value
            yield from keywords(value)


@pytest.mark.parametrize("game", registry.available())
def test_null_is_written_as_openapi_3_1_writes_it(game: str) -> None:
    """Null is a type (OpenAPI 3.1), never 3.0's ``nullable``, which ``datamodel-codegen``
    ignores on a required field by default; no enum lists null (a null enum value is a field's
    ``anyOf`` with null, so the enum keeps its name); and a nullable inline object is titled, so
    that ``openapi-python-client`` names its class after its field, not ``...Type0``."""
    spec = generated_spec(game)
    assert spec["openapi"] == "3.1.0"
    assert "nullable" not in {key for key, _ in keywords([spec["paths"], spec["components"]["schemas"]])}
    schemas = spec["components"]["schemas"]
    assert [name for name, schema in schemas.items() if None in schema.get("enum", [])] == []
    assert any(key == "anyOf" and {"type": "null"} in value for key, value in keywords(schemas))
    assert any(key == "type" and "null" in value for key, value in keywords(schemas))
    for key, value in keywords(schemas):
        if key == "anyOf" and {"type": "null"} in value:
            untitled = [m for m in value if m.get("type") == "object" and "title" not in m]
            assert untitled == [], untitled


@pytest.mark.parametrize("game", registry.available())
def test_docs_read_the_document_in_openapi_3_0s_words(game: str) -> None:
    """Swagger UI 4 (/docs) renders OpenAPI 3.0 only: its copy has no null type, and says the
    same (every path and component, nullable where null was a type)."""
    from shared.http.openapi import openapi_30

    spec = generated_spec(game)
    docs = openapi_30(spec)
    assert docs["openapi"] == "3.0.3"
    assert docs["paths"].keys() == spec["paths"].keys()
    assert docs["components"]["schemas"].keys() == spec["components"]["schemas"].keys()
    assert docs["components"]["examples"] == spec["components"]["examples"]
    found = dict(keywords(docs))
    assert "nullable" in found
    for key, value in keywords(docs["components"]["schemas"]):
        assert not (key == "type" and (value == "null" or isinstance(value, list))), value
        if isinstance(value, dict) and "$ref" in value:
            assert len(value) == 1, value    # 3.0 ignores a reference's siblings: allOf holds it
    prefix = game_prefix(registry.plugin(game))
    result = docs["components"]["schemas"][prefix + "GameView"]["properties"]["result"]
    assert result["allOf"] == [{"$ref": f"#/components/schemas/{prefix}Result"}] and result["nullable"] is True
