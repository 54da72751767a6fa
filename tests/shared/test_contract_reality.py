"""The typed contract is true: every answer of random games, of every title and option set, is
valid against the OpenAPI document the service publishes.

Views (each seat and the spectator), events (as redacted for each seat and for the spectator
while the game runs, the full log once it is over), legal moves, accepted moves, replays and
results are checked through the real service against a real Redis.  The spec's components are
JSON Schema (OpenAPI 3.1's dialect, draft 2020-12); every object the games describe forbids
unknown properties, so a field an engine adds or renames fails here until its schema in
``services/<game>/schemas.py`` says so.
"""
from __future__ import annotations

import random
from typing import Any

import jsonschema_rs
import pytest
from flask.testing import FlaskClient

from shared.game import registry
from shared.play.bots import play_bot_turn_with
from shared.http.openapi import camel, game_prefix
from shared.ops.spec import generated_spec
from tests.shared.test_every_state import _app
from tests.shared.variants import VARIANTS, case_id, cases

CASES = cases()
CHECK_EVERY = 60          # moves between two looks at every answer of every seat (events: all)
HTTP_MOVES = 20           # the first moves are posted over HTTP (their answers are checked too)
CAPPED_MOVES = 120        # option sets other than a title's first are played this far
FINISHED_MOVES = 4000     # a title's first option set is played to its end


class Contract:
    def __init__(self, spec: dict[str, Any], prefix: str) -> None:
        self.spec, self.prefix = spec, prefix
        self.root = {"components": spec["components"]}
        self.validators: dict[str, Any] = {}

    def response_ref(self, path: str, method: str, status: str) -> str:
        schema = self.spec["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"]
        return schema["$ref"].rsplit("/", 1)[1]

    def check(self, component: str, body: Any, what: str) -> None:
        validator = self.validators.get(component)
        if validator is None:
            schema = {**self.root, "allOf": [{"$ref": f"#/components/schemas/{component}"}]}
            validator = self.validators[component] = jsonschema_rs.Draft202012Validator(schema)
        error = next(iter(validator.iter_errors(body)), None)
        if error is not None:
            where = "/".join(str(p) for p in error.instance_path)
            raise AssertionError(f"{what}: not a {component} at /{where}: {error.message[:500]}")

    def check_events(self, events: list[dict[str, Any]], what: str) -> None:
        """Each event against its own type's schema (a clear message), then the union."""
        mapping = self.spec["components"]["schemas"][self.prefix + "GameEvent"]["discriminator"]["mapping"]
        for record in events:
            if record["type"].startswith("platform."):
                self.check("PlatformEvent", record, f"{what} event {record['seq']}")
                continue
            assert record["type"] in mapping, f"{what}: event type {record['type']!r} has no schema"
            self.check(self.prefix + "Event" + camel(record["type"]), record, f"{what} event {record['seq']}")
            self.check(self.prefix + "Event", record, f"{what} event {record['seq']}")


def _get(client: FlaskClient, url: str, token: str | None = None) -> Any:
    resp = client.get(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    assert resp.status_code == 200, f"{url}: {resp.status_code} {resp.get_data()[:300]!r}"
    return resp.get_json()


def _check_all_answers(contract: Contract, client: FlaskClient, game_id: str, tokens: list[str],
                       after: int) -> None:
    """Every seat's and the spectator's view, legal moves and events since ``after``."""
    base = f"/games/{game_id}"
    view_schema = contract.response_ref("/games/{game_id}", "get", "200")
    moves_schema = contract.response_ref("/games/{game_id}/legal-moves", "get", "200")
    page_schema = contract.response_ref("/games/{game_id}/events", "get", "200")
    for seat, token in [(None, None), *enumerate(tokens)]:
        who = f"{game_id} seat {seat}"
        contract.check(view_schema, _get(client, base, token), f"{who} view")
        page = _get(client, f"{base}/events?after={after}&limit=1000", token)
        contract.check_events(page["events"], who)
        contract.check(page_schema, page, f"{who} events page")
        if token is not None:
            contract.check(moves_schema, _get(client, f"{base}/legal-moves", token), f"{who} legal moves")


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
@pytest.mark.slow
def test_every_answer_of_a_random_game_matches_the_spec(case: tuple[str, int, dict[str, Any]],
                                                        redis_url: str) -> None:
    name, players, options = case
    plugin = registry.plugin(name)
    app = _app(name, redis_url)
    client = app.test_client()
    contract = Contract(client.get("/openapi.json").get_json(), game_prefix(plugin))
    runtime = app.extensions["runtime"]
    rng = random.Random(case_id(case))

    created = client.post("/games", json={"players": [{"name": f"p{i}"} for i in range(players)],
                                          "options": options, "seed": rng.getrandbits(32),
                                          # A clock that never runs out here: the deadlines in the
                                          # answers and the clock in the setup's cause are checked too.
                                          "turn_seconds": 3600})
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    tokens = [seat["token"] for seat in created.get_json()["players"]]
    accepted_schema = contract.response_ref("/games/{game_id}/moves", "post", "201")
    to_finish = (players, options) == VARIANTS[name][0]
    checked_up_to = 0
    for step in range(FINISHED_MOVES if to_finish else CAPPED_MOVES):
        if step % CHECK_EVERY == 0:
            _check_all_answers(contract, client, game_id, tokens, checked_up_to)
            checked_up_to = runtime.load(game_id).version
        loaded = runtime.load(game_id)
        acting = plugin.game.to_act(loaded.state)
        if not acting:
            break
        seat = rng.choice(acting)
        if step < HTTP_MOVES:   # a legal move posted as a client would, and its answer checked
            legal = _get(client, f"/games/{game_id}/legal-moves", tokens[seat])["moves"]
            resp = client.post(f"/games/{game_id}/moves", json=rng.choice(legal),
                               headers={"Authorization": f"Bearer {tokens[seat]}"})
            assert resp.status_code == 201, resp.get_json()
            contract.check(accepted_schema, resp.get_json(), f"{game_id} move {step}")
            contract.check_events(resp.get_json()["events"], f"{game_id} move {step}")
        else:
            play_bot_turn_with(runtime, plugin.strategies, game_id, loaded.version, seat)
    _check_all_answers(contract, client, game_id, tokens, checked_up_to)

    version = runtime.load(game_id).version
    replay_schema = contract.response_ref("/games/{game_id}/replay", "get", "200")
    for n in sorted({1, version, *rng.sample(range(1, version + 1), min(version, 12))}):
        contract.check(replay_schema, _get(client, f"/games/{game_id}/replay?version={n}"), f"replay {n}")
    if to_finish:
        view = _get(client, f"/games/{game_id}")
        assert view["status"] == "finished" and view["result"] is not None, "the game was meant to end"
        after = 0
        while after < version:    # the whole log, seeds and salts included, page by page
            full = _get(client, f"/games/{game_id}/events?after={after}&limit=1000")
            contract.check_events(full["events"], f"{game_id} full log")
            contract.check(contract.response_ref("/games/{game_id}/events", "get", "200"), full, "full log")
            after = full["events"][-1]["seq"]


def test_the_check_catches_drift() -> None:
    """The validator is not blind: a field an engine added, or a wrong type, fails."""
    contract = Contract(generated_spec("catan"), "Catan")
    event = {"seq": 1, "type": "dice_rolled", "data": {"seat": 0, "dice": [3, 4]}, "at": 1, "hash": "x"}
    contract.check_events([event], "good")
    for bad in ({**event, "data": {"seat": 0, "dice": [3, 4], "sum": 7}},
                {**event, "data": {"seat": "0", "dice": [3, 4]}},
                {**event, "type": "dice_rolled_twice"}):
        with pytest.raises(AssertionError):
            contract.check_events([bad], "bad")


def test_catan_trades_match_the_spec(redis_url: str) -> None:
    """Random players never trade (offers are free-form, so not in legal moves): an offer, its
    answers and its confirmation, then an offer met by a counter-offer and cancelled, with every
    answer checked meanwhile."""
    from services.catan.rules.board import RESOURCES

    plugin = registry.plugin("catan")
    app = _app("catan", redis_url)
    client = app.test_client()
    contract = Contract(client.get("/openapi.json").get_json(), "Catan")
    runtime = app.extensions["runtime"]
    created = client.post("/games", json={"players": [{"name": f"p{i}"} for i in range(3)], "seed": 5})
    game_id, tokens = created.get_json()["id"], [p["token"] for p in created.get_json()["players"]]

    def post(seat: int, move: dict[str, Any]) -> None:
        resp = client.post(f"/games/{game_id}/moves", json=move, headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert resp.status_code == 201, resp.get_json()
        contract.check_events(resp.get_json()["events"], f"{move['type']}")

    def trade() -> tuple[int, str, int, str] | None:
        """(offerer, a card it holds, a partner, a card the partner holds and it does not)."""
        state = runtime.load(game_id).state
        seat = state["current"]
        if state["phase"] != "main" or state["offer"] is not None:
            return None
        hand = state["hands"][seat]
        for partner in range(3):
            for want, count in enumerate(state["hands"][partner]):
                give = next((i for i, n in enumerate(hand) if n and i != want), None)
                if partner != seat and count and give is not None:
                    return seat, RESOURCES[give], partner, RESOURCES[want]
        return None

    for _ in range(400):
        found = trade()
        if found:
            break
        loaded = runtime.load(game_id)
        play_bot_turn_with(runtime, plugin.strategies, game_id, loaded.version, plugin.game.to_act(loaded.state)[0])
    assert found, "no trade was possible in 400 moves"
    seat, give, partner, want = found
    after = runtime.load(game_id).version
    post(seat, {"type": "offer_trade", "give": {give: 1}, "get": {want: 1}})
    _check_all_answers(contract, client, game_id, tokens, after)      # the open offer in every view
    for other in range(3):
        if other != seat:
            post(other, {"type": "answer_trade", "accept": other == partner})
    post(seat, {"type": "confirm_trade", "seat": partner})
    post(seat, {"type": "offer_trade", "give": {want: 1}, "get": {give: 1}})   # the partner holds it now
    for other in range(3):
        if other == partner:       # a counter-offer, from the partner's side: more for the same card
            post(other, {"type": "counter_trade", "give": {give: 1}, "get": {want: 2}})
        elif other != seat:
            post(other, {"type": "answer_trade", "accept": False})
    _check_all_answers(contract, client, game_id, tokens, after)      # the counter in every view
    post(seat, {"type": "cancel_trade"})
    _check_all_answers(contract, client, game_id, tokens, after)
    types = {e["type"] for e in _get(client, f"/games/{game_id}/events?after={after}")["events"]}
    assert {"trade_offered", "trade_answered", "trade_countered", "trade_confirmed", "trade_cancelled"} <= types


# Where each engine lists the event types its evolve folds (the first event aside, where it has one
# of its own path): an event type added there without its schema fails here, even one that random
# games never reach (a trade, a rare card).
FOLDED_EVENTS = {
    "catan": ("HANDLERS", set()),
    "elasund": ("_HANDLERS", {"game_started"}),
    "elfenland": ("EVOLVERS", {"game_set_up"}),
    "elastium": ("HANDLERS", set()),
}


@pytest.mark.parametrize("name", sorted(FOLDED_EVENTS))
def test_every_event_type_an_engine_folds_has_a_schema(name: str) -> None:
    import importlib

    attribute, first = FOLDED_EVENTS[name]
    folded = set(getattr(importlib.import_module(f"services.{name}.rules.events"), attribute)) | first
    assert folded == set(registry.plugin(name).event_schemas), \
        f"add the missing event schemas to services/{name}/schemas.py (EVENT_SCHEMAS)"
