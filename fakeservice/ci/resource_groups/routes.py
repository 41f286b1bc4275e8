"""Resource group endpoints (not in the spec; the real service has them):
``/projects/:id/resource_groups`` list, ``/projects/:id/resource_groups/:key`` get and
edit (``process_mode``), ``.../current_job`` (the job holding it, or ``null``) and
``.../upcoming_jobs`` (its waiting jobs in the order they will get it). Developers and
up; an unknown key answers ``404 Not found``.
"""

from __future__ import annotations

from typing import Any

from fakeservice.ci.access import DEVELOPER, writable_project
from fakeservice.ci.resource_groups import models as model
from fakeservice.ci.resource_groups.models import PROCESS_MODES, ResourceGroup
from fakeservice.ci.route_common import ID, renderer
from fakeservice.ci.router import api
from fakeservice.core.clock import iso
from fakeservice.core.errors import NotFound
from fakeservice.web.context import Context
from fakeservice.web.http import Response, json_response
from fakeservice.web.params import STR, Param
from fakeservice.web.routing import REQUIRED

BASE = "/projects/:id/resource_groups"
ONE = f"{BASE}/:key"
KEY = Param("key", STR, required=True)


def view(group: ResourceGroup) -> dict[str, Any]:
    return {
        "id": group.id,
        "key": group.key,
        "process_mode": group.process_mode,
        "created_at": iso(group.created_at),
        "updated_at": iso(group.updated_at),
    }


def _found(ctx: Context) -> ResourceGroup:
    project = writable_project(ctx, DEVELOPER)
    group = model.find(ctx.store, project.id, ctx.params["key"])
    if group is None:
        raise NotFound()  # the service's record lookup: ``404 Not found``
    return group


@api.get(BASE, params=(ID,), auth=REQUIRED, paginated=True)
def list_resource_groups(ctx: Context) -> Response:
    """List a project's resource groups (Developer)."""
    project = writable_project(ctx, DEVELOPER)
    return ctx.paginate(model.of_project(ctx.store, project.id), view)


@api.get(ONE, params=(ID, KEY), auth=REQUIRED)
def get_resource_group(ctx: Context) -> Any:
    """Get a resource group by key (Developer)."""
    return view(_found(ctx))


@api.put(ONE, params=(ID, KEY, Param("process_mode", STR, values=PROCESS_MODES)), auth=REQUIRED)
def edit_resource_group(ctx: Context) -> Any:
    """Change a resource group's ``process_mode`` (Developer)."""
    group = _found(ctx)
    mode = ctx.params.get("process_mode")
    if mode is not None:
        group = model.resource_groups(ctx.store).update(
            group, process_mode=mode, updated_at=ctx.now
        )
    return view(group)


@api.get(f"{ONE}/current_job", params=(ID, KEY), auth=REQUIRED)
def current_job(ctx: Context) -> Response:
    """The job holding the group, or ``null`` (Developer)."""
    job = model.current(ctx.store, _found(ctx))
    return json_response(None if job is None else renderer(ctx).job(job))


@api.get(f"{ONE}/upcoming_jobs", params=(ID, KEY), auth=REQUIRED, paginated=True)
def upcoming_jobs(ctx: Context) -> Response:
    """The group's waiting jobs, in the order they will get it (Developer)."""
    group = _found(ctx)
    return ctx.paginate(model.upcoming(ctx.store, group), renderer(ctx).job)
