"""Control-plane endpoints for storage moves (no auth), to drive the move machine one
event at a time:

* ``GET /_fake/storage_moves/:move_id``: the move (its machine state and due time);
* ``POST /_fake/storage_moves/:move_id/fire`` with ``event`` (``schedule``, ``start``,
  ``finish_replication``, ``finish_cleanup``, ``fail``): 200 with the move, 409
  ``{"error": ...}`` when the machine does not allow it, 404 for an unknown move.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.errors import IllegalTransition
from fakeservice.instance.background import replan
from fakeservice.storage_moves import models
from fakeservice.storage_moves.machines import MOVE_MACHINE
from fakeservice.storage_moves.views import move_view
from fakeservice.web.context import Context
from fakeservice.web.http import json_response
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import NO_AUTH, api

CONTROL: dict[str, Any] = {"prefix": "", "auth": NO_AUTH, "status": 200}
MOVE_ID = Param("move_id", INT, required=True)


def _state(ctx: Context, move: models.StorageMove) -> dict[str, Any]:
    return {
        **move_view(ctx.store, move, ctx.base_url),
        "kind": move.kind,
        "machine_state": move.state,
        "due_at": iso(move.due_at),
        "events": [e for e in MOVE_MACHINE.events() if MOVE_MACHINE.can(move, e)],
    }


def _move(ctx: Context) -> models.StorageMove | None:
    return models.moves(ctx.store).get(ctx.params["move_id"])


@api.get("/_fake/storage_moves/:move_id", params=(MOVE_ID,), **CONTROL)
def control_move(ctx: Context) -> Any:
    """A storage move with its machine state, due time and allowed events."""
    move = _move(ctx)
    if move is None:
        return json_response({"error": "storage move not found"}, 404)
    return _state(ctx, move)


@api.post(
    "/_fake/storage_moves/:move_id/fire",
    params=(MOVE_ID, Param("event", STR, required=True, values=MOVE_MACHINE.events())),
    **CONTROL,
)
def fire_move_event(ctx: Context) -> Any:
    """Fire one event of the move machine."""
    move = _move(ctx)
    if move is None:
        return json_response({"error": "storage move not found"}, 404)
    try:
        models.fire(ctx.store, move, ctx.params["event"], ctx.now)
    except IllegalTransition as error:
        return json_response({"error": str(error)}, 409)
    replan(ctx.store, models.TABLE, move, ctx.now)
    return _state(ctx, move)
