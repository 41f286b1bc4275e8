"""Control plane endpoints under ``/_fake/`` (no authentication, never under ``/api/v4``).

Every endpoint calls the matching :class:`FakeService` method. Bad input answers 400
``{"error": "<plain message>"}``; an unknown snapshot, fault or rate-limit id answers 404.
"""

from __future__ import annotations

from typing import Any

from fakeservice.control.clocks import clock_info
from fakeservice.control.faults import FaultError
from fakeservice.control.patterns import PatternError
from fakeservice.control.ratelimit import APPLIES_TO, RateLimitError
from fakeservice.control.rulebook import RuleBook
from fakeservice.control.snapshots import SnapshotError
from fakeservice.core.clock import CLOCK_MODES, ClockError
from fakeservice.core.errors import ApiError, ParamError
from fakeservice.web.context import Context
from fakeservice.web.http import json_response
from fakeservice.web.params import (
    ANY,
    BOOL,
    DATETIME,
    FLOAT,
    HASH,
    INT,
    STR,
    AtLeastOne,
    MutuallyExclusive,
    Param,
)
from fakeservice.web.routing import NO_AUTH, AreaRouter

api = AreaRouter("control")

CONTROL: dict[str, Any] = {"prefix": "", "auth": NO_AUTH}


def bad(message: str) -> ApiError:
    return ApiError({"error": message}, status=400)


def missing(message: str) -> ApiError:
    return ApiError({"error": message}, status=404)


# -- state ---------------------------------------------------------------------------------
@api.post("/_fake/reset", status=200, **CONTROL)
def reset(ctx: Context) -> Any:
    """Back to the state right after the scenario was loaded; empty the journal."""
    ctx.service.reset()
    return {"reset": True, "clock": clock_info(ctx.service.clock)}


@api.post("/_fake/snapshot", params=(Param("name", STR),), **CONTROL)
def take_snapshot(ctx: Context) -> Any:
    """Keep the current state in memory; answers its id."""
    try:
        return {"id": ctx.service.save_snapshot(ctx.get("name"))}
    except SnapshotError as exc:
        raise bad(str(exc)) from exc


@api.get("/_fake/snapshots", **CONTROL)
def list_snapshots(ctx: Context) -> Any:
    """The ids of the snapshots kept in memory, oldest first."""
    return {"ids": ctx.service.control.snapshots.ids()}


@api.post(
    "/_fake/restore",
    params=(Param("id", STR, required=True, allow_blank=False),),
    status=200,
    **CONTROL,
)
def restore(ctx: Context) -> Any:
    """Restore a snapshot taken with ``POST /_fake/snapshot``."""
    try:
        ctx.service.restore(ctx.get("id"))
    except SnapshotError as exc:
        raise missing(str(exc)) from exc
    return {"restored": ctx.get("id"), "clock": clock_info(ctx.service.clock)}


@api.delete("/_fake/snapshots/:id", params=(Param("id", STR, required=True),), **CONTROL)
def drop_snapshot(ctx: Context) -> Any:
    """Forget one snapshot."""
    try:
        ctx.service.control.snapshots.drop(ctx.get("id"))
    except SnapshotError as exc:
        raise missing(str(exc)) from exc
    return None


@api.post(
    "/_fake/scenario",
    params=(Param("yaml", STR), Param("scenario", HASH), Param("replace", BOOL, default=True)),
    constraints=(MutuallyExclusive(("yaml", "scenario")),),
    **CONTROL,
)
def load_scenario(ctx: Context) -> Any:
    """Load a scenario (YAML text or JSON); by default it replaces the whole state."""
    from fakeservice.scenarios.loader import ScenarioError
    from fakeservice.scenarios.source import from_text

    for name in ("yaml", "scenario"):
        if ctx.given(name) and ctx.get(name) is None:
            raise ParamError(f"{name} is empty")
    try:
        source: Any
        if ctx.given("yaml"):
            source = from_text(ctx.get("yaml"), name="<request>")
        elif ctx.given("scenario"):
            source = ctx.get("scenario")
        else:
            source = _scenario_from_body(ctx)
        ctx.service.load_scenario(source, replace=ctx.get("replace"))
    except ScenarioError as exc:
        raise ApiError(
            {"error": "the scenario is invalid", "problems": exc.as_json()}, status=400
        ) from exc
    return {"loaded": True, "replace": ctx.get("replace"), "clock": clock_info(ctx.service.clock)}


def _scenario_from_body(ctx: Context) -> Any:
    from fakeservice.scenarios.source import from_text

    ctype = (ctx.request.header("content-type") or "").lower()
    if "json" in ctype:
        data = {k: v for k, v in ctx.raw.items() if k != "replace"}
        if not data:
            raise bad("send the scenario as a JSON object, or as YAML text")
        return data
    body = ctx.request.body
    if not body.strip():
        raise bad("send the scenario as YAML text, as JSON, or in a yaml or scenario parameter")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise bad("the scenario text is not valid UTF-8") from exc
    return from_text(text, name="<request>")


# -- clock ---------------------------------------------------------------------------------
@api.get("/_fake/clock", **CONTROL)
def get_clock(ctx: Context) -> Any:
    """The service's time and clock mode."""
    return clock_info(ctx.service.clock)


@api.post(
    "/_fake/clock",
    params=(
        Param("seconds", FLOAT, allow_blank=False),
        Param("to", DATETIME, allow_blank=False),
        Param("mode", STR, values=CLOCK_MODES),
    ),
    constraints=(
        MutuallyExclusive(("seconds", "to")),
        AtLeastOne(("seconds", "to", "mode")),
    ),
    status=200,
    **CONTROL,
)
def move_clock(ctx: Context) -> Any:
    """Switch the mode, advance by ``seconds`` or set the time ``to`` an ISO 8601 instant."""
    service = ctx.service
    try:
        if ctx.given("mode"):
            service.set_clock_mode(ctx.get("mode"))
        if ctx.given("seconds"):
            service.advance_clock(ctx.get("seconds"))
        elif ctx.given("to"):
            service.set_clock(ctx.get("to"))
    except ClockError as exc:
        raise bad(str(exc)) from exc
    return clock_info(service.clock)


# -- journal -------------------------------------------------------------------------------
@api.get(
    "/_fake/journal",
    params=(
        Param("method", STR),
        Param("path", STR),
        Param("user", STR),
        Param("status", INT),
    ),
    **CONTROL,
)
def get_journal(ctx: Context) -> Any:
    """Requests answered, oldest first, filtered by method, path glob, user and status.

    The headers ``X-Journal-Capacity`` and ``X-Journal-Dropped`` tell how many entries
    the ring keeps and how many it forgot since it was last emptied."""
    try:
        found = ctx.service.journal.entries(
            ctx.get("method"), ctx.get("path"), ctx.get("user"), ctx.get("status")
        )
    except PatternError as exc:
        raise bad(str(exc)) from exc
    journal = ctx.service.journal
    kept = [
        ("X-Journal-Capacity", str(journal.capacity)),
        ("X-Journal-Dropped", str(journal.dropped)),
    ]
    body = {"count": len(found), "entries": [entry.to_json() for entry in found]}
    return json_response(body, headers=kept)


@api.delete("/_fake/journal", **CONTROL)
def clear_journal(ctx: Context) -> Any:
    """Empty the journal."""
    ctx.service.journal.clear()
    return None


# -- rules (faults and rate limits) ---------------------------------------------------------
def _add_rule(ctx: Context, book: RuleBook[Any], error: type[ValueError]) -> Any:
    """Add a rule from the request's parameters; 400 with the book's plain message."""
    try:
        rule = book.add(**ctx.params)
    except (error, PatternError) as exc:
        raise bad(str(exc)) from exc
    return rule.to_json()


def _remove_rule(book: RuleBook[Any], rule_id: int, what: str) -> None:
    """Remove one rule; 404 ``unknown <what> <id>`` when there is none."""
    if not book.remove(rule_id):
        raise missing(f"unknown {what} {rule_id}")


# -- faults --------------------------------------------------------------------------------
FAULT_PARAMS = (
    Param("path", STR, required=True, allow_blank=False),
    Param("method", STR, default="*"),
    Param("status", INT),
    Param("delay", FLOAT, default=0.0),
    Param("drop", BOOL, default=False),
    Param("times", INT),
    Param("probability", FLOAT, default=1.0),
    Param("seed", INT, default=0),
    Param("skip", INT, default=0),
    Param("body", ANY),
    Param("headers", HASH),
    Param("retry_after", INT),
)


@api.post("/_fake/faults", params=FAULT_PARAMS, **CONTROL)
def add_fault(ctx: Context) -> Any:
    """Inject a fault (status, delay or dropped connection) into matching requests."""
    return _add_rule(ctx, ctx.service.faults, FaultError)


@api.get("/_fake/faults", **CONTROL)
def list_faults(ctx: Context) -> Any:
    """The fault rules, with how often each saw a request and fired."""
    return [rule.to_json() for rule in ctx.service.faults.rules]


@api.delete("/_fake/faults", **CONTROL)
def clear_faults(ctx: Context) -> Any:
    """Remove every fault rule."""
    ctx.service.faults.clear()
    return None


@api.delete("/_fake/faults/:fault_id", params=(Param("fault_id", INT, required=True),), **CONTROL)
def remove_fault(ctx: Context) -> Any:
    """Remove one fault rule."""
    _remove_rule(ctx.service.faults, ctx.get("fault_id"), "fault")
    return None


# -- rate limits ---------------------------------------------------------------------------
@api.post(
    "/_fake/rate_limits",
    params=(
        Param("limit", INT, required=True),
        Param("period", INT, default=60),
        Param("name", STR),
        Param("method", STR, default="*"),
        Param("path", STR, default="/api/v4/**"),
        Param("applies_to", STR, default="all", values=APPLIES_TO),
    ),
    **CONTROL,
)
def add_rate_limit(ctx: Context) -> Any:
    """Throttle matching requests: ``limit`` per ``period`` seconds per requester."""
    return _add_rule(ctx, ctx.service.rate_limits, RateLimitError)


@api.get("/_fake/rate_limits", **CONTROL)
def list_rate_limits(ctx: Context) -> Any:
    """The rate-limit rules."""
    return [rule.to_json() for rule in ctx.service.rate_limits.rules]


@api.delete("/_fake/rate_limits", **CONTROL)
def clear_rate_limits(ctx: Context) -> Any:
    """Remove every rate-limit rule."""
    ctx.service.rate_limits.clear()
    return None


@api.delete(
    "/_fake/rate_limits/:rule_id", params=(Param("rule_id", INT, required=True),), **CONTROL
)
def remove_rate_limit(ctx: Context) -> Any:
    """Remove one rate-limit rule."""
    _remove_rule(ctx.service.rate_limits, ctx.get("rule_id"), "rate limit")
    return None
