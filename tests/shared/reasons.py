"""The rule-violation reasons a game's engine can raise, read from its source (for the examples test).

Independent of ``services/<game>/problems.json``, which it checks: every ``IllegalMove`` reason a
client can meet must have an example there.  Reasons are found where they are written: the first
argument of ``IllegalMove(...)`` (and its subclasses), of any helper that passes one of its own
parameters on as the reason (``_fail(reason, detail)``, ``_counts(value, "invalid-trade")``,
followed to a fixpoint), the literals a checker returns as the reason (``_check(placement_error(...))``), and ``(reason, detail)`` pairs in module tables named ``*_REASONS``.
An f-string reason (``f"invalid-{name}"``) becomes a pattern an example must match.
"""
from __future__ import annotations

import ast
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RAISERS = {"IllegalMove": (0, 1), "NotYourTurn": (None, 0), "GameOver": (None, 0)}


@dataclass
class Found:
    reasons: dict[str, str] = field(default_factory=dict)         # literal reason -> a detail ("" if none)
    patterns: dict[str, str] = field(default_factory=dict)        # regex -> the f-string's source
    unresolved: list[str] = field(default_factory=list)           # where a reason could not be read


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _arg(call: ast.Call, position: int | None, name: str) -> ast.expr | None:
    if position is not None and position < len(call.args):
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == name), None)


def _detail(node: ast.expr | None) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "…" for v in node.values)
    return ""


def collect(game: str) -> Found:
    trees = [(p, ast.parse(p.read_text())) for p in sorted((ROOT / "services" / game / "rules").rglob("*.py"))]
    functions = {f.name: f for _, tree in trees for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
    raisers = dict(RAISERS)          # callable name -> (reason position, detail position)
    parent: dict[ast.AST, ast.FunctionDef] = {}
    for function in functions.values():
        for node in ast.walk(function):
            parent.setdefault(node, function)
    changed = True
    while changed:                   # helpers that hand one of their parameters on as the reason
        changed = False
        for _, tree in trees:
            for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call) and _name(n.func) in raisers):
                reason = _arg(call, raisers[_name(call.func)][0], "reason")
                owner = parent.get(call)
                if isinstance(reason, ast.Name) and owner is not None and owner.name not in raisers:
                    params = [a.arg for a in owner.args.args]
                    if reason.id in params:
                        detail = _arg(call, raisers[_name(call.func)][1], "detail")
                        raisers[owner.name] = (params.index(reason.id),
                                               params.index(detail.id) if isinstance(detail, ast.Name)
                                               and detail.id in params else None)
                        changed = True
    found = Found()
    for path, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in raisers:
                reason_at, detail_at = raisers[_name(node.func)]
                if reason_at is None:
                    continue
                reason = _arg(node, reason_at, "reason")
                detail = _detail(_arg(node, detail_at, "detail") if detail_at is not None else None)
                if isinstance(reason, ast.Constant) and isinstance(reason.value, str):
                    if not found.reasons.get(reason.value):
                        found.reasons[reason.value] = detail
                elif isinstance(reason, ast.JoinedStr):
                    regex = "".join(re.escape(v.value) if isinstance(v, ast.Constant) else "[a-z0-9-]+"
                                    for v in reason.values)
                    found.patterns[regex] = ast.unparse(reason)
                elif isinstance(reason, ast.Call) and _name(reason.func) in functions:
                    # A checker that returns the reason (or None): its returned literals.
                    for ret in ast.walk(functions[_name(reason.func)]):
                        if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Constant) \
                                and isinstance(ret.value.value, str) and not found.reasons.get(ret.value.value):
                            found.reasons[ret.value.value] = detail
                elif isinstance(reason, ast.Starred):
                    continue                 # a table's (reason, detail) pair: read with the table below
                elif not (isinstance(reason, ast.Name) and parent.get(node) is not None
                          and parent[node].name in raisers):
                    found.unresolved.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(reason) if reason else '?'}")
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Dict) and any(
                    isinstance(t, ast.Name) and t.id.endswith("_REASONS")
                    for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
                for value in node.value.values:
                    if isinstance(value, ast.Tuple) and len(value.elts) == 2 \
                            and all(isinstance(e, ast.Constant) for e in value.elts):
                        found.reasons[value.elts[0].value] = value.elts[1].value
    return found


def add_missing(game: str) -> list[str]:
    """Add the reasons ``services/<game>/problems.json`` lacks, with the detail text the rules give
    (``…`` where the text is computed: write a real value there).  Returns the reasons added."""
    path = ROOT / "services" / game / "problems.json"
    examples = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    added = sorted(set(collect(game).reasons) - set(examples) - {"not-your-turn", "game-over"})
    for reason in added:
        examples[reason] = collect(game).reasons[reason] or "…"
    path.write_text(json.dumps(dict(sorted(examples.items())), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return added


if __name__ == "__main__":
    for name in sys.argv[1:]:
        for reason in add_missing(name):
            print(f"{name}: added {reason}")
