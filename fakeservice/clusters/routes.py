"""Instance clusters endpoints (seed 000 §4.6): list, get, add, edit and remove. All need an
administrator (401 without credentials, 403 for other users). The operations here serve
the project and group clusters too (see :mod:`fakeservice.clusters.owned`).

``platform_kubernetes_attributes`` arrives as a hash: form keys
``platform_kubernetes_attributes[api_url]=...`` or a JSON object. Its keys are checked
here with the service's labels (``platform_kubernetes_attributes[api_url] is missing``),
after the declared top-level parameters. On edit, ``authorization_type`` is not accepted
(ignored, as the real service's declared parameters drop it) and a blank token keeps the
current one.
"""

from __future__ import annotations

from typing import Any

import attrs

from fakeservice.clusters import models
from fakeservice.clusters.views import cluster_detail, cluster_view
from fakeservice.core.errors import ParamError, ValidationFailed, or_404
from fakeservice.members.access import can_read_project
from fakeservice.projects.models import find_project
from fakeservice.web.conditional import require_unmodified_since
from fakeservice.web.context import Context
from fakeservice.web.openapi import param_schema
from fakeservice.web.params import BOOL, INT, STR, Param, ParamType, validate
from fakeservice.web.routing import ADMIN, AreaRouter

api = AreaRouter("clusters")

KUBE = "platform_kubernetes_attributes"
CLUSTER_ID = Param("cluster_id", INT, required=True, description="The cluster ID")


@attrs.frozen
class NestedHash(ParamType):
    """A hash parameter whose keys the handler checks (so each message names its key).

    Coercion accepts any value; :func:`nested_params` reports a missing or malformed hash
    and its keys as the real service does.
    """

    fields: tuple[Param, ...] = ()

    name = "object"

    def coerce(self, value: Any) -> Any:
        return value

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "object",
            "properties": {field.name: param_schema(field) for field in self.fields},
        }
        required = [field.name for field in self.fields if field.required]
        if required:
            out["required"] = required
        return out


ADD_KUBE_FIELDS = (
    Param("api_url", STR, required=True, allow_blank=False, description="Kubernetes API URL"),
    Param("token", STR, required=True, description="Token to authenticate against Kubernetes"),
    Param("ca_cert", STR, description="TLS certificate (PEM), for a self-signed API certificate"),
    Param("namespace", STR, description="Namespace (unmanaged clusters only)"),
    Param(
        "authorization_type",
        STR,
        default=models.DEFAULT_AUTHORIZATION,
        values=models.AUTHORIZATION_TYPES,
        description="rbac (default), abac or unknown_authorization",
    ),
)
EDIT_KUBE_FIELDS = (
    Param("api_url", STR, description="Kubernetes API URL"),
    Param("token", STR, description="Token (blank keeps the current one)"),
    Param("ca_cert", STR, description="TLS certificate (PEM)"),
    Param("namespace", STR, description="Namespace (unmanaged clusters only)"),
)

ADD_PARAMS = (
    Param("name", STR, required=True, description="Cluster name"),
    Param("enabled", BOOL, default=True, description="Whether the cluster is active"),
    Param("environment_scope", STR, default=models.DEFAULT_SCOPE, description="Environments"),
    Param("domain", STR, description="Cluster base domain"),
    Param("management_project_id", INT, description="The ID of the management project"),
    Param("managed", BOOL, default=True, description="Whether namespaces are managed"),
    Param(
        KUBE,
        NestedHash(ADD_KUBE_FIELDS),
        description="Platform Kubernetes data (required: api_url, token)",
    ),
)
EDIT_PARAMS = (
    CLUSTER_ID,
    Param("name", STR, description="Cluster name"),
    Param("enabled", BOOL, description="Whether the cluster is active"),
    Param("environment_scope", STR, description="Environments"),
    Param("domain", STR, description="Cluster base domain"),
    Param("management_project_id", INT, description="The ID of the management project"),
    Param("managed", BOOL, description="Whether namespaces are managed"),
    Param(KUBE, NestedHash(EDIT_KUBE_FIELDS), description="Platform Kubernetes data"),
)


def nested_params(
    ctx: Context, fields: tuple[Param, ...], *, required: bool
) -> tuple[dict[str, Any], list[str]]:
    """The checked keys of ``platform_kubernetes_attributes`` and the 400 messages.

    As the real service: a required hash that is missing or null is checked as empty (its
    required keys are reported missing); one that is not a hash is invalid, and its
    required keys are reported missing too.
    """
    errors: list[str] = []
    given = KUBE in ctx.raw
    value = ctx.raw.get(KUBE)
    if not given or value is None:
        if not required:
            return {}, []
        if not given:
            errors.append(f"{KUBE} is missing")
        value = {}
    elif not isinstance(value, dict):
        errors.append(f"{KUBE} is invalid")
        if not required:
            return {}, errors
        value = {}
    labelled = [attrs.evolve(field, name=f"{KUBE}[{field.name}]") for field in fields]
    raw = {f"{KUBE}[{key}]": item for key, item in value.items()}
    try:
        checked = validate(labelled, raw)
    except ParamError as error:
        return {}, errors + error.messages
    if errors:
        return {}, errors
    prefix = len(KUBE) + 1
    return {key[prefix:-1]: item for key, item in checked.items()}, []


def cluster_or_404(ctx: Context, owner: models.Owner = models.INSTANCE_OWNER) -> models.Cluster:
    """The ``cluster_id`` cluster of ``owner`` (``404 Not found`` otherwise)."""
    return or_404(models.find_cluster(ctx.store, ctx.params["cluster_id"], owner))


def _check_management_project(ctx: Context, project_id: int | None) -> None:
    """400 unless the management project exists and the caller may see it."""
    if project_id is None:
        return
    project = find_project(ctx.store, project_id)
    if project is None or not can_read_project(ctx.store, ctx.user, project, ctx.now):
        raise ValidationFailed({"management_project_id": [models.MANAGEMENT_PROJECT_MESSAGE]})


def _flag(value: bool | None, default: bool) -> bool:
    return default if value is None else value


def list_of(ctx: Context, owner: models.Owner) -> Any:
    """One page of ``owner``'s clusters (oldest first)."""
    store, base = ctx.store, ctx.base_url
    return ctx.paginate(models.all_clusters(store, owner), lambda c: cluster_view(store, c, base))


def add_to(ctx: Context, owner: models.Owner) -> Any:
    """Add a cluster to ``owner`` from the add parameters; its detailed answer."""
    kube, errors = nested_params(ctx, ADD_KUBE_FIELDS, required=True)
    if errors:
        raise ParamError(errors)
    p = ctx.params
    _check_management_project(ctx, p.get("management_project_id"))
    scope = p.get("environment_scope")
    cluster = models.add_cluster(
        ctx.store,
        ctx.now,
        user_id=ctx.user.id,
        owner=owner,
        name=p.get("name") or "",
        enabled=_flag(p.get("enabled"), True),
        managed=_flag(p.get("managed"), True),
        domain=p.get("domain"),
        environment_scope=models.DEFAULT_SCOPE if scope is None else scope,
        management_project_id=p.get("management_project_id"),
        api_url=kube.get("api_url") or "",
        token=kube.get("token") or "",
        ca_cert=kube.get("ca_cert"),
        namespace=kube.get("namespace"),
        authorization_type=kube.get("authorization_type") or models.DEFAULT_AUTHORIZATION,
    )
    return cluster_detail(ctx.store, cluster, ctx.base_url)


def edit_of(ctx: Context, owner: models.Owner) -> Any:
    """Edit ``owner``'s ``cluster_id`` cluster from the edit parameters; the edit answer."""
    kube, errors = nested_params(ctx, EDIT_KUBE_FIELDS, required=False)
    if errors:
        raise ParamError(errors)
    cluster = cluster_or_404(ctx, owner)
    p = ctx.params
    changes: dict[str, Any] = {}
    for key in ("name", "domain", "environment_scope", "management_project_id"):
        if key in p:
            changes[key] = p[key]
    for key in ("enabled", "managed"):
        if p.get(key) is not None:
            changes[key] = p[key]
    for key in ("api_url", "ca_cert", "namespace"):
        if key in kube:
            changes[key] = kube[key]
    if kube.get("token") is not None and kube["token"].strip():
        changes["token"] = kube["token"]
    _check_management_project(ctx, changes.get("management_project_id"))
    models.edit_cluster(ctx.store, cluster, ctx.now, **changes)
    return cluster_detail(ctx.store, cluster, ctx.base_url, edited=True)


def remove_of(ctx: Context, owner: models.Owner) -> None:
    """Remove ``owner``'s ``cluster_id`` cluster (412 when ``If-Unmodified-Since`` is older)."""
    cluster = cluster_or_404(ctx, owner)
    require_unmodified_since(ctx.request, cluster.updated_at)
    models.remove_cluster(ctx.store, cluster)


@api.get("/admin/clusters", auth=ADMIN, paginated=True)
def list_clusters(ctx: Context) -> Any:
    """List instance clusters (oldest first)."""
    return list_of(ctx, models.INSTANCE_OWNER)


@api.get("/admin/clusters/:cluster_id", params=(CLUSTER_ID,), auth=ADMIN)
def get_cluster(ctx: Context) -> Any:
    """Get one instance cluster."""
    return cluster_view(ctx.store, cluster_or_404(ctx), ctx.base_url)


@api.post("/admin/clusters/add", params=ADD_PARAMS, auth=ADMIN)
def add_cluster(ctx: Context) -> Any:
    """Add an existing Kubernetes cluster as an instance cluster."""
    return add_to(ctx, models.INSTANCE_OWNER)


@api.put("/admin/clusters/:cluster_id", params=EDIT_PARAMS, auth=ADMIN)
def edit_cluster(ctx: Context) -> Any:
    """Edit an instance cluster (every field optional)."""
    return edit_of(ctx, models.INSTANCE_OWNER)


@api.delete("/admin/clusters/:cluster_id", params=(CLUSTER_ID,), auth=ADMIN)
def remove_cluster(ctx: Context) -> Any:
    """Remove an instance cluster (204; 412 when ``If-Unmodified-Since`` is older)."""
    remove_of(ctx, models.INSTANCE_OWNER)
