"""The common HTTP contract, through the real Flask app and a real Redis, on the toy game."""
from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from tests.shared.conftest import auth, new_game

PROBLEM = "application/problem+json"


def assert_problem(resp: Any, status: int, reason: str) -> dict[str, Any]:
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.mimetype == PROBLEM
    body = resp.get_json(force=True)
    assert body["status"] == status and body["reason"] == reason
    assert body["type"].startswith("http") and body["title"] and body["detail"]
    return body


def whose_turn(client: FlaskClient, game: dict[str, Any]) -> tuple[int, str]:
    view = client.get(f"/games/{game['id']}").get_json()
    seat = view["to_act"][0]
    return seat, game["players"][seat]["token"]


def test_probes_and_docs(client: FlaskClient) -> None:
    assert client.get("/healthz").get_json() == {"status": "ok", "engine_versions": ["1"]}
    assert client.get("/readyz").get_json() == {"status": "ready"}
    spec = client.get("/openapi.json").get_json()
    assert "/games/{game_id}/moves" in spec["paths"]
    docs = client.get("/docs")
    assert docs.status_code == 200
    # Swagger UI comes from the service itself, so /docs works without the internet.
    page = docs.get_data(as_text=True)
    assert "http" not in page.split("<script>")[0] and "/docs/static/swagger-ui-bundle.js" in page
    # Swagger UI 4 renders OpenAPI 3.0 only: the page reads the document in 3.0's words.
    assert '"url": "/docs/openapi-3.0.json"' in page
    assert spec["openapi"] == "3.1.0" and client.get("/docs/openapi-3.0.json").get_json()["openapi"] == "3.0.3"
    for asset in ("swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "swagger-ui.css"):
        served = client.get(f"/docs/static/{asset}")
        assert served.status_code == 200 and len(served.get_data()) > 1000
        served.close()
    assert client.get("/docs/static/../../etc/passwd").status_code == 404


def test_create_returns_tokens_once_and_location(client: FlaskClient, redis_client: Any) -> None:
    resp = client.post("/games", json={"players": [{"name": "ann"}, {"name": "bob", "bot": "random"}]})
    assert resp.status_code == 201
    body = resp.get_json()
    assert resp.headers["Location"] == f"/games/{body['id']}"
    assert body["version"] >= 1
    ann, bob = body["players"]
    assert ann["token"] and bob["token"] is None and bob["bot"] == "random"
    # Only a hash is stored: the token itself appears nowhere in Redis.
    dump = b"".join(v for k in redis_client.keys("*") if redis_client.type(k) == b"hash"
                    for v in redis_client.hgetall(k).values())
    assert ann["token"].split(".", 1)[1].encode() not in dump


def test_seat_view_shows_own_card_only(client: FlaskClient) -> None:
    game = new_game(client)
    t0, t1 = (p["token"] for p in game["players"])
    v0 = client.get(f"/games/{game['id']}", headers=auth(t0)).get_json()
    v1 = client.get(f"/games/{game['id']}", headers=auth(t1)).get_json()
    spectator = client.get(f"/games/{game['id']}").get_json()
    assert v0["you"] == 0 and v1["you"] == 1 and spectator["you"] is None
    assert v0["state"]["your_card"] is not None and spectator["state"]["your_card"] is None
    for view in (v0, spectator):
        assert view["status"] == "active" and view["to_act"] and view["result"] is None
    # The event log hides the other seat's card until the end.
    events0 = client.get(f"/games/{game['id']}/events", headers=auth(t0)).get_json()["events"]
    dealt = {e["data"]["seat"]: e["data"]["card"] for e in events0 if e["type"] == "card_dealt"}
    assert dealt[0] == v0["state"]["your_card"] and dealt[1] is None
    assert all("seed" not in e.get("cause", {}) and "salt" not in e for e in events0)


def play_to_the_end(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    """Every seat rolls whenever it may (else its first legal move) until the game ends."""
    gid = game["id"]
    for _ in range(500):
        view = client.get(f"/games/{gid}").get_json()
        if view["status"] == "finished":
            return view
        token = game["players"][view["to_act"][0]]["token"]
        moves = client.get(f"/games/{gid}/legal-moves", headers=auth(token)).get_json()["moves"]
        assert moves, "a seat that is to act always has a legal move"
        move = {"type": "roll"} if {"type": "roll"} in moves else moves[0]
        resp = client.post(f"/games/{gid}/moves", json=move, headers=auth(token))
        assert resp.status_code == 201, resp.get_json()
        assert resp.get_json()["version"] > view["version"]
    raise AssertionError("the game did not end")


def test_play_to_the_end_then_log_opens(client: FlaskClient) -> None:
    game = new_game(client)
    gid = game["id"]
    view = play_to_the_end(client, game)
    assert view["status"] == "finished" and view["result"]["winners"] and view["to_act"] == []
    events = client.get(f"/games/{gid}/events?limit=1000").get_json()["events"]
    cards = [e["data"]["card"] for e in events if e["type"] == "card_dealt"]
    assert None not in cards and all("salt" in e for e in events)
    assert events[0]["cause"]["seed"] is not None
    winner = view["result"]["winners"][0]
    assert_problem(client.post(f"/games/{gid}/moves", json={"type": "roll"},
                               headers=auth(game["players"][winner]["token"])), 409, "game-over")
    # The refused move changed nothing: same version, same log.
    assert client.get(f"/games/{gid}").get_json()["version"] == view["version"]
    assert client.get(f"/games/{gid}/events?limit=1000").get_json()["events"] == events
    audit = client.get(f"/games/{gid}/audit").get_json()
    assert audit["ok"] and audit["version"] == view["version"] and audit["head_hash"] == events[-1]["hash"]


def test_error_cases_change_nothing(client: FlaskClient) -> None:
    game = new_game(client)
    gid = game["id"]
    seat, token = whose_turn(client, game)
    other = game["players"][1 - seat]["token"]
    before = client.get(f"/games/{gid}/events?limit=1000").get_json()
    url = f"/games/{gid}/moves"
    assert_problem(client.post(url, data="{not json", content_type="application/json", headers=auth(token)),
                   400, "malformed-request")
    assert_problem(client.post(url, data="type=roll", content_type="text/plain", headers=auth(token)),
                   415, "unsupported-media-type")
    assert_problem(client.post(url, json={"type": "roll"}), 401, "unauthenticated")
    assert_problem(client.post(url, json={"type": "roll"}, headers=auth("nope")), 401, "unauthenticated")
    other_game = new_game(client)
    assert_problem(client.post(url, json={"type": "roll"}, headers=auth(other_game["players"][0]["token"])),
                   403, "not-your-seat")
    assert_problem(client.post("/games/nosuchgame/moves", json={"type": "roll"}, headers=auth(token)),
                   404, "game-not-found")
    assert_problem(client.post(url, json={"type": "roll"}, headers=auth(other)), 409, "not-your-turn")
    stale = assert_problem(client.post(url, json={"type": "roll"}, headers={**auth(token), "If-Match": '"1"'}),
                           409, "stale-version")
    assert stale["current_version"] == before["version"]
    assert_problem(client.post(url, json={"type": "ack"}, headers=auth(token)), 422, "nothing-to-acknowledge")
    assert_problem(client.post(url, json={"type": "fly"}, headers=auth(token)), 422, "unknown-move-type")
    bad = assert_problem(client.post(url, json={"type": "roll", "extra": 1}, headers=auth(token)),
                         422, "validation-error")
    assert bad["errors"][0]["pointer"] == "/extra"
    assert_problem(client.post(url, json=[1, 2], headers=auth(token)), 422, "validation-error")
    deep: Any = []
    for _ in range(100):
        deep = [deep]
    assert_problem(client.post(url, json={"type": "roll", "x": deep}, headers=auth(token)), 400, "malformed-request")
    assert_problem(client.post(url, data='{"type": "roll", "x": "\\ud800"}', content_type="application/json",
                               headers=auth(token)), 400, "malformed-request")
    assert_problem(client.post(url, data=json.dumps({"type": "roll", "pad": "x" * 100_000}),
                               content_type="application/json", headers=auth(token)), 413, "payload-too-large")
    after = client.get(f"/games/{gid}/events?limit=1000").get_json()
    assert after == before


def test_create_validation(client: FlaskClient) -> None:
    body = assert_problem(client.post("/games", json={"players": [{"name": "solo"}]}), 422, "validation-error")
    assert body["errors"][0]["pointer"] == "/players"
    body = assert_problem(client.post("/games", json={"players": [{"name": "a"}, {"name": "b", "bot": "genius"}]}),
                          422, "validation-error")
    assert body["errors"][0]["pointer"] == "/players/1/bot"
    body = assert_problem(client.post("/games", json={"players": [{"name": "a"}, {"name": "b"}],
                                                      "options": {"target": 1000}}), 422, "validation-error")
    assert body["errors"][0]["pointer"] == "/options/target"


def test_idempotent_retry_returns_the_first_answer(client: FlaskClient) -> None:
    game = new_game(client)
    seat, token = whose_turn(client, game)
    url = f"/games/{game['id']}/moves"
    headers = {**auth(token), "Idempotency-Key": "move-1"}
    first = client.post(url, json={"type": "hold"}, headers=headers)
    again = client.post(url, json={"type": "hold"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    assert_problem(client.post(url, json={"type": "roll"}, headers=headers), 422, "idempotency-key-reused")
    assert client.get(f"/games/{game['id']}").get_json()["version"] == first.get_json()["version"]


def test_if_match_accepts_current_version(client: FlaskClient) -> None:
    game = new_game(client)
    seat, token = whose_turn(client, game)
    view = client.get(f"/games/{game['id']}")
    resp = client.post(f"/games/{game['id']}/moves", json={"type": "hold"},
                       headers={**auth(token), "If-Match": view.headers["ETag"]})
    assert resp.status_code == 201


def test_replay_time_travel_and_snapshot_is_only_a_cache(client: FlaskClient, app: Any) -> None:
    game = new_game(client)
    gid = game["id"]
    versions = []
    for _ in range(12):
        seat, token = whose_turn(client, game)
        resp = client.post(f"/games/{gid}/moves", json={"type": "hold"}, headers=auth(token))
        versions.append(resp.get_json()["version"])
    runtime = app.extensions["runtime"]
    assert runtime.store.load_snapshot(gid) is not None   # snapshot_every=5 wrote one
    with_snapshot = client.get(f"/games/{gid}").get_json()
    runtime.store.delete_snapshot(gid)
    runtime.cache.clear()
    assert client.get(f"/games/{gid}").get_json() == with_snapshot
    early = client.get(f"/games/{gid}/replay?version={versions[0]}").get_json()
    assert early["version"] == versions[0] and early["state"]["turn"] == 1
    assert_problem(client.get(f"/games/{gid}/replay?version=9999"), 422, "validation-error")


def test_audit_detects_tampering(client: FlaskClient, app: Any) -> None:
    game = new_game(client)
    gid = game["id"]
    for _ in range(4):
        seat, token = whose_turn(client, game)
        client.post(f"/games/{gid}/moves", json={"type": "roll"}, headers=auth(token))
    assert client.get(f"/games/{gid}/audit").get_json()["ok"]
    store = app.extensions["runtime"].store
    log_key = store.keys(gid)[0]
    records = [json.loads(fields[b"e"]) for _, fields in store.redis.xrange(log_key)]
    forged = records[-2]
    forged["data"] = {**forged["data"], "forged": True}
    store.redis.delete(log_key)   # rewrite the whole stream, as someone with Redis access could
    for record in records:
        store.redis.xadd(log_key, {"e": json.dumps(record)}, id="0-" + str(record["seq"]))
    report = client.get(f"/games/{gid}/audit").get_json()
    assert report["ok"] is False and report["first_bad_event"] == forged["seq"]
    engine = app.extensions["runtime"].game.engine_version
    assert report["played_engine_version"] == report["audit_engine_version"] == engine
    assert "rules engine" not in report["problem"]      # same rules: nothing to excuse


def test_a_game_of_an_engine_version_not_served_here_is_never_played_by_other_rules(
        client: FlaskClient, app: Any) -> None:
    """A game keeps the rules it started with: where this instance does not serve its engine
    version (a rolling deploy, a version not kept), every read and move that needs the rules
    answers 503 engine-unavailable with Retry-After, and nothing is appended."""
    game = new_game(client)
    gid = game["id"]
    seat, token = whose_turn(client, game)
    store = app.extensions["runtime"].store
    meta_key = store.keys(gid)[1]
    store.redis.hset(meta_key, "engine_version", "0")
    app.extensions["runtime"].cache.clear()
    version = store.version(gid)
    for resp in (client.get(f"/games/{gid}/audit"), client.get(f"/games/{gid}"),
                 client.get(f"/games/{gid}/legal-moves", headers=auth(token)),
                 client.get(f"/games/{gid}/replay?version=1"),
                 client.post(f"/games/{gid}/moves", json={"type": "roll"}, headers=auth(token))):
        body = assert_problem(resp, 503, "engine-unavailable")
        assert int(resp.headers["Retry-After"]) >= 1
        assert body["engine_version"] == "0"
        assert app.extensions["runtime"].game.engine_version in body["served_engine_versions"]
    assert store.version(gid) == version


def test_long_poll_on_a_finished_game_answers_at_once(client: FlaskClient) -> None:
    import time
    game = new_game(client)
    gid = game["id"]
    view = play_to_the_end(client, game)
    start = time.monotonic()
    page = client.get(f"/games/{gid}/events?after={view['version']}&wait=5").get_json()
    assert page["events"] == [] and page["status"] == "finished"
    assert time.monotonic() - start < 2


def test_metrics_count_moves_by_outcome_and_reason(client: FlaskClient) -> None:
    game = new_game(client)
    seat, token = whose_turn(client, game)
    client.post(f"/games/{game['id']}/moves", json={"type": "ack"}, headers=auth(token))
    client.post(f"/games/{game['id']}/moves", json={"type": "hold"}, headers=auth(token))
    text = client.get("/metrics").get_data(as_text=True)
    assert 'moves_total{game="race",outcome="rejected",reason="nothing-to-acknowledge"}' in text
    assert 'moves_total{game="race",outcome="accepted",reason=""}' in text
    assert "http_request_seconds_bucket" in text and "bot_queue_depth" in text


def test_other_seats_moves_stay_hidden_unless_the_game_says_they_are_public(client: FlaskClient) -> None:
    game = new_game(client)
    seat, token = whose_turn(client, game)
    other = game["players"][1 - seat]["token"]
    client.post(f"/games/{game['id']}/moves", json={"type": "hold"}, headers=auth(token))
    mine = client.get(f"/games/{game['id']}/events", headers=auth(token)).get_json()["events"]
    resp = client.get(f"/games/{game['id']}/events", headers=auth(other))
    assert resp.status_code == 200, resp.get_json()
    theirs = resp.get_json()["events"]
    assert mine[-1]["cause"] == {"kind": "move", "seat": seat, "move": {"type": "hold"}}
    assert theirs[-1]["cause"] == {"kind": "move", "seat": seat}


def test_seat_answers_are_private_to_caches(client: FlaskClient) -> None:
    game = new_game(client)
    seat, token = whose_turn(client, game)
    assert client.get(f"/games/{game['id']}", headers=auth(token)).headers["Cache-Control"] == "private, no-store"
    assert "Cache-Control" not in client.get(f"/games/{game['id']}").headers


def test_every_answer_carries_a_request_id_that_problems_quote(client: FlaskClient) -> None:
    supplied = client.get("/games/nope", headers={"X-Request-Id": "trace-42.a"})
    assert supplied.headers["X-Request-Id"] == "trace-42.a"
    assert assert_problem(supplied, 404, "game-not-found")["instance"] == "urn:request:trace-42.a"
    # An id that could forge a log line is replaced by one of ours; ours never repeat.
    forged = client.get("/healthz", headers={"X-Request-Id": "x\" injected"})
    generated = {client.get("/healthz").headers["X-Request-Id"] for _ in range(20)}
    assert forged.headers["X-Request-Id"] != "x\" injected" and len(generated) == 20
    assert all(1 <= len(i) <= 64 for i in generated)


def test_request_metrics_are_labelled_by_route_not_path(client: FlaskClient) -> None:
    game = new_game(client)
    client.get(f"/games/{game['id']}")
    client.get("/no/such/route")
    text = client.get("/metrics").get_data(as_text=True)
    assert 'http_requests_total{game="race",method="GET",route="/games/<game_id>",status="200"}' in text
    assert 'route="unmatched",status="404"' in text
    assert game["id"] not in text


def test_large_answers_are_gzipped_for_clients_that_accept_it(app: Any) -> None:
    import gzip

    from shared.http.plumbing import COMPRESS_FROM_BYTES, json_response

    big = {"moves": [{"type": "place", "at": i} for i in range(COMPRESS_FROM_BYTES // 10)]}
    with app.test_request_context(headers={"Accept-Encoding": "gzip, deflate"}):
        zipped = json_response(big)
        small = json_response({"version": 3})
    assert zipped.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in zipped.headers["Vary"]
    assert json.loads(gzip.decompress(zipped.get_data())) == big
    assert "Content-Encoding" not in small.headers and small.get_json() == {"version": 3}
    with app.test_request_context():
        plain = json_response(big)
    assert "Content-Encoding" not in plain.headers and plain.get_json() == big
    assert "Accept-Encoding" in plain.headers["Vary"]


def test_a_move_on_a_process_without_a_copy_loads_it_in_two_round_trips(client: FlaskClient, app: Any,
                                                                monkeypatch: Any) -> None:
    game = new_game(client)
    seat, token = whose_turn(client, game)
    runtime = app.extensions["runtime"]
    runtime.cache.clear()                            # another instance created it, say
    calls: list[str] = []
    for name in ("meta", "meta_and_tail", "meta_and_snapshot", "load_snapshot", "read", "version"):
        real = getattr(runtime.store, name)
        monkeypatch.setattr(runtime.store, name,
                            lambda *a, _real=real, _name=name, **k: calls.append(_name) or _real(*a, **k))
    resp = client.post(f"/games/{game['id']}/moves", json={"type": "hold"}, headers=auth(token))
    assert resp.status_code == 201, resp.get_json()
    assert calls == ["meta_and_snapshot", "read"]   # then the append: three round trips in all
    calls.clear()
    seat, token = whose_turn(client, game)
    calls.clear()
    assert client.post(f"/games/{game['id']}/moves", json={"type": "hold"}, headers=auth(token)).status_code == 201
    assert calls == []                               # warm: the append is the only round trip
