"""Template endpoints.

* ``GET /templates/{dockerfiles,gitignores,gitlab_ci_ymls}`` (``key``, ``name``) and
  ``GET /templates/<kind>/:name`` (``name``, ``content``); ``404 Template Not Found``;
* ``GET /templates/licenses`` (``popular``: featured ones only) and
  ``GET /templates/licenses/:name`` (``project``, ``fullname``: fill ``[project]`` and
  ``[fullname]``, the caller's name by default; ``[year]`` is the clock's year);
  ``404 License Not Found``;
* ``GET /projects/:id/templates/:type`` and ``/:type/:name`` for anyone who can see the
  project: the built-in kinds plus ``issues`` and ``merge_requests`` from its repository.

Anyone may read them, signed in or not.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.file_templates import catalog
from fakeservice.file_templates.catalog import (
    FILE_KINDS,
    KINDS,
    LICENSES,
    LicenseTemplate,
    Template,
)
from fakeservice.file_templates.repository import FOLDERS, project_template, project_templates
from fakeservice.file_templates.views import license_view, list_item, template_view
from fakeservice.projects.lookup import find_project_or_404
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, STR, Param
from fakeservice.web.routing import PUBLIC, AreaRouter

api = AreaRouter("file_templates")
NAME = Param("name", STR, required=True, description="The template's name (a licence's key)")
LICENSE_FILL = (
    Param("project", STR, description="Fills [project] in a licence"),
    Param(
        "fullname", STR, description="Fills [fullname] in a licence (default: the caller's name)"
    ),
)
PROJECT_KINDS = (*KINDS, *FOLDERS)


def _resolved(ctx: Context, template: Template, project: str | None = None) -> dict[str, Any]:
    if not isinstance(template, LicenseTemplate):
        return template_view(template)
    user = ctx.user
    content = catalog.resolve(
        template,
        year=str(ctx.now.year),
        project=ctx.get("project") or project or "",
        fullname=ctx.get("fullname") or (user.name if user is not None else ""),
    )
    return license_view(template, content)


def _declare_file_kind(kind: str) -> None:
    @api.get(
        f"/templates/{kind}", auth=PUBLIC, paginated=True, summary=f"List the {kind} templates"
    )
    def list_kind(ctx: Context) -> Any:
        return ctx.paginate_list(list(catalog.templates(kind)), list_item)

    @api.get(
        f"/templates/{kind}/:name", params=(NAME,), auth=PUBLIC, summary=f"Get a {kind} template"
    )
    def get_kind(ctx: Context) -> Any:
        found = catalog.find(kind, ctx.params["name"])
        if found is None:
            raise NotFound("Template")
        return template_view(found)


for _kind in FILE_KINDS:
    _declare_file_kind(_kind)


@api.get(
    "/templates/licenses",
    params=(Param("popular", BOOL, description="Only the popular licences"),),
    auth=PUBLIC,
    paginated=True,
)
def list_licenses(ctx: Context) -> Any:
    """The licence templates, with their texts."""
    found = [t for t in catalog.templates(LICENSES) if not ctx.get("popular") or t.featured]
    return ctx.paginate_list(found, lambda t: license_view(t))


@api.get("/templates/licenses/:name", params=(NAME, *LICENSE_FILL), auth=PUBLIC)
def get_license(ctx: Context) -> Any:
    """A licence template with its placeholders filled."""
    found = catalog.find(LICENSES, ctx.params["name"])
    if found is None:
        raise NotFound("License")
    return _resolved(ctx, found)


PROJECT = Param("id", STR, required=True, description="The project's ID or path")
TYPE = Param("type", STR, required=True, values=PROJECT_KINDS, description="The template kind")
SOURCE = Param("source_template_project_id", STR, description="Ignored: built-in templates only")


def _project_list(ctx: Context, kind: str) -> list[Template]:
    project = find_project_or_404(ctx, ctx.params["id"])
    if kind in FOLDERS:
        return project_templates(ctx.store, project, kind)
    return list(catalog.templates(kind))


@api.get(
    "/projects/:id/templates/:type",
    params=(PROJECT, TYPE, SOURCE),
    auth=PUBLIC,
    paginated=True,
)
def list_project_templates(ctx: Context) -> Any:
    """The templates of a kind available to a project."""
    return ctx.paginate_list(_project_list(ctx, ctx.params["type"]), list_item)


@api.get(
    "/projects/:id/templates/:type/:name",
    params=(PROJECT, TYPE, NAME, SOURCE, *LICENSE_FILL),
    auth=PUBLIC,
)
def get_project_template(ctx: Context) -> Any:
    """One template for a project (licences filled with the project's name)."""
    project = find_project_or_404(ctx, ctx.params["id"])
    kind, name = ctx.params["type"], ctx.params["name"]
    if kind in FOLDERS:
        found = project_template(ctx.store, project, kind, name)
    else:
        found = catalog.find(kind, name)
    if found is None:
        raise NotFound("Template")
    return _resolved(ctx, found, project.name)
