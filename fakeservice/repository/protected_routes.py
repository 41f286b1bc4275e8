"""Protected branches endpoints: list, get, protect, unprotect (Maintainer everywhere).

Names may be wildcards (``release/*``, URL-encoded in paths). Push and merge levels
default to Maintainer (40); allowed levels are 0 (no one), 30, 40 and 60 (admins).
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import or_404
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.lookup import project_with_role
from fakeservice.projects.models import Project
from fakeservice.repository import protected
from fakeservice.repository.refs_routes import name_filter
from fakeservice.repository.router import api
from fakeservice.repository.views import protected_branch_view
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, INT, STR, Param
from fakeservice.web.routing import REQUIRED

PATH = "/projects/:id/protected_branches"
ID = Param("id", STR, required=True)
NAME = Param("name", STR, required=True)


def _project(ctx: Context) -> Project:
    return project_with_role(ctx, MAINTAINER)


def _rule_or_404(ctx: Context, project: Project) -> protected.ProtectedBranch:
    return or_404(protected.find(ctx.store, project.id, ctx.params["name"]))


def _level(value: int | None) -> int:
    return protected.MAINTAINER_ACCESS if value is None else value


@api.get(PATH, params=(ID, Param("search", STR)), auth=REQUIRED, paginated=True)
def list_protected(ctx: Context) -> Any:
    """List a project's protected branch rules."""
    project = _project(ctx)
    keep = name_filter(ctx.params.get("search"))
    rules = [r for r in protected.of_project(ctx.store, project.id) if keep(r.name)]
    return ctx.paginate_list(rules, protected_branch_view)


@api.get(PATH + "/:name", params=(ID, NAME), auth=REQUIRED)
def get_protected(ctx: Context) -> Any:
    """Get one rule by its exact name (a wildcard is named as written)."""
    return protected_branch_view(_rule_or_404(ctx, _project(ctx)))


@api.post(
    PATH,
    params=(
        ID,
        Param("name", STR, required=True, allow_blank=False),
        Param("push_access_level", INT, values=protected.ACCESS_LEVELS),
        Param("merge_access_level", INT, values=protected.ACCESS_LEVELS),
        Param("unprotect_access_level", INT, values=protected.ACCESS_LEVELS),
        Param("allow_force_push", BOOL, default=False),
        Param("code_owner_approval_required", BOOL, default=False),
    ),
    auth=REQUIRED,
)
def protect(ctx: Context) -> Any:
    """Protect a branch or wildcard (409 when a rule of that name exists)."""
    project = _project(ctx)
    p = ctx.params
    rule = protected.protect(
        ctx.store,
        project.id,
        p["name"],
        push=_level(p.get("push_access_level")),
        merge=_level(p.get("merge_access_level")),
        unprotect=p.get("unprotect_access_level"),
        allow_force_push=p["allow_force_push"],
        code_owner_approval_required=p["code_owner_approval_required"],
    )
    return protected_branch_view(rule)


@api.delete(PATH + "/:name", params=(ID, NAME), auth=REQUIRED)
def unprotect(ctx: Context) -> Any:
    """Remove a rule."""
    project = _project(ctx)
    protected.unprotect(ctx.store, _rule_or_404(ctx, project))
