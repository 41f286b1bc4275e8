"""System hooks (``/hooks``, administrators): list, get, add, edit, delete, and test
(``POST /hooks/:hook_id`` sends a sample ``project_create`` event and answers it)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.errors import NotFound
from fakeservice.hooks import deliveries as dv
from fakeservice.hooks import models
from fakeservice.hooks.models import SYSTEM, Hook
from fakeservice.hooks.outbox import outbox_of
from fakeservice.hooks.router import api
from fakeservice.hooks.routes import hook_fields, hook_params
from fakeservice.hooks.views import hook_view
from fakeservice.web.context import Context
from fakeservice.web.params import INT, Param
from fakeservice.web.routing import ADMIN

HOOK_ID = Param("hook_id", INT, required=True)
ADDING, EDITING = hook_params(SYSTEM, editing=False), hook_params(SYSTEM, editing=True)


def _find(ctx: Context) -> Hook:
    hook = models.hooks(ctx.store).get(ctx.params["hook_id"])
    if hook is None or hook.kind != SYSTEM:
        raise NotFound()
    return hook


@api.get("/hooks", auth=ADMIN, paginated=True, summary="List system hooks")
def list_system_hooks(ctx: Context) -> Any:
    selection = models.of_owner(ctx.store, SYSTEM, 0)
    return ctx.paginate(selection, lambda h: hook_view(h, ctx.now))


@api.get("/hooks/:hook_id", params=(HOOK_ID,), auth=ADMIN, summary="Get a system hook")
def get_system_hook(ctx: Context) -> Any:
    return hook_view(_find(ctx), ctx.now)


@api.post("/hooks", params=ADDING, auth=ADMIN, summary="Add a system hook")
def add_system_hook(ctx: Context) -> Any:
    fields = hook_fields(ctx, ADDING)
    return hook_view(models.add_hook(ctx.store, SYSTEM, 0, ctx.now, fields), ctx.now)


@api.put("/hooks/:hook_id", params=(HOOK_ID, *EDITING), auth=ADMIN, summary="Edit a system hook")
def edit_system_hook(ctx: Context) -> Any:
    fields = hook_fields(ctx, EDITING)
    return hook_view(models.edit_hook(ctx.store, _find(ctx), fields), ctx.now)


@api.delete("/hooks/:hook_id", params=(HOOK_ID,), auth=ADMIN, summary="Delete a system hook")
def delete_system_hook(ctx: Context) -> Any:
    hook = _find(ctx)
    dv.forget_hook(ctx.store, hook)
    models.hooks(ctx.store).delete(hook)


@api.post(
    "/hooks/:hook_id", params=(HOOK_ID,), auth=ADMIN, status=201, summary="Test a system hook"
)
def test_system_hook(ctx: Context) -> Any:
    hook = _find(ctx)
    data = {
        "event_name": "project_create",
        "name": "Ruby",
        "path": "ruby",
        "project_id": 1,
        "owner_name": "Someone",
        "owner_email": "example@gitlabhq.com",
        "created_at": iso(ctx.now),
    }
    box = outbox_of(ctx.store)
    url = box.service.base_url if box is not None else ctx.base_url
    delivery = dv.queue(
        ctx.store,
        hook,
        "repository_update_hooks",
        data,
        instance_url=url,
        now=ctx.now,
        event="System Hook",
    )
    if box is not None:
        box.send(delivery.id)
    return data
