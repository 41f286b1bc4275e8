"""Control-plane endpoints that drive a long-running operation's machine one event at a
time (no auth), declared once per kind with :func:`machine_control`:

* ``GET /_fake/<kind>/:record_id``: the record (its API view), ``machine_state``,
  ``due_at`` and the ``events`` its machine allows now;
* ``POST /_fake/<kind>/:record_id/fire`` with ``event``: 200 with the same, 409
  ``{"error": ...}`` when the machine does not allow it, 404 for an unknown record.

After an event fired by hand, the background carries on in ``timed`` mode only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.errors import IllegalTransition
from fakeservice.core.machine import Machine
from fakeservice.core.store import Store
from fakeservice.instance.background import replan
from fakeservice.web.context import Context
from fakeservice.web.http import json_response
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import NO_AUTH, AreaRouter

Fire = Callable[[Store, Any, str, dt.datetime], Any]
Render = Callable[[Context, Any], dict[str, Any]]
CONTROL: dict[str, Any] = {"prefix": "", "auth": NO_AUTH, "status": 200}
RECORD_ID = Param("record_id", INT, required=True)


def machine_control(
    api: AreaRouter, kind: str, table: str, machine: Machine, fire: Fire, render: Render
) -> None:
    """Declare on ``api`` the two control endpoints of ``kind`` (records of ``table``)."""
    path = f"/_fake/{kind}/:record_id"
    attribute = machine.attribute

    def state(ctx: Context, record: Any) -> dict[str, Any]:
        return {
            **render(ctx, record),
            "machine_state": getattr(record, attribute),
            "due_at": iso(record.due_at),
            "events": [event for event in machine.events() if machine.can(record, event)],
        }

    def found(ctx: Context) -> Any:
        return ctx.store.tables[table].get(ctx.params["record_id"])

    @api.get(path, params=(RECORD_ID,), summary=f"A {kind} record and its machine", **CONTROL)
    def control_state(ctx: Context) -> Any:
        record = found(ctx)
        if record is None:
            return json_response({"error": f"{kind} record not found"}, 404)
        return state(ctx, record)

    @api.post(
        path + "/fire",
        params=(RECORD_ID, Param("event", STR, required=True, values=machine.events())),
        summary=f"Fire one event of the {machine.name} machine",
        **CONTROL,
    )
    def control_fire(ctx: Context) -> Any:
        record = found(ctx)
        if record is None:
            return json_response({"error": f"{kind} record not found"}, 404)
        try:
            fire(ctx.store, record, ctx.params["event"], ctx.now)
        except IllegalTransition as error:
            return json_response({"error": str(error)}, 409)
        replan(ctx.store, table, record, ctx.now)
        return state(ctx, record)
