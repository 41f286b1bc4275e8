"""Who sees and changes snippets (seed 001 §2.5): ``public`` snippets are visible to
everyone who can see their project, ``internal`` ones to signed-in users who are not
external, ``private`` ones to their author (and, for project snippets, the project's
members from Reporter up) and administrators. Invisible snippets are ``404 Snippet Not
Found``. Project snippets also need the project's snippets feature."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import Forbidden, NotFound
from fakeservice.issues.features import project_with_feature
from fakeservice.members.access import visible_by_level
from fakeservice.members.models import MAINTAINER, REPORTER
from fakeservice.projects.lookup import access_level
from fakeservice.projects.models import Project
from fakeservice.snippets.models import Snippet, snippets
from fakeservice.web.context import Context


def project_of(ctx: Context) -> Project:
    return project_with_feature(ctx, "snippets")


def role(ctx: Context, project: Project | None) -> int:
    return access_level(ctx, project) if project is not None else (60 if ctx.is_admin else 0)


def visible(ctx: Context, snippet: Snippet, project_role: int) -> bool:
    user = ctx.user
    if user is not None and (user.admin or user.id == snippet.author_id):
        return True
    if snippet.visibility == "private":
        return snippet.project_id is not None and project_role >= REPORTER
    return visible_by_level(user, snippet.visibility)


def find(ctx: Context, project: Project | None) -> Snippet:
    found = snippets(ctx.store).get(ctx.params["snippet_id"])
    project_id = project.id if project is not None else None
    if (
        found is None
        or found.project_id != project_id
        or not visible(ctx, found, role(ctx, project))
    ):
        raise NotFound("Snippet")
    return found


def require_write(ctx: Context, project: Project | None, snippet: Snippet) -> None:
    if ctx.user.id == snippet.author_id or ctx.is_admin:
        return
    if project is not None and role(ctx, project) >= MAINTAINER:
        return
    raise Forbidden()


def visible_filter(ctx: Context, project: Project | None) -> Any:
    level = role(ctx, project)
    return lambda snippet: visible(ctx, snippet, level)
