"""Infer a JSON Schema from JSON values, and merge schemas of several values.

``shape(value)`` describes one value; ``merge(a, b)`` describes anything either
describes: types are united (``integer`` with ``number`` is ``number``), object
properties are merged key by key and a key is required only when every object had it,
array items are merged. :func:`finish` turns the working form into the published one
(a single type as a string, a value only ever seen as ``null`` as "anything").
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]
_TYPE_ORDER = ("object", "array", "string", "integer", "number", "boolean", "null")


# Checked in order: a bool is an int to Python, so it comes first.
_PY_TYPES: tuple[tuple[type | None, str], ...] = (
    (type(None), "null"),
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
)


def _type_of(value: Any) -> str:
    for py_type, name in _PY_TYPES:
        if isinstance(value, py_type):  # type: ignore[arg-type]
            return name
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def shape(value: Any) -> Schema:
    """The schema of one JSON value (working form: ``type`` is always a list)."""
    kind = _type_of(value)
    out: Schema = {"type": [kind]}
    if kind == "object":
        out["properties"] = {key: shape(item) for key, item in value.items()}
        out["required"] = sorted(value)
    elif kind == "array":
        items: Schema | None = None
        for item in value:
            items = shape(item) if items is None else merge(items, shape(item))
        if items is not None:
            out["items"] = items
    return out


def _types(a: list[str], b: list[str]) -> list[str]:
    kinds = set(a) | set(b)
    if "number" in kinds:
        kinds.discard("integer")
    return [kind for kind in _TYPE_ORDER if kind in kinds]


def merge(a: Schema, b: Schema) -> Schema:
    """A schema of every value either ``a`` or ``b`` describes (working form)."""
    out: Schema = {"type": _types(a["type"], b["type"])}
    a_obj, b_obj = "object" in a["type"], "object" in b["type"]
    if a_obj or b_obj:
        props_a: dict[str, Schema] = a.get("properties", {})
        props_b: dict[str, Schema] = b.get("properties", {})
        props = dict(props_a)
        for key, sub in props_b.items():
            props[key] = merge(props[key], sub) if key in props else sub
        out["properties"] = props
        if a_obj and b_obj:
            out["required"] = sorted(set(a.get("required", [])) & set(b.get("required", [])))
        else:
            out["required"] = list((a if a_obj else b).get("required", []))
    if "items" in a or "items" in b:
        if "items" in a and "items" in b:
            out["items"] = merge(a["items"], b["items"])
        else:
            out["items"] = a.get("items") or b.get("items")
    return out


def finish(schema: Schema) -> Schema:
    """The published form: one type as a string, a ``null``-only value as ``{}``, keys
    sorted (properties by name) so the document is stable."""
    kinds: list[str] = schema["type"]
    if kinds == ["null"]:
        return {}
    out: Schema = {"type": kinds[0] if len(kinds) == 1 else kinds}
    if "properties" in schema:
        out["properties"] = {
            key: finish(schema["properties"][key]) for key in sorted(schema["properties"])
        }
        if schema.get("required"):
            out["required"] = sorted(schema["required"])
    if "items" in schema:
        out["items"] = finish(schema["items"])
    return out


def unfinish(schema: Schema) -> Schema:
    """Back from the published form to the working form (to merge more values in)."""
    if not schema:
        return {"type": ["null"]}
    kind = schema["type"]
    out: Schema = {"type": [kind] if isinstance(kind, str) else list(kind)}
    if "properties" in schema:
        out["properties"] = {key: unfinish(sub) for key, sub in schema["properties"].items()}
        out["required"] = list(schema.get("required", []))
    if "items" in schema:
        out["items"] = unfinish(schema["items"])
    return out
