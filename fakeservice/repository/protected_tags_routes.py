"""Protected tags endpoints: list, get, protect (``create_access_level``, default 40),
unprotect; Maintainer everywhere. Names may be wildcards (``v*``, URL-encoded in paths);
protecting a name twice is ``409 Protected tag '<name>' already exists``."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import or_404
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.lookup import project_with_role
from fakeservice.repository import protected_tags
from fakeservice.repository.protected import ACCESS_LEVELS, MAINTAINER_ACCESS
from fakeservice.repository.router import api
from fakeservice.repository.views import access_levels_view
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import REQUIRED

PATH = "/projects/:id/protected_tags"
ID = Param("id", STR, required=True)
NAME = Param("name", STR, required=True)


def protected_tag_view(record: protected_tags.ProtectedTag) -> dict[str, Any]:
    return {
        "name": record.name,
        "create_access_levels": access_levels_view(record.create_access_levels),
    }


def _found(ctx: Context) -> protected_tags.ProtectedTag:
    project = project_with_role(ctx, MAINTAINER)
    return or_404(protected_tags.find(ctx.store, project.id, ctx.params["name"]))


@api.get(PATH, params=(ID,), auth=REQUIRED, paginated=True)
def list_protected_tags(ctx: Context) -> Any:
    """A project's protected tag rules, oldest first."""
    project = project_with_role(ctx, MAINTAINER)
    rules = protected_tags.of_project(ctx.store, project.id)
    return ctx.paginate_list(rules, protected_tag_view)


@api.get(PATH + "/:name", params=(ID, NAME), auth=REQUIRED)
def get_protected_tag(ctx: Context) -> Any:
    """One rule by its exact name."""
    return protected_tag_view(_found(ctx))


@api.post(
    PATH,
    params=(
        ID,
        Param("name", STR, required=True, allow_blank=False),
        Param("create_access_level", INT, default=MAINTAINER_ACCESS, values=ACCESS_LEVELS),
    ),
    auth=REQUIRED,
)
def protect_tag(ctx: Context) -> Any:
    """Protect a tag name or wildcard."""
    project = project_with_role(ctx, MAINTAINER)
    p = ctx.params
    return protected_tag_view(
        protected_tags.protect(ctx.store, project.id, p["name"], p["create_access_level"])
    )


@api.delete(PATH + "/:name", params=(ID, NAME), auth=REQUIRED)
def unprotect_tag(ctx: Context) -> Any:
    """Remove a rule."""
    protected_tags.unprotect(ctx.store, _found(ctx))
