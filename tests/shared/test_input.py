"""Bad input is refused, not repaired, through the real app and Redis.

Numbers are strict and bounded, names carry no control characters, a garbage token is 401, and a
client-chosen seed is either refused or told to everyone.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from marshmallow import Schema, fields, validate

from shared.game import registry
from shared.play.config import Settings
from shared.http.openapi import create_game_schema
from shared.http.service import create_app
from tests.shared.conftest import auth, new_game
from tests.shared.test_service import assert_problem

GAMES = ["catan", "elasund", "elfenland", "elastium"]


def _integer_fields(schema: Schema, path: str) -> Iterator[tuple[str, fields.Field]]:
    """Every integer field a client may send in ``schema``, nested lists, dicts and schemas included."""
    for name, field in schema.fields.items():
        yield from _walk(field, f"{path}.{name}")


def _walk(field: fields.Field, path: str) -> Iterator[tuple[str, fields.Field]]:
    if isinstance(field, fields.Integer):
        yield path, field
    elif isinstance(field, fields.List):
        yield from _walk(field.inner, path + "[]")
    elif isinstance(field, fields.Dict) and field.value_field is not None:
        yield from _walk(field.value_field, path + "{}")
    elif isinstance(field, fields.Nested):
        yield from _integer_fields(field.schema, path)
    elif isinstance(field, fields.Number):   # a float or decimal would be coerced the same way
        raise AssertionError(f"{path}: numbers a client sends are integers")


@pytest.mark.parametrize("game", GAMES)
def test_every_integer_a_client_sends_is_strict_and_bounded(game: str) -> None:
    plugin = registry.plugin(game)
    schemas = {f"{game}.move.{t}": s() for t, s in plugin.move_schemas.items()}
    schemas[f"{game}.options"] = plugin.options_schema()
    schemas[f"{game}.create"] = create_game_schema(plugin)()
    found = 0
    for where, schema in schemas.items():
        for path, field in _integer_fields(schema, where):
            found += 1
            assert field.strict, f"{path} coerces strings and floats"
            ranges = [v for v in field.validators if isinstance(v, validate.Range)]
            assert ranges and ranges[0].min is not None and ranges[0].max is not None, f"{path} is unbounded"
    assert found >= 2      # at least the seed and one move or option field were seen


@pytest.fixture()
def catan(settings: Settings) -> Iterator[FlaskClient]:
    with create_app(registry.plugin("catan"), settings).test_client() as c:
        yield c


def catan_game(client: FlaskClient) -> tuple[str, str, str]:
    """A Catan game at its first set-up move: (id, the token of the seat to act, the moves URL)."""
    players = [{"name": "a"}, {"name": "b"}, {"name": "c"}]
    created = client.post("/games", json={"players": players, "seed": 3}).get_json()
    view = client.get(f"/games/{created['id']}").get_json()
    return created["id"], created["players"][view["to_act"][0]]["token"], f"/games/{created['id']}/moves"


@pytest.mark.parametrize("node", ["0", 1.5, 1.0, True, 10**40, -1, 54, None])
def test_a_move_number_is_never_coerced(catan: FlaskClient, node: Any) -> None:
    gid, token, url = catan_game(catan)
    before = catan.get(f"/games/{gid}").get_json()["version"]
    problem = assert_problem(catan.post(url, json={"type": "build_settlement", "node": node}, headers=auth(token)),
                             422, "validation-error")
    assert [e["pointer"] for e in problem["errors"]] == ["/node"]
    assert catan.get(f"/games/{gid}").get_json()["version"] == before
    assert catan.post(url, json={"type": "build_settlement", "node": 0}, headers=auth(token)).status_code == 201


def test_counts_options_and_seed_are_strict_too() -> None:
    catan_moves = registry.plugin("catan").move_schemas
    assert catan_moves["discard"]().validate({"resources": {"ore": "2"}})
    assert catan_moves["discard"]().validate({"resources": {"ore": 20}})      # no hand holds 20 ore
    assert not catan_moves["discard"]().validate({"resources": {"ore": 19}})
    bid = registry.plugin("elfenland").move_schemas["bid"]()
    assert bid.validate({"amount": 10**40}) and bid.validate({"amount": "5"}) and not bid.validate({"amount": 5})
    elastium = registry.plugin("elastium")
    assert elastium.options_schema().validate({"max_rounds": 30.0})
    assert create_game_schema(elastium)().validate({"players": [{"name": "a"}, {"name": "b"}], "seed": "7"})
    elasund_row = registry.plugin("elasund").move_schemas["move_ship"]()
    assert elasund_row.validate({"row": 7}) and elasund_row.validate({"row": "8"}) and not elasund_row.validate({"row": 8})


@pytest.mark.parametrize("name", ["evil\x1b[2J", "two\nlines", "tab\there", "del\x7f", "nul\x00",
                                  "rtl\u202eoverride", "isolate\u2066x\u2069", "zero\u200bwidth",
                                  "line\u2028sep", "x" * 41, "", "   ", "\u3000\u00a0"])
def test_a_name_with_control_characters_or_too_long_is_refused(client: FlaskClient, name: str) -> None:
    problem = assert_problem(client.post("/games", json={"players": [{"name": "ok"}, {"name": name}]}),
                             422, "validation-error")
    assert [e["pointer"] for e in problem["errors"]] == ["/players/1/name"]


# Each is drawn as nothing: Hangul fillers, a blank Braille pattern, combining marks with no base.
INVISIBLE_NAMES = ["\u3164", "\u115f\u1160", "\u2800", "\u0301\u0308", "\uffa0 \u3164", "\u17b4"]


@pytest.mark.parametrize("name", INVISIBLE_NAMES)
def test_a_name_with_nothing_visible_is_refused_at_creation_and_when_taking_a_seat(
        client: FlaskClient, name: str) -> None:
    problem = assert_problem(client.post("/games", json={"players": [{"name": "ok"}, {"name": name}]}),
                             422, "validation-error")
    assert [e["pointer"] for e in problem["errors"]] == ["/players/1/name"]
    assert "visible" in problem["errors"][0]["detail"]
    gid = client.post("/games", json={"players": [{"name": "host"}, {"open": True}]}).get_json()["id"]
    assert_problem(client.post(f"/games/{gid}/seats/1", json={"name": name}), 422, "validation-error")
    assert client.post(f"/games/{gid}/seats/1", json={"name": "Bea"}).status_code == 201


def test_names_in_any_script_are_welcome(client: FlaskClient) -> None:
    resp = client.post("/games", json={"players": [{"name": "Zoë 🎲"}, {"name": "王小明 (x40)" + "y" * 30}]})
    assert resp.status_code == 201, resp.get_json()
    # Marks on a letter, Hangul syllables, a filler beside a letter: each shows something.
    resp = client.post("/games", json={"players": [{"name": "Zoe\u0308"}, {"name": "한글"}, {"name": "\u3164a"}]})
    assert resp.status_code == 201, resp.get_json()


def test_only_a_genuine_token_of_another_game_is_403(client: FlaskClient) -> None:
    game, other = new_game(client), new_game(client)
    url = f"/games/{game['id']}/moves"
    other_token = other["players"][0]["token"]
    own_prefix_forged = game["id"] + ".garbage"
    for token in ["nosuchgame.garbage", other["id"] + ".garbage", other_token + "x", "a.b.c", "..",
                  own_prefix_forged, "{g:x}.y"]:
        assert_problem(client.post(url, json={"type": "roll"}, headers=auth(token)), 401, "unauthenticated")
        assert_problem(client.get(f"/games/{game['id']}", headers=auth(token)), 401, "unauthenticated")
    assert_problem(client.post(url, json={"type": "roll"}, headers=auth(other_token)), 403, "not-your-seat")
    assert_problem(client.get(f"/games/{game['id']}/legal-moves", headers=auth(other_token)), 403, "not-your-seat")


# -- seeds ------------------------------------------------------------------------------------

def test_client_seed_is_off_unless_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ALLOW_CLIENT_SEED", raising=False)
    assert Settings.from_env().allow_client_seed is False
    monkeypatch.setenv("ALLOW_CLIENT_SEED", "1")
    assert Settings.from_env().allow_client_seed is True


def test_a_seed_is_refused_where_not_allowed_and_nothing_is_created(settings: Settings, redis_client: Any) -> None:
    from tests.shared.toygame import PLUGIN
    app = create_app(PLUGIN, dataclasses.replace(settings, allow_client_seed=False))
    with app.test_client() as client:
        games_before = redis_client.keys("{g:*")     # (the rate limiter's own counters may appear)
        problem = assert_problem(client.post("/games", json={"players": [{"name": "a"}, {"name": "b"}], "seed": 7}),
                                 422, "seed-not-allowed")
        assert problem["errors"][0]["pointer"] == "/seed"
        assert redis_client.keys("{g:*") == games_before
        created = client.post("/games", json={"players": [{"name": "a"}, {"name": "b"}], "seed": None})
        assert created.status_code == 201
        view = client.get(f"/games/{created.get_json()['id']}").get_json()
        assert view["seeded_by_client"] is False


def test_a_client_seed_is_told_to_every_seat_and_spectator(client: FlaskClient) -> None:
    seeded, drawn = new_game(client, seed=7), new_game(client, seed=None)
    for game, expected in [(seeded, True), (drawn, False)]:
        gid = game["id"]
        viewers = [{}] + [auth(p["token"]) for p in game["players"]]
        for headers in viewers:
            assert client.get(f"/games/{gid}", headers=headers).get_json()["seeded_by_client"] is expected
            first = client.get(f"/games/{gid}/events", headers=headers).get_json()["events"][0]
            cause = dict(first["cause"])
            assert re.fullmatch(r"[0-9a-f]{64}", cause.pop("seed_commitment"))     # the seed committed to
            assert cause == {"kind": "setup", "players": 2, "options": {"target": 10},
                             "seeded_by_client": expected}     # and still no seed while it runs
        assert client.get(f"/games/{gid}/audit").get_json()["ok"]
    # And to whoever picks a game from the list, before joining it.
    listed = {g["id"]: g["seeded_by_client"] for g in client.get("/games").get_json()["games"]}
    assert (listed[seeded["id"]], listed[drawn["id"]]) == (True, False)
