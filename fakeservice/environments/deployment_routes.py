"""Deployments endpoints (not in the spec; as the real service): list (``order_by``,
``sort``, ``status``, ``environment``, ``updated_after``/``updated_before``) and get.
Reading needs the Reporter role."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import or_404
from fakeservice.environments import deployments as models
from fakeservice.environments.deployment_views import deployment_view
from fakeservice.environments.router import api
from fakeservice.members.models import REPORTER
from fakeservice.projects.lookup import project_with_role
from fakeservice.web.context import Context
from fakeservice.web.params import DATETIME, INT, STR, Param
from fakeservice.web.routing import REQUIRED

ID = Param("id", STR, required=True, description="The ID or URL-encoded path of the project")
# each order and the index serving it
ORDERS = {
    "id": "project",
    "iid": "project",
    "created_at": "project",
    "updated_at": "project_updated",
    "ref": "project_ref",
}
STATUSES = ("created", "running", "success", "failed", "canceled", "skipped")


@api.get(
    "/projects/:id/deployments",
    params=(
        ID,
        Param("order_by", STR, values=ORDERS, default="id", description="Sort field"),
        Param("sort", STR, values=("asc", "desc"), default="asc", description="Direction"),
        Param("status", STR, values=STATUSES, description="Only this status"),
        Param("environment", STR, description="Only this environment's name"),
        Param("updated_after", DATETIME, description="Only those updated after this time"),
        Param("updated_before", DATETIME, description="Only those updated before this time"),
    ),
    auth=REQUIRED,
    paginated=True,
)
def list_deployments(ctx: Context) -> Any:
    """List a project's deployments (ids, iids and creation times grow together)."""
    project = project_with_role(ctx, REPORTER)
    p, store = ctx.params, ctx.store
    env_id: int | None = None
    if p.get("environment") is not None:
        env = models.environments(store).by("project_name", (project.id, p["environment"]))
        env_id = -1 if env is None else env.id
    status, after, before = p.get("status"), p.get("updated_after"), p.get("updated_before")

    def keep(dep: models.Deployment) -> bool:
        return (
            (status is None or dep.status == status)
            and (env_id is None or dep.environment_id == env_id)
            and (after is None or dep.updated_at > after)
            and (before is None or dep.updated_at < before)
        )

    index = ORDERS[p.get("order_by") or "id"]
    selection = models.deployments(store).select(
        "environment" if env_id is not None and index == "project" else index,
        [env_id if env_id is not None and index == "project" else project.id],
        where=keep,
        reverse=p.get("sort") == "desc",
    )
    return ctx.paginate(selection, lambda d: deployment_view(ctx, d))


@api.get(
    "/projects/:id/deployments/:deployment_id",
    params=(ID, Param("deployment_id", INT, required=True, description="The deployment")),
    auth=REQUIRED,
)
def get_deployment(ctx: Context) -> Any:
    """One deployment."""
    project = project_with_role(ctx, REPORTER)
    dep = models.deployments(ctx.store).get(ctx.params["deployment_id"])
    return deployment_view(
        ctx, or_404(dep if dep is not None and dep.project_id == project.id else None)
    )
