"""The filters of runner lists (``scope``, ``type``, ``status``, ``paused``, ``tag_list``,
``version_prefix``), declared once and applied as one predicate."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

from fakeservice.runners.models import INSTANCE, RUNNER_TYPES, STATUSES, Runner
from fakeservice.web.params import BOOL, STR, Array, Param

# the deprecated ``active`` / ``paused`` statuses stay accepted
LIST_STATUSES = ("active", "paused", *STATUSES)
LEGACY_TYPES = ("specific", "shared")

TYPE = Param(
    "type", STR, values=RUNNER_TYPES, description="instance_type, group_type, project_type"
)
FILTERS = (
    Param("status", STR, values=LIST_STATUSES),
    Param("paused", BOOL),
    Param("tag_list", Array(STR, comma=True), description="runners with every tag"),
    Param("version_prefix", STR),
)
OWNED_PARAMS = (Param("scope", STR, values=LIST_STATUSES), TYPE, *FILTERS)
ALL_PARAMS = (
    Param("scope", STR, values=(*LIST_STATUSES, *LEGACY_TYPES, *RUNNER_TYPES)),
    TYPE,
    *FILTERS,
)


def _in(runner: Runner, value: str, now: dt.datetime) -> bool:
    if value == "active":
        return runner.active
    if value == "paused":
        return not runner.active
    if value == "specific":
        return runner.runner_type != INSTANCE
    if value == "shared":
        return runner.runner_type == INSTANCE
    if value in RUNNER_TYPES:
        return runner.runner_type == value
    return runner.status(now) == value


def predicate(params: Mapping[str, Any], now: dt.datetime) -> Callable[[Runner], bool] | None:
    """One predicate for the filters given (None when there is none)."""
    checks: list[Callable[[Runner], bool]] = []
    for name in ("scope", "status", "type"):
        value = params.get(name)
        if value:
            checks.append(lambda r, v=value: _in(r, v, now))
    if "paused" in params:
        paused = params["paused"]
        checks.append(lambda r: r.active != paused)
    tags = params.get("tag_list")
    if tags:
        wanted = {tag.strip() for tag in tags}
        checks.append(lambda r: wanted <= set(r.tag_list))
    prefix = params.get("version_prefix")
    if prefix:
        checks.append(lambda r: (r.version or "").startswith(prefix))
    if not checks:
        return None
    return lambda runner: all(check(runner) for check in checks)
