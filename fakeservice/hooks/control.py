"""The hook deliveries journal on the control plane (no auth):

* ``GET /_fake/hooks/deliveries`` (``hook_id``, ``state``; paginated, oldest first):
  each delivery with its hook, trigger, URL, request headers and body, state
  (``queued``, ``sending``, ``delivered``, ``failed``), response status, headers and
  body or the error, and its duration on the service clock;
* ``POST /_fake/hooks/deliveries/fire`` (optional ``id``): in the ``manual`` background
  mode, send the queued deliveries (or one) once the request is over; answers the ids
  released.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.hooks import deliveries as dv
from fakeservice.hooks.outbox import outbox_of
from fakeservice.hooks.router import api
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import NO_AUTH

CONTROL: dict[str, Any] = {"prefix": "", "auth": NO_AUTH}
STATES = ("queued", "sending", "delivered", "failed")


def delivery_view(record: dv.Delivery) -> dict[str, Any]:
    return {
        "id": record.id,
        "hook_id": record.hook_id,
        "hook_kind": record.hook_kind,
        "owner_id": record.owner_id,
        "trigger": record.trigger,
        "event": next(
            (v for k, v in record.request_headers.items() if k.lower().endswith("-event")), None
        ),
        "url": record.url,
        "request_headers": record.request_headers,
        "request_body": record.request_data(),
        "state": record.state,
        "response_status": record.response_status,
        "response_headers": record.response_headers,
        "response_body": record.response_body,
        "error": record.error,
        "execution_duration": record.execution_duration,
        "created_at": iso(record.created_at),
        "delivered_at": iso(record.delivered_at),
    }


@api.get(
    "/_fake/hooks/deliveries",
    params=(Param("hook_id", INT), Param("state", STR, values=STATES)),
    paginated=True,
    summary="The journal of hook deliveries",
    **CONTROL,
)
def list_deliveries(ctx: Context) -> Any:
    table = dv.deliveries(ctx.store)
    hook_id, state = ctx.params.get("hook_id"), ctx.params.get("state")
    selection = table.select("hook", [hook_id]) if hook_id is not None else table.select()
    if state is not None:
        selection = selection.filter(lambda d: d.state == state)
    return ctx.paginate(selection, delivery_view)


@api.post(
    "/_fake/hooks/deliveries/fire",
    params=(Param("id", INT),),
    status=200,
    summary="Send queued hook deliveries (manual background mode)",
    **CONTROL,
)
def fire_deliveries(ctx: Context) -> Any:
    wanted = ctx.params.get("id")
    queued = [d.id for d in dv.deliveries(ctx.store).select("queued", [dv.QUEUED])]
    released = [i for i in queued if wanted is None or i == wanted]
    box = outbox_of(ctx.store)
    if box is not None:
        for delivery_id in released:
            box.release(delivery_id)
    return {"released": released}
