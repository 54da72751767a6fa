"""Checks a game's view against the ``TypedDict`` that declares it.

A view is plain JSON (it crosses HTTP and the renderers read it), so its type is a ``TypedDict``
in the game's rules package. The renderers trust that type and carry no defensive branches; the
game's tests hold the engine to it by checking every view of many played positions with
:func:`assert_fits`: every required key present, no key the type does not declare, every value
of its declared type.

Understood: ``TypedDict`` (``total``, ``Required``, ``NotRequired``), ``list[T]``,
``dict[K, V]``, ``tuple[...]``, ``Literal[...]``, unions and ``None``, ``int``, ``float``,
``str``, ``bool`` and ``Any``.
"""
from __future__ import annotations

import functools
import types
import typing
from collections.abc import Iterable
from typing import Any, Literal, cast, Union, get_args, get_origin, get_type_hints, is_typeddict


class ViewMismatch(AssertionError):
    """A view differs from its declared type (the message names the path and what differs)."""


def assert_fits(value: Any, declared: Any, path: str = "view") -> None:
    """Raise :class:`ViewMismatch` unless ``value`` is of the type ``declared``."""
    problem = _mismatch(value, declared, path)
    if problem:
        raise ViewMismatch(problem)


def holds_keys_of(value: object, declared: Any) -> bool:
    """Whether ``value`` is an object with every key ``declared`` (a ``TypedDict``) requires: the
    cheap test that it is that view, made before a renderer trusts it (:func:`assert_fits` checks
    every value, at many times a renderer's cost).  Keys the type does not know are let through: a
    newer server's view, read by an older client."""
    return isinstance(value, dict) and required_keys(declared) <= value.keys()


@functools.cache
def required_keys(declared: Any) -> frozenset[str]:
    """The keys a ``TypedDict`` requires."""
    return frozenset(_required_keys(declared, get_type_hints(declared, include_extras=True)))


def _mismatch(value: Any, declared: Any, path: str) -> str | None:
    if declared is Any:
        return None
    if is_typeddict(declared):
        return _typed_dict_mismatch(value, declared, path)
    origin = get_origin(declared)
    if origin in (Union, types.UnionType):
        problems = [_mismatch(value, option, path) for option in get_args(declared)]
        return None if None in problems else f"{path}: {value!r:.80} is none of {declared}"
    if origin is Literal:
        return None if value in get_args(declared) else f"{path}: {value!r:.80} is not one of {get_args(declared)}"
    if origin in (typing.Required, typing.NotRequired):
        return _mismatch(value, get_args(declared)[0], path)
    if origin is list:
        return _items_mismatch(value, list, [get_args(declared)[0]] * _length(value), path)
    if origin is tuple:
        args = get_args(declared)
        shape = [args[0]] * _length(value) if len(args) == 2 and args[1] is Ellipsis else list(args)
        return _items_mismatch(value, (list, tuple), shape, path)
    if origin is dict:
        key_type, value_type = get_args(declared)
        return _dict_mismatch(value, key_type, value_type, path)
    return _plain_mismatch(value, declared, path)


def _length(value: Any) -> int:
    return len(value) if isinstance(value, (list, tuple)) else 0


def _typed_dict_mismatch(value: Any, declared: Any, path: str) -> str | None:
    if not isinstance(value, dict):
        return f"{path}: {value!r:.80} is not an object ({declared.__name__})"
    hints = get_type_hints(declared, include_extras=True)
    missing = sorted(_required_keys(declared, hints) - value.keys())
    if missing:
        return f"{path}: {declared.__name__} lacks {missing}"
    extra = sorted(value.keys() - hints.keys())
    if extra:
        return f"{path}: {declared.__name__} does not declare {extra}"
    for key, item in value.items():
        problem = _mismatch(item, hints[key], f"{path}.{key}")
        if problem:
            return problem
    return None


def _required_keys(declared: Any, hints: dict[str, Any]) -> set[str]:
    # Read from the hints, not ``__required_keys__``: under postponed annotations Python 3.11's
    # TypedDict cannot see ``NotRequired`` inside a string and counts every key as required.
    def required(hint: Any) -> bool:
        origin = get_origin(hint)
        return origin is typing.Required or (origin is not typing.NotRequired and declared.__total__)
    return {key for key, hint in hints.items() if required(hint)}


def _items_mismatch(value: Any, kinds: type | tuple[type, ...], shape: list[Any], path: str) -> str | None:
    items: list[Any] = list(cast(Iterable[Any], value)) if isinstance(value, kinds) else []
    if not isinstance(value, kinds) or len(items) != len(shape):
        return f"{path}: {value!r:.80} is not a list of {len(shape)}"
    for index, (item, declared) in enumerate(zip(items, shape)):
        problem = _mismatch(item, declared, f"{path}[{index}]")
        if problem:
            return problem
    return None


def _dict_mismatch(value: Any, key_type: Any, value_type: Any, path: str) -> str | None:
    if not isinstance(value, dict):
        return f"{path}: {value!r:.80} is not an object"
    for key, item in value.items():
        problem = _mismatch(key, key_type, f"{path} key") or _mismatch(item, value_type, f"{path}[{key!r}]")
        if problem:
            return problem
    return None


def _plain_mismatch(value: Any, declared: Any, path: str) -> str | None:
    if declared is None or declared is type(None):
        return None if value is None else f"{path}: {value!r:.80} is not null"
    if declared is float:
        fits = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif declared is int:
        fits = isinstance(value, int) and not isinstance(value, bool)
    else:
        fits = isinstance(value, declared)
    return None if fits else f"{path}: {value!r:.80} is not {getattr(declared, '__name__', declared)}"
