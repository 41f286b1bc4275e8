"""Finding a project for a request: by id or encoded path, 404 for callers who may not see
it, and the role checks endpoints need (``require_access``)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.members.access import can_read_project, project_role, require_role
from fakeservice.projects.models import Project, find_project
from fakeservice.web.context import Context


def find_project_or_404(ctx: Context, key: Any) -> Project:
    """The project named by ``key`` if the caller may see it, else ``404 Project Not Found``."""
    project = find_project(ctx.store, key)
    if project is None or project.marked_for_deletion_on is not None:
        raise NotFound("Project")
    if not can_read_project(ctx.store, ctx.user, project, ctx.now):
        raise NotFound("Project")
    return project


def access_level(ctx: Context, project: Project) -> int:
    """The caller's effective role in the project (60 for administrators)."""
    return project_role(ctx.store, ctx.user, project, ctx.now)


def require_access(ctx: Context, project: Project, level: int, reason: str | None = None) -> int:
    """Raise 403 unless the caller's role is at least ``level``; return the role."""
    return require_role(access_level(ctx, project), level, reason)


def project_with_role(ctx: Context, level: int) -> Project:
    """The project of the ``id`` parameter when the caller's role in it is at least ``level``
    (404 when the caller may not see it, 403 when the role is lower)."""
    project = find_project_or_404(ctx, ctx.params["id"])
    require_access(ctx, project, level)
    return project


def project_from_path(ctx: Context) -> Project:
    """The project of the ``:id`` path parameter."""
    return find_project_or_404(ctx, ctx.path_params["id"])
