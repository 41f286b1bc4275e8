"""License endpoints (administrators): ``GET /license`` (the current license, ``null``
without one), ``GET /licenses``, ``POST /license`` (``license``: a key; 201 with the new
current license, 400 for a key that is not one) and ``DELETE /license/:id`` (204)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.instance import license as licenses
from fakeservice.instance.license_views import license_view
from fakeservice.instance.router import api
from fakeservice.web.context import Context
from fakeservice.web.http import json_response
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import ADMIN


@api.get("/license", auth=ADMIN)
def get_license(ctx: Context) -> Any:
    """The current license (null when the instance has none)."""
    found = licenses.current(ctx.store, ctx.service.clock.start)
    if found is None:
        return json_response(None)
    return license_view(ctx.store, found, ctx.now, with_active=True)


@api.get("/licenses", auth=ADMIN)
def list_licenses(ctx: Context) -> Any:
    """Every license, newest first."""
    found = licenses.all_licenses(ctx.store, ctx.service.clock.start)
    return [license_view(ctx.store, record, ctx.now) for record in reversed(found)]


@api.post(
    "/license",
    params=(Param("license", STR, required=True, description="The license key"),),
    auth=ADMIN,
)
def add_license(ctx: Context) -> Any:
    """Add a license; it becomes the current one."""
    record = licenses.add(ctx.store, ctx.params["license"], ctx.now, ctx.service.clock.start)
    return license_view(ctx.store, record, ctx.now, with_active=True)


@api.delete("/license/:id", params=(Param("id", INT, required=True),), auth=ADMIN)
def delete_license(ctx: Context) -> Any:
    """Delete a license; the newest one left is the current one."""
    if not licenses.delete(ctx.store, ctx.params["id"], ctx.service.clock.start):
        raise NotFound()
    return None
