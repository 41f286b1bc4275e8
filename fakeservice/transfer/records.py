"""Records as relation items: an attrs record's fields as JSON values (datetimes and
dates as ISO text, lists copied) and back, typed by the record class's annotations.
Reading checks each value's JSON type, so that a malformed item fails (and lands in
``failed_relations``) instead of storing a wrong value."""

from __future__ import annotations

import datetime as dt
import typing
from collections.abc import Iterable
from functools import cache
from typing import Any

import attrs

from fakeservice.core.clock import iso, parse_iso


def encode(record: Any, skip: Iterable[str] = ()) -> dict[str, Any]:
    """The record's fields but ``skip``, as JSON values."""
    left_out = set(skip)
    out: dict[str, Any] = {}
    for field in attrs.fields(type(record)):
        if field.name in left_out:
            continue
        value = getattr(record, field.name)
        if isinstance(value, dt.datetime):
            value = iso(value)
        elif isinstance(value, dt.date):
            value = value.isoformat()
        elif isinstance(value, list | dict):
            value = value.copy()
        out[field.name] = value
    return out


@cache
def _hints(cls: type) -> dict[str, str]:
    return {name: _spelled(hint) for name, hint in typing.get_type_hints(cls).items()}


def _spelled(hint: Any) -> str:
    """``int``, ``datetime.datetime``, ``str | None``, ``list[int]``..."""
    if isinstance(hint, type):
        module = "" if hint.__module__ == "builtins" else hint.__module__ + "."
        return module + hint.__qualname__
    return str(hint)


def _value(hint: str, value: Any, name: str) -> Any:
    if value is None:
        if "None" not in hint:
            raise ValueError(f"{name} can't be null")
        return None
    if "datetime.datetime" in hint:
        return parse_iso(str(value))
    if "datetime.date" in hint:
        return dt.date.fromisoformat(str(value))
    for text, kinds in (("list", list), ("dict", dict), ("str", str), ("bool", bool)):
        if hint.startswith(text) and not isinstance(value, kinds):
            raise TypeError(f"{name} must be a {text}")
    if hint.startswith("int") and (isinstance(value, bool) or not isinstance(value, int)):
        raise TypeError(f"{name} must be an integer")
    return value


def decode(cls: type, item: dict[str, Any], skip: Iterable[str] = ()) -> dict[str, Any]:
    """The field values ``item`` gives for ``cls`` (fields but ``skip``; absent ones left
    to their defaults)."""
    left_out = set(skip)
    hints = _hints(cls)
    return {
        field.name: _value(hints[field.name], item[field.name], field.name)
        for field in attrs.fields(cls)
        if field.name not in left_out and field.name in item
    }
