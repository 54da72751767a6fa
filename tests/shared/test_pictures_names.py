"""Every place a move can name on a board picture has a name of its own for assistive technology:
the table makes the playable ones buttons named by the picture's title (shared/http/web/table.js)."""
from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from shared.game import registry
from tests.shared.variants import VARIANTS

SVG = "{http://www.w3.org/2000/svg}"
CASES = [(name, players, options) for name in ("catan", "elasund", "elfenland", "elastium")
         for players, options in VARIANTS[name]]


def _pictures(name: str, players: int, options: dict[str, object]) -> list[ET.Element]:
    """The board at the start and after a few random moves."""
    plugin = registry.plugin(name)
    game = plugin.game
    assert plugin.board_svg is not None
    seats = [{"name": f"p{i}", "bot": None} for i in range(players)]
    rng = random.Random(5)
    state = game.replay(game.setup(players, {**game.default_options(), **options}, rng))
    out = []
    for step in range(41):
        if step % 20 == 0:
            out.append(ET.fromstring(plugin.board_svg(game.view(state, None), seats)))
        if game.result(state) is not None:
            break
        seat = game.to_act(state)[0]
        for event in game.decide(state, seat, rng.choice(game.legal_moves(state, seat)), rng):
            state = game.evolve(state, event)
    return out


@pytest.mark.parametrize("name,players,options", CASES, ids=[f"{n}-{p}-{i}" for i, (n, p, _) in enumerate(CASES)])
def test_every_place_has_a_title_of_its_own_holding_the_words_it_shows(
        name: str, players: int, options: dict[str, object]) -> None:
    for svg in _pictures(name, players, options):
        names: dict[str, set[str]] = {}
        for place in (e for e in svg.iter() if e.get("data-kind") is not None):
            kind = str(place.get("data-kind"))
            title = place.find(f"{SVG}title")
            assert title is not None and (title.text or "").strip(), (name, kind, place.get("data-id"))
            said = title.text.strip()
            assert said not in names.setdefault(kind, set()), (name, kind, said)       # one name, one place
            names[kind].add(said)
            # The words drawn inside the place are part of its name (a symbol alone needs none).
            for label in place.iter(f"{SVG}text"):
                shown = "".join(label.itertext()).strip()
                if label.get("aria-hidden") != "true" and any(ch.isalnum() for ch in shown):
                    assert shown in said, (name, kind, shown, said)
        assert names, name
