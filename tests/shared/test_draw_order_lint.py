"""No random draw in a rules engine lists its choices in a dict's or a set's order.

A state folded from the log and one loaded from a snapshot hold the same dicts in different
orders (snapshots are canonical JSON, sorted keys), and a set's order is the hash's.  A draw
that picks by position among choices listed in such an order draws another item from the same
seed.  tests/shared/test_snapshot_roundtrip.py checks the outcome on random games; this lint
checks the code: every ``rng.sample/choice/choices/shuffle`` argument is ``sorted(...)``, or a
name whose every assignment in the function is ``sorted(...)`` or a list built without iterating
``.items()/.keys()/.values()`` of anything but a module constant (an UPPER_CASE name) or a set.
An assignment whose line says ``# draw-order: <why>`` is taken as ordered (a dict the function
built itself from a constant, in the constant's order).
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DRAWS = {"sample", "choice", "choices", "shuffle"}
DICT_VIEWS = {"items", "keys", "values"}


def _root_name(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _unordered_source(node: ast.expr) -> str | None:
    """Why iterating ``node`` follows a dict's or a set's order, or None."""
    if isinstance(node, (ast.Set, ast.SetComp)):
        return "a set"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("set", "frozenset"):
        return "a set"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DICT_VIEWS:
        root = _root_name(node.func.value)
        if root is None or not root.isupper():
            return f"a dict's .{node.func.attr}()"
    return None


def _why_unordered(value: ast.expr) -> str | None:
    """Why the list ``value`` builds is in a dict's or a set's order, or None."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "sorted":
        return None
    direct = _unordered_source(value)
    if direct:
        return direct
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("list", "tuple"):
        return _why_unordered(value.args[0]) if value.args else None
    for node in ast.walk(value):
        if isinstance(node, ast.comprehension):
            why = _unordered_source(node.iter)
            if why:
                return why
    return None


def _assignments(function: ast.AST, name: str, lines: list[str]) -> list[ast.expr]:
    values: list[ast.expr] = []
    for node in ast.walk(function):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and "# draw-order:" in lines[node.lineno - 1]:
            continue
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            values.append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name \
                and node.value is not None:
            values.append(node.value)
    return values


def unordered_draws(source: str, filename: str) -> list[str]:
    """``file:line: why`` for each draw whose choices come in a dict's or a set's order."""
    tree = ast.parse(source, filename)
    lines = source.splitlines()
    found = []
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for function in functions:
        for call in ast.walk(function):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr in DRAWS and call.args):
                continue
            receiver = call.func.value
            receiver_name = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
            if "rng" not in receiver_name:
                continue
            arg = call.args[0]
            sources = _assignments(function, arg.id, lines) if isinstance(arg, ast.Name) else [arg]
            for value in sources:
                why = _why_unordered(value)
                if why:
                    found.append(f"{filename}:{call.lineno}: rng.{call.func.attr} draws from {why}")
    return found


def test_the_lint_catches_a_draw_in_dict_order() -> None:
    bad = ("def draw(state, rng):\n"
           "    deck = [c for c, n in state['deck'].items() for _ in range(n)]\n"
           "    return rng.sample(deck, 2)\n"
           "def pick(ctx, seen):\n"
           "    return ctx.rng.choice(list({*seen}))\n")
    good = ("def draw(state, rng):\n"
            "    deck = [c for c in sorted(state['deck']) for _ in range(state['deck'][c])]\n"
            "    rng.shuffle(deck)\n"
            "    terrains = [t for t, n in DATA['terrains'].items() for _ in range(n)]\n"
            "    values = list(local.values())   # draw-order: built from a constant\n"
            "    rng.shuffle(values)\n"
            "    return rng.choice(sorted(state['pool'])), rng.sample(terrains, 2)\n")
    assert len(unordered_draws(bad, "bad.py")) == 2
    assert unordered_draws(good, "good.py") == []


def test_no_rules_engine_draws_in_dict_or_set_order() -> None:
    found = []
    for path in sorted(ROOT.glob("services/*/rules/*.py")):
        found += unordered_draws(path.read_text(), str(path.relative_to(ROOT)))
    assert found == []
