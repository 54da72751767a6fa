"""What the lobby's form offers for a game's options, read from the game's options schema.

Each option becomes one field: a choice among the values its ``OneOf`` allows (a select), a yes or
no (a checkbox), or a number between its ``Range``'s bounds.  The words a person reads come from
the option field's metadata in the game's ``api.py``, next to its description for the API:

- ``label``: what the option is, in a few words (a checkbox's label names what ticking it turns on);
- ``hint``: a sentence more, when the label alone would leave a player guessing;
- ``choices``: each allowed value's words, by value;
- ``applies_when``: ``{other option: [values]}``, the option only means something with those
  (Elfenland's wizards are an Elfengold variant); the form leaves it out otherwise.

These keys are not OpenAPI keywords, so they stay out of the API document.
"""
from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate


def option_fields(schema: type[Schema]) -> list[dict[str, Any]]:
    """The form's fields for ``schema``, in its declaration order: ``{name, kind, label, default}``
    and, by kind, ``choices`` ([{value, label}]) or ``min``/``max``/``integer``; ``hint`` and
    ``applies_when`` when given.
    A field of no kind the form knows (a list, a nested object) is left out: the game's default
    holds for it (see :func:`unformed`)."""
    out = []
    for name, field in schema._declared_fields.items():
        described = _describe(name, field)
        if described is not None:
            out.append(described)
    return out


def unformed(schema: type[Schema]) -> list[str]:
    """The options the form cannot offer (a test keeps this empty for every game)."""
    offered = {f["name"] for f in option_fields(schema)}
    return [name for name in schema._declared_fields if name not in offered]


def _describe(name: str, field: fields.Field) -> dict[str, Any] | None:
    meta = field.metadata
    default = field.load_default if field.load_default is not None and not callable(field.load_default) else None
    base: dict[str, Any] = {"name": name, "label": meta.get("label") or _words(name), "default": default}
    if meta.get("hint"):
        base["hint"] = meta["hint"]
    if meta.get("applies_when"):
        base["applies_when"] = {k: list(v) for k, v in meta["applies_when"].items()}
    one_of = next((v for v in field.validators if isinstance(v, validate.OneOf)), None)
    if one_of is not None and isinstance(field, (fields.String, fields.Integer)):
        words = meta.get("choices") or {}
        return {**base, "kind": "choice",
                "choices": [{"value": value, "label": words.get(value) or _words(str(value))}
                            for value in one_of.choices]}
    if isinstance(field, fields.Boolean):
        return {**base, "kind": "bool", "default": bool(default)}
    if isinstance(field, fields.Number):
        bounds = next((v for v in field.validators if isinstance(v, validate.Range)), None)
        return {**base, "kind": "number", "integer": isinstance(field, fields.Integer),
                "min": bounds.min if bounds else None, "max": bounds.max if bounds else None}
    return None


def _words(name: str) -> str:
    """A name as words, for an option or value the game gave no words for: ``max_rounds`` -> ``Max rounds``."""
    text = name.replace("_", " ").replace("-", " ")
    return text[:1].upper() + text[1:]
