"""Project and group clusters endpoints (deprecated certificate-based, as the instance
ones): list, get, add an existing cluster (``POST .../clusters/user``), edit and remove
under ``/projects/:id/clusters`` and ``/groups/:id/clusters``.

Every one needs the Maintainer role in the project or group (404 for callers who may not
see it, 403 below Maintainer); parameters, validation and error bodies are the instance
endpoints'. One cluster's answers carry its ``project`` or ``group``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.clusters import models
from fakeservice.clusters.routes import (
    ADD_PARAMS,
    CLUSTER_ID,
    EDIT_PARAMS,
    add_to,
    api,
    cluster_or_404,
    edit_of,
    list_of,
    remove_of,
)
from fakeservice.clusters.views import cluster_detail
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.web.context import Context
from fakeservice.web.routing import REQUIRED, renamer


def _project(ctx: Context) -> models.Owner:
    project = find_project_or_404(ctx, ctx.path_params["id"])
    require_access(ctx, project, MAINTAINER)
    return (models.PROJECT, project.id)


def _group(ctx: Context) -> models.Owner:
    group = find_group_or_404(ctx, ctx.path_params["id"])
    require_group_access(ctx, group, MAINTAINER)
    return (models.GROUP, group.id)


def _declare(kind: str, collection: str, owner: Callable[[Context], models.Owner]) -> None:
    base = f"/{collection}/:id/clusters"
    named = renamer(f"{kind}_cluster")

    @api.get(base, auth=REQUIRED, paginated=True,
             summary=f"List a {kind}'s clusters (oldest first)")  # fmt: skip
    @named
    def list_tokens(ctx: Context) -> Any:
        return list_of(ctx, owner(ctx))

    @api.get(f"{base}/:cluster_id", params=(CLUSTER_ID,), auth=REQUIRED,
             summary=f"Get a {kind} cluster")  # fmt: skip
    @named
    def get_token(ctx: Context) -> Any:
        return cluster_detail(ctx.store, cluster_or_404(ctx, owner(ctx)), ctx.base_url)

    @api.post(f"{base}/user", params=ADD_PARAMS, auth=REQUIRED,
              summary=f"Add an existing Kubernetes cluster to a {kind}")  # fmt: skip
    @named
    def add_token(ctx: Context) -> Any:
        return add_to(ctx, owner(ctx))

    @api.put(f"{base}/:cluster_id", params=EDIT_PARAMS, auth=REQUIRED,
             summary=f"Edit a {kind} cluster (every field optional)")  # fmt: skip
    @named
    def edit_token(ctx: Context) -> Any:
        return edit_of(ctx, owner(ctx))

    @api.delete(f"{base}/:cluster_id", params=(CLUSTER_ID,), auth=REQUIRED,
                summary=f"Remove a {kind} cluster")  # fmt: skip
    @named
    def remove_token(ctx: Context) -> Any:
        remove_of(ctx, owner(ctx))


_declare(models.PROJECT, "projects", _project)
_declare(models.GROUP, "groups", _group)
