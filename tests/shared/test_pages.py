"""The browser pages as the server gives them: HTML that names the game and its seats' bots, files
from shared/http/web/, and nothing of them in the API document."""
from __future__ import annotations

import json
import re
from typing import Any


def page_config(html: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="config">(.*?)</script>', html, re.S)
    assert match, html
    return json.loads(match.group(1))


def test_the_lobby_offers_this_game_with_its_bots_and_default_options(client: Any) -> None:
    resp = client.get("/")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    html = resp.get_data(as_text=True)
    assert "<title>Lobby · Race to 10</title>" in html and 'name="viewport"' in html
    config = page_config(html)
    # Easiest first: random, then the bots that answer at once (a search bot would come last, "hard").
    assert config["bots"] == [{"name": "random", "level": "easy"}, {"name": "roller", "level": "medium"},
                              {"name": "slow", "level": "medium"}]
    assert config["default_options"] == {"target": 10}
    assert (config["min_players"], config["max_players"]) == (2, 4)
    assert "default-src 'self'" in resp.headers["Content-Security-Policy"]


def test_table_and_replay_pages_and_their_scripts(client: Any) -> None:
    for path, script in (("/table/any-id", "/web/table.js"), ("/replay/any-id", "/web/replay.js")):
        html = client.get(path).get_data(as_text=True)
        assert f'<script type="module" src="{script}">' in html
        js = client.get(script)
        assert js.status_code == 200 and js.mimetype == "text/javascript"
    assert client.get("/web/style.css").mimetype == "text/css"
    assert client.get("/web/nothing.js").status_code == 404
    assert client.get("/web/../routes/pages.py").status_code == 404


def test_the_pages_are_not_in_the_api_document(client: Any) -> None:
    paths = client.get("/openapi.json").get_json()["paths"]
    assert "/" not in paths and not any(p.startswith(("/table", "/replay", "/web")) for p in paths)


def test_the_game_words_for_events_moves_and_a_view(settings: Any) -> None:
    """POST /web/words gives the game's own words (services/<game>/render.py) for what the page sends."""
    from services.catan.api import PLUGIN as CATAN
    from shared.http.service import create_app

    client = create_app(CATAN, settings).test_client()
    players = [{"name": "ann"}, {"name": "bob", "bot": "greedy"}, {"name": "cy", "bot": "greedy"}]
    created = client.post("/games", json={"players": players, "seed": 3}).get_json()
    token = created["players"][0]["token"]
    view = client.get(f"/games/{created['id']}", headers={"Authorization": f"Bearer {token}"}).get_json()
    events = [{"seq": 5, "type": "dice_rolled", "data": {"seat": 1, "dice": [2, 6]}},
              {"seq": 6, "type": "platform.seat_joined", "data": {"seat": 2}}]
    resp = client.post("/web/words", json={"names": ["ann", "bob", "cy"], "events": events, "view": view,
                                           "moves": [{"type": "build_city", "node": 12}, {"type": "roll"}]})
    assert resp.status_code == 200, resp.get_json()
    words = resp.get_json()
    assert words["events"] == ["bob rolls 2+6 = 8", "cy: seat joined"]
    assert words["moves"][0].startswith("build a city at node 12") and words["moves"][1] == "roll the dice"
    # The summary is the game's text without its own drawing of the board (the page shows the picture).
    assert "Your hand:" in words["summary"] and "seat 0 (ann, you)" in words["summary"]
    assert "Board (hex" not in words["summary"]
    assert words["scores"] == ["0 VP", "0 VP", "0 VP"]          # before anyone builds
    # The page knows which move fields each kind of place fills, and each move's warning (none here).
    places = page_config(client.get("/table/x").get_data(as_text=True))["places"]
    assert places == {"node": [{"fields": {"node": "id"}, "types": []}], "edge": [{"fields": {"edge": "id"}, "types": []}],
                      "hex": [{"fields": {"hex": "id"}, "types": []}]}
    assert words["warnings"] == [None, None]
    # Catan brings its own move widget; the toy game none.
    assert client.get("/web/game/moves.js").mimetype == "text/javascript"
    assert "offer_trade" in client.get("/web/game/moves.js").get_data(as_text=True)


def test_the_words_refuse_odd_bodies_and_games_without_widgets_say_so(client: Any) -> None:
    assert client.post("/web/words", json=[1]).status_code == 422
    assert client.post("/web/words", json={"events": [{}] * 501}).get_json()["reason"] == "validation-error"
    assert client.post("/web/words", data="x", content_type="text/plain").status_code == 415
    # Unknown games' events read in the generic words; odd events too.
    words = client.post("/web/words", json={"events": [{"type": "x_y", "data": {"seat": 0, "n": 1}}, "odd"],
                                            "names": ["ann"]}).get_json()
    assert words["events"] == ["ann: x y, n 1", "odd"] and "summary" not in words
    assert client.get("/web/game/moves.js").status_code == 404
    assert page_config(client.get("/table/x").get_data(as_text=True))["has_widgets"] is False


def test_every_game_offers_its_bots_by_level() -> None:
    from shared.game import registry
    for name in registry.available():
        levels = registry.plugin(name).bot_levels()
        assert [bot["level"] for bot in levels] == ["easy", "medium", "hard"], (name, levels)
        assert levels[0]["name"] == "random" and levels[2]["name"] == "expert"


def _holds(value: Any, attribute: str | None) -> bool:
    """shared/http/web/table.js's ``holds``: does a move's field hold a place's attribute?"""
    if value is None or attribute is None:
        return False
    wanted = attribute.split(" ")
    if not isinstance(value, list):
        return len(wanted) == 1 and str(value) == attribute
    have = [str(x) for x in value]
    return attribute in have if len(wanted) == 1 else sorted(have) == sorted(wanted)


def test_every_kind_of_place_names_moves_only_in_its_own_fields() -> None:
    """Each game declares which move fields each kind of place on its picture fills: every kind
    drawn is declared, every declared field is a field of the declared move types, and every
    legal move with such a field names a place drawn on the board (over random games)."""
    import random
    import xml.etree.ElementTree as ET

    from shared.game import registry
    from tests.shared.variants import VARIANTS

    checked: set[tuple[str, str]] = set()
    for name in ("catan", "elasund", "elfenland", "elastium"):
        plugin = registry.plugin(name)
        game = plugin.game
        assert plugin.board_svg is not None and plugin.places, name
        fields = {t: set(schema().fields) for t, schema in plugin.move_schemas.items()}
        for kind, ways in plugin.places.items():
            for way in ways:
                types = way.types or tuple(t for t, f in fields.items() if {k for k, _ in way.fields} <= f)
                assert types and all({k for k, _ in way.fields} <= fields[t] for t in types), (name, kind, way)
        # The move fields any declaration names: a legal move with one of them names a place.
        named = {(t, k) for ways in plugin.places.values() for way in ways for k, _ in way.fields
                 for t in (way.types or fields)}
        seen_kinds: set[str | None] = set()
        elfengold = [v for v in VARIANTS[name] if v[1].get("edition") == "elfengold"][:1]
        for players, options in VARIANTS[name][:2] + elfengold:
            seats = [{"name": f"p{i}", "bot": None} for i in range(players)]
            rng = random.Random(3)
            state = game.replay(game.setup(players, {**game.default_options(), **options}, rng))
            for _ in range(80):
                if game.result(state) is not None:
                    break
                seat = game.to_act(state)[0]
                moves = game.legal_moves(state, seat)
                to_check = [m for m in moves if any((m["type"], k) in named for k in m)]
                to_check = to_check[::max(1, len(to_check) // 6)]      # a few of each state's hundreds
                if to_check or not seen_kinds:
                    svg = ET.fromstring(plugin.board_svg(game.view(state, None), seats))
                    places = [e for e in svg.iter() if e.get("data-kind") is not None]
                    seen_kinds.update(p.get("data-kind") for p in places)
                for move in to_check:
                    assert any(
                        (not way.types or move["type"] in way.types)
                        and all(_holds(move.get(k), p.get(f"data-{a}")) for k, a in way.fields)
                        for p in places for way in plugin.places[p.get("data-kind") or ""]), (name, move)
                    checked.add((name, move["type"]))
                move = rng.choice(moves)
                for event in game.decide(state, seat, move, rng):
                    state = game.evolve(state, event)
        assert seen_kinds <= set(plugin.places), name
    assert {("catan", "build_settlement"), ("catan", "move_robber"), ("elasund", "build"), ("elasund", "move_ship"),
            ("elfenland", "place_counter"), ("elfenland", "travel"), ("elastium", "place_band")} <= checked


def test_a_favicon_is_served_and_linked_from_every_page(client: Any) -> None:
    ico = client.get("/favicon.ico")
    assert ico.status_code == 200 and ico.mimetype == "image/vnd.microsoft.icon"
    assert ico.data[:4] == b"\x00\x00\x01\x00"                      # an ICO header
    svg = client.get("/web/favicon.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
    for path in ("/", "/table/x", "/replay/x"):
        html = client.get(path).get_data(as_text=True)
        assert '<link rel="icon" href="/web/favicon.svg"' in html and 'href="/favicon.ico"' in html


def test_each_game_warns_of_the_moves_that_cost_more_than_a_player_may_expect() -> None:
    """shared.text.render.move_warning: the game's own cases (listed in its NOTES.md), from the seat's
    view; None for the ordinary moves and for views it cannot read."""
    from shared.text.render import move_warning

    # Elfengold: a bid above one's gold risks all of it.
    purse = {"seats": [{"coins": 12}, {"coins": 3}]}
    assert move_warning({"type": "bid", "amount": 12}, "elfenland", purse, 0) is None
    over = move_warning({"type": "bid", "amount": 13}, "elfenland", purse, 0)
    assert over and "forfeit all 12 gold" in over
    assert move_warning({"type": "bid", "amount": 4}, "elfenland", purse, 1) is not None
    # Catan: the robber on one's own building (hex 0's corners are 0, 4, 8, 12, 7, 3); more than 7 cards.
    owners = [-1] * 54
    owners[12] = 1
    board = {"terrains": ["forest"] * 19, "numbers": [9] * 19}
    seats = [{"resources": {"brick": 4, "ore": 4}}, {"resources": {"wool": 7}}]
    catan = {"node_owner": owners, "board": board, "seats": seats}
    robber = {"type": "move_robber", "hex": 0, "victim": None}
    assert move_warning(robber, "catan", catan, 0) is None
    assert "block your own building on forest 9" in str(move_warning(robber, "catan", catan, 1))
    assert "discard 4 of them" in str(move_warning({"type": "end_turn"}, "catan", catan, 0))
    assert move_warning({"type": "end_turn"}, "catan", catan, 1) is None
    # Elasund: a house over another's permit pays its value; over one's own hut it removes the hut.
    elasund = {"permits": {"2,3": [1, 3], "3,3": [0, 2]},
               "buildings": [{"id": 1, "kind": "worker_hut_small", "seat": 0, "col": 3, "row": 3}]}
    house = {"type": "build", "building": "house", "col": 2, "row": 3}
    said = str(move_warning(house, "elasund", elasund, 0))
    assert "3 gold for the other players' permits" in said and "Your worker hut small at column 3, row 3 is removed" in said
    assert move_warning({**house, "row": 4}, "elasund", elasund, 0) is None
    # Elastium's Volcano: energy one needs to escape.
    volcano = {"scenario": "volcano", "energy": [9, 11]}
    assert "leaves you 6" in str(move_warning({"type": "buy_action"}, "elastium", volcano, 0))
    assert move_warning({"type": "buy_action"}, "elastium", volcano, 1) is None
    assert move_warning({"type": "buy_action"}, "elastium", {**volcano, "scenario": "jungle-temples"}, 0) is None
    # Odd views (the page sends them) get no warning, never an error.
    assert move_warning({"type": "bid", "amount": 3}, "elfenland", {"seats": "x"}, 0) is None
    assert move_warning({"type": "bid", "amount": 3}, "elfenland", purse, None) is None
