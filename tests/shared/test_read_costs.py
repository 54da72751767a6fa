"""Reads that cost CPU are bounded: audits made once per log and process and rate-limited, reads
rate-limited per address and per token, and long legal move lists answered a page at a time.
Through the real app and a real Redis."""
from __future__ import annotations

import dataclasses
from typing import Any

from flask import Flask

from shared.play.config import Settings
from shared.http.service import create_app
from tests.shared.conftest import auth, new_game
from tests.shared.test_service import assert_problem, whose_turn
from tests.shared.toygame import PLUGIN


def app_with(settings: Settings, **changes: Any) -> Flask:
    return create_app(PLUGIN, dataclasses.replace(settings, **changes))


def audits_made(app: Flask) -> int:
    return int(app.blueprints["history"].audits.made)


def test_an_audit_is_made_once_per_log(settings: Settings) -> None:
    app = app_with(settings)
    client = app.test_client()
    game = new_game(client)
    first = [client.get(f"/games/{game['id']}/audit").get_json() for _ in range(5)]
    assert audits_made(app) == 1 and all(report == first[0] for report in first) and first[0]["ok"]
    seat, token = whose_turn(client, game)
    assert client.post(f"/games/{game['id']}/moves", json={"type": "roll"}, headers=auth(token)).status_code == 201
    after = client.get(f"/games/{game['id']}/audit").get_json()
    assert audits_made(app) == 2 and after["version"] > first[0]["version"]
    assert client.get(f"/games/{game['id']}/audit").get_json() == after and audits_made(app) == 2


def test_audits_are_rate_limited_per_address(settings: Settings) -> None:
    client = app_with(settings, audit_rate_limit="3/minute").test_client()
    gid = new_game(client)["id"]
    for _ in range(3):
        assert client.get(f"/games/{gid}/audit").status_code == 200
    refused = client.get(f"/games/{gid}/audit")
    assert_problem(refused, 429, "too-many-audits")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert client.get(f"/games/{gid}/audit", environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 200
    assert client.get(f"/games/{gid}").status_code == 200            # other reads go on


def test_reads_are_rate_limited_per_token_and_per_address(settings: Settings) -> None:
    client = app_with(settings, read_rate_limit_per_token="4/minute", read_rate_limit_per_address="8/minute").test_client()
    game = new_game(client)
    gid, token = game["id"], game["players"][0]["token"]
    seat, mover = whose_turn(client, game)
    for _ in range(4):
        assert client.get(f"/games/{gid}", headers=auth(token)).status_code == 200
    refused = client.get(f"/games/{gid}/legal-moves", headers=auth(token))
    assert_problem(refused, 429, "too-many-reads")
    assert int(refused.headers["Retry-After"]) >= 1
    other = game["players"][1]["token"]              # another token, same address: its own budget
    assert client.get(f"/games/{gid}", headers=auth(other)).status_code == 200
    while (answer := client.get(f"/games/{gid}")).status_code == 200:
        pass
    assert_problem(answer, 429, "too-many-reads")    # the address's budget ran out too
    assert client.get(f"/games/{gid}", environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 200
    # Moves and probes are not reads.
    assert client.post(f"/games/{gid}/moves", json={"type": "roll"}, headers=auth(mover)).status_code == 201
    assert client.get("/healthz").status_code == 200


def test_the_default_read_limits_leave_a_busy_client_alone(settings: Settings) -> None:
    client = create_app(PLUGIN, settings).test_client()
    game = new_game(client)
    token = game["players"][0]["token"]
    for _ in range(300):
        assert client.get(f"/games/{game['id']}", headers=auth(token)).status_code == 200


def test_legal_moves_come_a_page_at_a_time(settings: Settings) -> None:
    from services.catan.api import PLUGIN as CATAN
    client = create_app(CATAN, settings).test_client()
    game = client.post("/games", json={"players": [{"name": "a"}, {"name": "b"}, {"name": "c"}], "seed": 3}).get_json()
    gid = game["id"]
    seat = client.get(f"/games/{gid}").get_json()["to_act"][0]
    token = game["players"][seat]["token"]
    whole = client.get(f"/games/{gid}/legal-moves", headers=auth(token)).get_json()
    assert whole["total"] == len(whole["moves"]) > 20 and whole["next"] is None    # the default page holds them
    paged: list[Any] = []
    cursor = None
    while True:
        query = {"limit": 7, **({"cursor": cursor} if cursor else {})}
        page = client.get(f"/games/{gid}/legal-moves", query_string=query, headers=auth(token)).get_json()
        assert len(page["moves"]) <= 7 and page["total"] == whole["total"]
        paged += page["moves"]
        cursor = page["next"]
        if cursor is None:
            break
    assert paged == whole["moves"]
    # A cursor of another version: the moves changed, start again.
    first = client.get(f"/games/{gid}/legal-moves", query_string={"limit": 7}, headers=auth(token)).get_json()
    assert client.post(f"/games/{gid}/moves", json=whole["moves"][0], headers=auth(token)).status_code == 201
    stale = client.get(f"/games/{gid}/legal-moves", query_string={"cursor": first["next"]}, headers=auth(token))
    assert_problem(stale, 409, "stale-version")
    assert_problem(client.get(f"/games/{gid}/legal-moves", query_string={"cursor": "x"}, headers=auth(token)),
                   422, "validation-error")


def test_a_seat_hoarding_elastium_cards_gets_its_moves_in_bounded_pages(settings: Settings) -> None:
    """Random Elastium play soon reaches a hand with more plays than a page holds: the first page
    is bounded, and the pages together are every move."""
    import random

    from services.elastium.api import PLUGIN as ELASTIUM
    app = create_app(ELASTIUM, settings)
    client = app.test_client()
    runtime, game = app.extensions["runtime"], ELASTIUM.game
    created = client.post("/games", json={"players": [{"name": n} for n in "abc"], "seed": 1}).get_json()
    gid, rng = created["id"], random.Random(1)
    for _ in range(60):
        state = runtime.load(gid).state
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        if len(moves) > 500:
            break
        # Hoard: take as many cards as the market allows, play none.
        takes = [m for m in moves if m["type"] == "take_cards"]
        runtime.submit(gid, seat, max(takes, key=lambda m: len(m["market"])) if takes else rng.choice(moves))
    assert len(moves) > 500, "no position with more than a page of moves came up"
    token = created["players"][seat]["token"]
    first = client.get(f"/games/{gid}/legal-moves", headers=auth(token))
    body = first.get_json()
    assert len(body["moves"]) == 500 and body["total"] == len(moves) and body["next"]
    rest = client.get(f"/games/{gid}/legal-moves", query_string={"cursor": body["next"], "limit": 5000},
                      headers=auth(token)).get_json()
    assert body["moves"] + rest["moves"] == moves and rest["next"] is None
