"""No module of the platform or of a game reaches into another module's private names.

A leading underscore says "mine": ``shared.play.clocks`` calling ``bots._job_state`` ties the two
modules' insides together, so that neither can change alone.  What one module needs of another is
public (and named so); the import layers themselves are checked by ``lint-imports`` (pyproject.toml).
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OURS = ("shared", "services")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def private(name: str) -> bool:
    """A private name; not gettext's ``_`` (a public convention), nor a dunder."""
    return name.startswith("_") and not name.startswith("__") and name != "_"


def is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def reaches(path: Path) -> list[str]:
    """Where the module at ``path`` uses another of our modules' private names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = module_name(path)
    modules: dict[str, str] = {}          # local name -> our module it stands for
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in OURS:
            for alias in node.names:
                if private(alias.name) and node.module != me:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {node.module} import {alias.name}")
                modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in OURS and alias.asname:
                    modules[alias.asname] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and private(node.attr):
            owner = modules.get(node.value.id)
            if owner is not None and owner != me and is_module(owner):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}.{node.attr} ({owner})")
    return found


def test_no_module_uses_another_modules_private_names() -> None:
    sources = sorted(p for top in OURS for p in (ROOT / top).rglob("*.py"))
    assert len(sources) > 100
    assert [hit for path in sources for hit in reaches(path)] == []


def test_the_check_sees_a_private_import_and_a_private_attribute(tmp_path: Path) -> None:
    spy = ROOT / "shared" / "play" / "_private_names_probe.py"
    spy.write_text("from shared.play import bots\nfrom shared.play.runtime import _SaltSource\n"
                   "bots._job_state\n", encoding="utf-8")
    try:
        hits = reaches(spy)
    finally:
        spy.unlink()
    assert len(hits) == 2 and "_SaltSource" in hits[0] and "bots._job_state" in hits[1]
