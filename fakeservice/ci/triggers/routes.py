"""Pipeline trigger token endpoints (not in the spec; the real service has them):
``/projects/:id/triggers`` list and create, ``/projects/:id/triggers/:trigger_id`` get,
edit (``description``) and delete (204), all for Maintainers. The token is shown in full
to its owner only; other callers see its first four characters.
"""

from __future__ import annotations

from typing import Any

from fakeservice.ci.access import MAINTAINER, writable_project
from fakeservice.ci.route_common import ID
from fakeservice.ci.router import api
from fakeservice.ci.triggers import models as model
from fakeservice.ci.triggers.models import Trigger
from fakeservice.core.clock import iso
from fakeservice.core.errors import NotFound
from fakeservice.users.models import users
from fakeservice.users.views import user_basic
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import DATETIME, INT, STR, Param
from fakeservice.web.routing import REQUIRED

BASE = "/projects/:id/triggers"
ONE = f"{BASE}/:trigger_id"
TRIGGER_ID = Param("trigger_id", INT, required=True)


def view(ctx: Context, trigger: Trigger) -> dict[str, Any]:
    owner = users(ctx.store).get(trigger.owner_id)
    mine = ctx.user is not None and ctx.user.id == trigger.owner_id
    return {
        "id": trigger.id,
        "token": trigger.token if mine else model.short_token(trigger),
        "description": trigger.description,
        "created_at": iso(trigger.created_at),
        "updated_at": iso(trigger.updated_at),
        "last_used": iso(trigger.last_used),
        "expires_at": iso(trigger.expires_at),
        "owner": user_basic(owner, ctx.base_url) if owner else None,
    }


def _found(ctx: Context) -> Trigger:
    project = writable_project(ctx, MAINTAINER)
    trigger = model.find(ctx.store, project.id, ctx.params["trigger_id"])
    if trigger is None:
        raise NotFound()  # the service's record lookup: ``404 Not found``
    return trigger


@api.get(BASE, params=(ID,), auth=REQUIRED, paginated=True)
def list_triggers(ctx: Context) -> Response:
    """List a project's pipeline trigger tokens (Maintainer)."""
    project = writable_project(ctx, MAINTAINER)
    return ctx.paginate(model.of_project(ctx.store, project.id), lambda t: view(ctx, t))


@api.get(ONE, params=(ID, TRIGGER_ID), auth=REQUIRED)
def get_trigger(ctx: Context) -> Any:
    """Get a pipeline trigger token (Maintainer)."""
    return view(ctx, _found(ctx))


@api.post(
    BASE,
    params=(ID, Param("description", STR, required=True), Param("expires_at", DATETIME)),
    auth=REQUIRED,
)
def create_trigger(ctx: Context) -> Any:
    """Create a trigger token owned by the caller (Maintainer)."""
    project = writable_project(ctx, MAINTAINER)
    made = model.create(
        ctx.store,
        project.id,
        ctx.user.id,
        ctx.now,
        description=ctx.params["description"],
        expires_at=ctx.params.get("expires_at"),
    )
    return view(ctx, made)


@api.put(ONE, params=(ID, TRIGGER_ID, Param("description", STR)), auth=REQUIRED)
def edit_trigger(ctx: Context) -> Any:
    """Change a trigger token's description (Maintainer)."""
    trigger = _found(ctx)
    if ctx.params.get("description") is not None:
        description = ctx.params["description"]
        trigger = model.triggers(ctx.store).update(
            trigger, description=description, updated_at=ctx.now
        )
    return view(ctx, trigger)


@api.delete(ONE, params=(ID, TRIGGER_ID), auth=REQUIRED)
def delete_trigger(ctx: Context) -> None:
    """Delete a trigger token (Maintainer): 204."""
    model.triggers(ctx.store).delete(_found(ctx))
