"""The README stays true: its commands, and every game's options and bots, are the code's."""
from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import Any

from marshmallow import validate

from shared.game import registry

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


# -- the documented values are the code's ---------------------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]
DEPLOY_README = (ROOT / "deploy" / "README.md").read_text()


def _row(table_text: str, first_cell: str) -> list[str]:
    """The cells of the markdown table row whose first cell is ``first_cell``."""
    for line in table_text.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if cells and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no table row {first_cell!r}")


def _literal(text: str) -> Any:
    text = text.strip().strip("`")
    if text in ("true", "false"):
        return text == "true"
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def documented_options(cell: str) -> dict[str, list[Any]]:
    """``"`board`: `beginner` \\| `variable` (note); `x`: true"`` -> {"board": ["beginner", "variable"], "x": [True]}."""
    out = {}
    for entry in re.split(r";\s*(?=`)", cell):
        name, values = re.fullmatch(r"`(\w+)`:\s*(.*)", entry.strip()).groups()
        values = re.sub(r"\s*\([^)]*\)", "", values)            # drop the notes in brackets
        out[name] = [_literal(v) for v in values.split(r"\|")]
    return out


def test_readme_options_defaults_and_values_are_the_schemas() -> None:
    for name in registry.available():
        plugin = registry.plugin(name)
        game = plugin.game
        cells = _row(README, name.capitalize())
        assert cells[1] == f"{game.min_players}–{game.max_players}", (name, cells[1])
        documented = documented_options(cells[2])
        fields = plugin.options_schema._declared_fields
        assert set(documented) == set(fields), name
        for option, values in documented.items():
            field = fields[option]
            assert values[0] == field.load_default, f"README: {name} {option} defaults to {values[0]!r}"
            choices = [c for v in field.validators if isinstance(v, validate.OneOf) for c in v.choices]
            if choices:
                assert sorted(map(str, values)) == sorted(map(str, choices)), f"README: {name} {option} values"
            else:
                assert len(values) == 1, f"README: {name} {option} lists values its schema does not restrict"
        assert [b.strip(" `") for b in cells[3].split(",")] == list(plugin.strategies), f"README: {name} bots"
        ports = _row(README, f"{name.capitalize()} ({game.min_players}–{game.max_players}"
                     + (" players)" if name == "catan" else ")"))
        assert ports[1] == f"http://127.0.0.1:{plugin.port}" and ports[2] == f"`{name.upper()}_PORT`"


# Where the services, workers and sweeper read their settings; make run and make bench override
# some on purpose (documented beside them), so their files are not the defaults' source.
SETTINGS_SOURCES = [p for p in sorted((ROOT / "shared").rglob("*.py"))
                    if p.name not in ("runner.py", "bench.py", "bench_bare.py", "cli.py")]
SETTINGS_SOURCES.append(ROOT / "deploy" / "gunicorn.conf.py")


def code_defaults() -> dict[str, set[str]]:
    """Environment variable -> the literal defaults the code gives it (``os.environ.get("X", d)``,
    ``_int("X", d)``, ``_rate("X", d)``); defaults that are not literals are left out."""
    found: dict[str, set[str]] = {}
    for path in SETTINGS_SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and len(node.args) == 2):
                continue
            func = node.func
            is_get = isinstance(func, ast.Attribute) and func.attr == "get" and ast.unparse(func.value) == "os.environ"
            is_helper = isinstance(func, ast.Name) and func.id in ("_int", "_rate")
            name = node.args[0]
            if (is_get or is_helper) and isinstance(name, ast.Constant) and isinstance(name.value, str):
                try:
                    value = eval(compile(ast.Expression(node.args[1]), str(path), "eval"), {})  # 64 * 1024
                except NameError:
                    continue
                found.setdefault(name.value, set()).add(str(value))
    return found


def test_deploy_readme_defaults_are_the_codes() -> None:
    defaults = code_defaults()
    assert {"REDIS_URL", "MAX_BODY_BYTES", "WEB_THREADS", "BOT_STUCK_SECONDS"} <= set(defaults)
    checked = 0
    for line in DEPLOY_README.split("## Environment", 1)[1].splitlines():
        cells = [c.strip() for c in line.strip().split(" | ")]
        if not line.startswith("| `") or len(cells) < 3:
            continue
        names = re.findall(r"`([A-Z_<>]+)`", cells[0])
        documented = [d.strip() for d in cells[1].split(" / ")]
        for name, default in zip(names, documented):
            literal = re.match(r"`([^`]*)`", default)
            if name not in defaults or literal is None or re.fullmatch(r"[A-Z_]+", literal.group(1)):
                continue            # unset, or defaults to another variable
            assert defaults[name] == {literal.group(1)}, f"deploy/README.md: {name} defaults to {default}"
            checked += 1
    assert checked >= 20


def test_documented_client_retry_defaults_are_the_clients() -> None:
    from shared.client.client import GameClient
    clients = (ROOT / "docs" / "clients.md").read_text()
    params = inspect.signature(GameClient.__init__).parameters
    for name in ("retries", "backoff"):
        documented = re.search(rf"`{name}=([\d.]+)`", clients).group(1)
        assert float(documented) == params[name].default, f"docs/clients.md: {name}={documented}"


def test_the_readme_links_only_to_documents_that_exist() -> None:
    links = re.findall(r"\]\(([^)#]+)\)", README)
    assert "docs/contract.md" in links and "deploy/README.md" in links
    for link in links:
        assert (ROOT / link).is_file(), f"README links to {link}, which does not exist"
