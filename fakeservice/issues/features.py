"""A project looked up for a collaboration endpoint, with its feature's access level
applied: ``disabled`` answers 403 to everyone, ``private`` to callers below Reporter."""

from __future__ import annotations

from fakeservice.core.errors import Forbidden
from fakeservice.members.models import REPORTER
from fakeservice.projects.lookup import access_level, find_project_or_404
from fakeservice.projects.models import Project
from fakeservice.web.context import Context


def project_with_feature(ctx: Context, feature: str) -> Project:
    """The project of ``id`` (404 when invisible) whose ``feature`` the caller may use."""
    project = find_project_or_404(ctx, ctx.params["id"])
    level = project.features.get(feature, "enabled")
    if level == "disabled" or (level == "private" and access_level(ctx, project) < REPORTER):
        raise Forbidden()
    return project
