"""Geo node endpoints (seed 001 §4.10; administrators only, on a self-managed instance
with a paid plan, else 403):

* ``POST /geo_nodes`` (``name`` and ``url`` required; the documented defaults), ``GET
  /geo_nodes``, ``GET /geo_nodes/:id``;
* ``PUT /geo_nodes/:id`` (``name`` and ``url`` required), ``DELETE /geo_nodes/:id`` and
  ``POST /geo_nodes/:id/repair``: only while the current node is the primary (403);
* ``GET /geo_nodes/status`` (and ``/geo_nodes/statuses``, as the main JavaScript client
  asks) and ``GET /geo_nodes/:id/status``.

Unknown nodes are ``404 GeoNode Not Found``.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import Forbidden, NotFound
from fakeservice.geo import models
from fakeservice.geo.status import counts, status_view
from fakeservice.geo.views import node_view
from fakeservice.instance.models import instance, require_self_managed_paid_plan
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, INT, STR, Array, Param
from fakeservice.web.routing import ADMIN, AreaRouter

api = AreaRouter("geo")

NODE_ID = Param("id", INT, required=True, description="The Geo node's ID")
OPTIONAL = (
    Param("primary", BOOL, description="Whether the node is the primary (default false)"),
    Param("enabled", BOOL, description="Whether the node is enabled (default true)"),
    Param("internal_url", STR, description="The URL other nodes use (default: url)"),
    Param("files_max_capacity", INT, description="Concurrent file syncs (default 10)"),
    Param("repos_max_capacity", INT, description="Concurrent repository syncs (default 25)"),
    Param("verification_max_capacity", INT, description="Concurrent checksums (default 100)"),
    Param("container_repositories_max_capacity", INT, description="Default 10"),
    Param("sync_object_storage", BOOL, description="Replicate object storage (default false)"),
    Param(
        "selective_sync_type",
        STR,
        values=(*models.SYNC_TYPES, None),
        description="namespaces, shards or null",
    ),
    Param("selective_sync_shards", Array(STR, comma=True), description="With shards"),
    Param("selective_sync_namespace_ids", Array(INT, comma=True), description="With namespaces"),
    Param("minimum_reverification_interval", INT, description="Days (default 7)"),
)
NAME = Param("name", STR, required=True, description="The node's unique name")
URL = Param("url", STR, required=True, description="The node's external URL")


def _gate(ctx: Context) -> None:
    require_self_managed_paid_plan(ctx.store)


def _current_name(ctx: Context) -> str:
    return instance(ctx.store).geo_node_name


def _render(ctx: Context, node: models.GeoNode) -> dict[str, Any]:
    return node_view(node, ctx.base_url, current=node.name.lower() == _current_name(ctx).lower())


def _node(ctx: Context) -> models.GeoNode:
    _gate(ctx)
    node = models.geo_nodes(ctx.store).get(ctx.params["id"])
    if node is None:
        raise NotFound("GeoNode")
    return node


def _on_primary(ctx: Context) -> None:
    current = models.current_node(ctx.store, _current_name(ctx))
    if current is None or not current.primary:
        raise Forbidden()


def _fields(ctx: Context) -> dict[str, Any]:
    return {key: value for key, value in ctx.params.items() if key != "id"}


@api.post("/geo_nodes", params=(NAME, URL, *OPTIONAL), auth=ADMIN)
def create_geo_node(ctx: Context) -> Any:
    """Add a Geo node."""
    _gate(ctx)
    return _render(ctx, models.create_node(ctx.store, _fields(ctx)))


@api.get("/geo_nodes", auth=ADMIN, paginated=True)
def list_geo_nodes(ctx: Context) -> Any:
    """Every Geo node (by id)."""
    _gate(ctx)
    return ctx.paginate(models.geo_nodes(ctx.store).select(), lambda n: _render(ctx, n))


def _statuses(ctx: Context) -> Any:
    _gate(ctx)
    totals = counts(ctx.store, ctx.now)
    return ctx.paginate(
        models.geo_nodes(ctx.store).select(), lambda n: status_view(n, totals, ctx.now)
    )


@api.get("/geo_nodes/status", auth=ADMIN, paginated=True)
def geo_nodes_status(ctx: Context) -> Any:
    """The status of every Geo node."""
    return _statuses(ctx)


@api.get("/geo_nodes/statuses", auth=ADMIN, paginated=True)
def geo_nodes_statuses(ctx: Context) -> Any:
    """The same, as the main JavaScript client spells it."""
    return _statuses(ctx)


@api.get("/geo_nodes/:id", params=(NODE_ID,), auth=ADMIN)
def get_geo_node(ctx: Context) -> Any:
    """One Geo node."""
    return _render(ctx, _node(ctx))


@api.get("/geo_nodes/:id/status", params=(NODE_ID,), auth=ADMIN)
def geo_node_status(ctx: Context) -> Any:
    """One Geo node's status."""
    node = _node(ctx)
    return status_view(node, counts(ctx.store, ctx.now), ctx.now)


@api.put("/geo_nodes/:id", params=(NODE_ID, NAME, URL, *OPTIONAL), auth=ADMIN)
def edit_geo_node(ctx: Context) -> Any:
    """Edit a Geo node (from the primary only)."""
    node = _node(ctx)
    _on_primary(ctx)
    return _render(ctx, models.update_node(ctx.store, node, _fields(ctx)))


@api.delete("/geo_nodes/:id", params=(NODE_ID,), auth=ADMIN)
def delete_geo_node(ctx: Context) -> Any:
    """Delete a Geo node (from the primary only); 204."""
    node = _node(ctx)
    _on_primary(ctx)
    models.geo_nodes(ctx.store).delete(node)


@api.post("/geo_nodes/:id/repair", params=(NODE_ID,), auth=ADMIN, status=200)
def repair_geo_node(ctx: Context) -> Any:
    """Repair the node's OAuth authentication (from the primary only)."""
    node = _node(ctx)
    _on_primary(ctx)
    node.oauth_repaired += 1
    return _render(ctx, node)
