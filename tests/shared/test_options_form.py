"""The lobby's options form (shared.http.options_form): every option of every game has a field with words
for a person, every value it offers sets a game up, and a field the form hides when it does not
apply is one the rules refuse there."""
from __future__ import annotations

import random
from typing import Any

import pytest

from shared.game.engine import InvalidOptions
from shared.http.options_form import option_fields, unformed
from shared.game.registry import available, plugin
from tests.shared.test_pages import page_config


@pytest.mark.parametrize("name", available())
def test_every_option_has_a_field_with_words_for_a_person(name: str) -> None:
    game_plugin = plugin(name)
    schema = game_plugin.options_schema
    assert unformed(schema) == []
    defaults = game_plugin.game.default_options()
    for option, field in schema._declared_fields.items():
        assert field.metadata.get("label"), f"{name}: option {option} has no label"
        described = next(f for f in option_fields(schema) if f["name"] == option)
        assert described["default"] == defaults[option]
        if described["kind"] == "choice":
            words = field.metadata.get("choices") or {}
            missing = [c["value"] for c in described["choices"] if c["value"] not in words]
            assert not missing, f"{name}: option {option} has no words for {missing}"
        for other, values in (described.get("applies_when") or {}).items():
            prerequisite = next(f for f in option_fields(schema) if f["name"] == other)
            assert set(values) <= {c["value"] for c in prerequisite["choices"]}


def offered_values(field: dict[str, Any]) -> list[Any]:
    """Every value of a field other than its default (a number: its bounds)."""
    if field["kind"] == "choice":
        return [c["value"] for c in field["choices"] if c["value"] != field["default"]]
    if field["kind"] == "bool":
        return [not field["default"]]
    return [v for v in (field["min"], field["max"]) if v is not None and v != field["default"]]


@pytest.mark.parametrize("name", available())
def test_every_value_the_form_offers_sets_a_game_up_and_hidden_ones_are_refused(name: str) -> None:
    game_plugin = plugin(name)
    game, fields = game_plugin.game, option_fields(game_plugin.options_schema)

    def set_up(options: dict[str, Any]) -> None:
        loaded = game_plugin.options_schema().load(options)
        game.setup(game.min_players, {**game.default_options(), **loaded}, random.Random(1))

    tried = 0
    for field in fields:
        applies_when = field.get("applies_when") or {}
        for value in offered_values(field):
            # Where the field shows: with the first value of each option it depends on.
            set_up({**{k: v[0] for k, v in applies_when.items()}, field["name"]: value})
            tried += 1
            # Where the form hides it, the rules refuse it: hiding it loses nothing.
            for other, values in applies_when.items():
                prerequisite = next(f for f in fields if f["name"] == other)
                for elsewhere in (c["value"] for c in prerequisite["choices"] if c["value"] not in values):
                    with pytest.raises(InvalidOptions):
                        set_up({other: elsewhere, field["name"]: value})
    assert tried >= len(fields)


def test_the_form_of_an_elfenland_edition_and_an_elastium_scenario() -> None:
    elfenland = {f["name"]: f for f in option_fields(plugin("elfenland").options_schema)}
    assert elfenland["edition"]["kind"] == "choice" and elfenland["edition"]["label"] == "Edition"
    assert [c["value"] for c in elfenland["edition"]["choices"]] == ["elfenland", "elfengold", "elfenroads"]
    assert elfenland["edition"]["choices"][1]["label"].startswith("Elfengold: ")
    # An integer choice keeps its values as numbers, so the form posts 5, not "5".
    assert [c["value"] for c in elfenland["caravan_cards"]["choices"]] == [3, 5]
    assert elfenland["wizards"] == {"name": "wizards", "kind": "bool", "label": "Wizards", "default": False,
                                    "hint": elfenland["wizards"]["hint"], "applies_when": {"edition": ["elfengold"]}}
    elastium = {f["name"]: f for f in option_fields(plugin("elastium").options_schema)}
    assert len(elastium["scenario"]["choices"]) == 8
    assert elastium["max_rounds"]["kind"] == "number" and elastium["max_rounds"]["integer"]
    assert (elastium["max_rounds"]["min"], elastium["max_rounds"]["max"]) == (1, 200)


def test_the_lobby_page_carries_the_form_the_clock_and_the_bots_time(client: Any) -> None:
    config = page_config(client.get("/").get_data(as_text=True))
    # The toy game's option has no words of its own: its name, as words.
    assert config["options"] == [{"name": "target", "label": "Target", "default": 10, "kind": "number",
                                  "integer": True, "min": 2, "max": 100}]
    assert config["clock"] == {"max_seconds": 7 * 24 * 3600, "fallback_bot": "roller"}
    assert config["budget_ms"] == {"min": 20, "max": 2000, "default": 200}
