"""The README stays true: its commands, and every game's options and bots, are the code's."""
from __future__ import annotations

from pathlib import Path

from shared import registry

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_readme_names_every_option_and_bot() -> None:
    for name in registry.available():
        plugin = registry.plugin(name)
        for option in plugin.options_schema._declared_fields:
            assert f"`{option}`" in README, f"README does not document {name} option {option}"
        for bot in plugin.strategies:
            assert f"`{bot}`" in README, f"README does not name {name} bot {bot}"
        assert f"`{name.upper()}_PORT`" in README


def test_readme_set_up_is_the_two_commands_ci_runs() -> None:
    assert "make run" in README and "make test" in README
    ci = (Path(__file__).resolve().parents[2] / ".ci" / "run").read_text()
    assert ci.strip().splitlines()[-1] == "make test"
