"""The editable runner fields as declared parameters (registration, creation, update),
and the changes they make (``paused`` wins over the deprecated ``active``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fakeservice.runners.models import ACCESS_LEVELS
from fakeservice.web.params import BOOL, INT, STR, Array, MutuallyExclusive, Param

EDIT_PARAMS = (
    Param("description", STR),
    Param("active", BOOL, description="deprecated: use paused"),
    Param("paused", BOOL),
    Param("tag_list", Array(STR, comma=True)),
    Param("run_untagged", BOOL),
    Param("locked", BOOL),
    Param("access_level", STR, values=ACCESS_LEVELS),
    Param("maximum_timeout", INT),
    Param("maintenance_note", STR),
)
EDIT_NAMES = tuple(param.name for param in EDIT_PARAMS)
ACTIVE_OR_PAUSED = MutuallyExclusive(("active", "paused"))


def changes(params: Mapping[str, Any]) -> dict[str, Any]:
    """The record changes the given parameters ask for."""
    out = {
        name: params[name]
        for name in EDIT_NAMES
        if name in params and name != "paused" and params[name] is not None
    }
    if params.get("paused") is not None:
        out["active"] = not params["paused"]
    return out
