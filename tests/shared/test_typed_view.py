"""The typed-view check: what fits a view's declared type and what it names when it does not."""
from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

import pytest

from shared.game.typed_view import ViewMismatch, assert_fits


class Seat(TypedDict):
    seat: int
    points: int | None
    hand: NotRequired[dict[str, int]]


class View(TypedDict):
    phase: Literal["play", "over"]
    seats: list[Seat]
    dice: tuple[int, int] | None
    share: float


def _view(**changes: object) -> dict[str, object]:
    view: dict[str, object] = {"phase": "play", "seats": [{"seat": 0, "points": 3, "hand": {"ore": 1}},
                                                          {"seat": 1, "points": None}],
                               "dice": [3, 4], "share": 1}
    view.update(changes)
    return view


def test_a_view_of_its_type_fits() -> None:
    assert_fits(_view(), View)
    assert_fits(_view(dice=None, phase="over", share=0.5), View)


@pytest.mark.parametrize(("changes", "named"), [
    ({"phase": "setup"}, "view.phase"),
    ({"seats": [{"seat": 0}]}, "lacks ['points']"),
    ({"seats": [{"seat": 0, "points": 1, "colour": "red"}]}, "does not declare ['colour']"),
    ({"seats": [{"seat": True, "points": 1}]}, "view.seats[0].seat"),
    ({"seats": [{"seat": 0, "points": 1, "hand": {"ore": "1"}}]}, "view.seats[0].hand['ore']"),
    ({"dice": [3]}, "view.dice"),
    ({"share": "1"}, "view.share"),
])
def test_a_view_that_differs_names_where(changes: dict[str, object], named: str) -> None:
    with pytest.raises(ViewMismatch, match=named.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        assert_fits(_view(**changes), View)


def test_a_missing_key_is_named() -> None:
    view = _view()
    del view["share"]
    with pytest.raises(ViewMismatch, match=r"lacks \['share'\]"):
        assert_fits(view, View)


def test_a_view_is_told_by_its_required_keys_and_a_newer_servers_extra_keys_pass() -> None:
    from shared.game.typed_view import holds_keys_of, required_keys
    assert required_keys(Seat) == {"seat", "points"}          # NotRequired under postponed annotations too
    assert holds_keys_of(_view(), View) and holds_keys_of({**_view(), "added_later": 1}, View)
    partial = _view()
    del partial["dice"]
    assert not holds_keys_of(partial, View) and not holds_keys_of([_view()], View) and not holds_keys_of(None, View)
