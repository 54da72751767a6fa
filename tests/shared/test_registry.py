"""A game that fails to import fails the suite: the registry never leaves it out quietly."""
from __future__ import annotations

import pytest

from shared.game import registry


@pytest.mark.parametrize("name", list(registry.SERVICES))
def test_every_listed_game_imports_and_is_available(name: str) -> None:
    assert registry.plugin(name).game.name == name
    assert name in registry.available()


def test_a_game_that_does_not_import_stays_listed_and_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.SERVICES, "broken", "services.no_such_game.api")
    assert "broken" in registry.available()          # tests parametrised on the list still run it...
    with pytest.raises(ImportError):
        registry.plugin("broken")                     # ...and fail there, naming the import error
