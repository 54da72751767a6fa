"""The plugin's schemas: option defaults, move shapes, unknown fields rejected."""
from __future__ import annotations

import pytest
from marshmallow import ValidationError

from services.elfenland.api import PLUGIN
from services.elfenland.rules import DEFAULT_OPTIONS
from shared.game.testing import play_random_game


def test_options_default_to_the_engine_defaults() -> None:
    assert PLUGIN.options_schema().load({}) == DEFAULT_OPTIONS
    with pytest.raises(ValidationError):
        PLUGIN.options_schema().load({"edition": "elfenwars"})
    with pytest.raises(ValidationError):
        PLUGIN.options_schema().load({"caravan_cards": 4})


def test_move_schemas_reject_unknown_fields_and_bad_values() -> None:
    with pytest.raises(ValidationError):
        PLUGIN.move_schemas["travel"]().load({"road": 3, "cards": ["raft"], "extra": 1})
    with pytest.raises(ValidationError):
        PLUGIN.move_schemas["travel"]().load({"road": 48, "cards": ["raft"]})
    with pytest.raises(ValidationError):
        PLUGIN.move_schemas["pass"]().load({"amount": 1})
    assert PLUGIN.move_schemas["fly"]().load({"town": "Jxara"}) == {"town": "Jxara"}


def test_every_listed_legal_move_fits_its_schema() -> None:
    for options in ({"edition": "elfenland"}, {"edition": "elfengold", "wizards": True}):
        played = play_random_game(PLUGIN.game, 3, options, seed=11, max_moves=400, check_every=50)
        for _, move, _ in played.moves:
            fields = {k: v for k, v in move.items() if k != "type"}
            PLUGIN.move_schemas[move["type"]]().load(fields)


def test_plugin_port_and_strategies() -> None:
    assert PLUGIN.port == 8003 and "random" in PLUGIN.strategies


def test_an_option_the_edition_does_not_have_is_refused() -> None:
    import random

    from shared.game.engine import InvalidOptions
    game = PLUGIN.game
    with pytest.raises(InvalidOptions, match="no caravans"):
        game.setup(3, {**game.default_options(), "edition": "elfenroads", "caravan_cards": 5}, random.Random(1))
    assert game.setup(3, {**game.default_options(), "edition": "elfenroads"}, random.Random(1))
