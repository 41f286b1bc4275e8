"""The CI/CD job token scope of a project (not in the spec; the real service has it):
``GET``/``PATCH /projects/:id/job_token_scope`` (``inbound_enabled``; on by default, as
for new projects of the real service), the project allowlist
(``/job_token_scope/allowlist``) and the group allowlist
(``/job_token_scope/groups_allowlist``). Maintainer only.

With the inbound scope on, a job token of another project reaches this project's CI
records (artifacts...) only when that project, or a group above it, is allowlisted; a
job token always reaches its own project. Scenario key: ``projects[].job_token_scope``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from fakeservice.ci.router import api
from fakeservice.core.errors import BadRequest, Forbidden, NotFound
from fakeservice.core.store import Store
from fakeservice.groups.models import Namespace, find_group, namespaces, self_and_ancestor_ids
from fakeservice.groups.views import group_view
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.lookup import project_with_role
from fakeservice.projects.models import Project, find_project, projects
from fakeservice.projects.views import project_simple
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import BOOL, STR, Field, ListOf, Record
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import BOOL as BOOL_PARAM
from fakeservice.web.params import INT, Param
from fakeservice.web.params import STR as STR_PARAM
from fakeservice.web.routing import REQUIRED

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

_KEY = "job_token_scopes"
BASE = "/projects/:id/job_token_scope"
ID = Param("id", STR_PARAM, required=True)


@attrs.define(slots=True)
class Scope:
    inbound_enabled: bool = True
    project_ids: list[int] = attrs.field(factory=list)
    group_ids: list[int] = attrs.field(factory=list)


def scope_of(store: Store, project_id: int) -> Scope:
    return store.extras.get(_KEY, {}).get(project_id) or Scope()


def _stored(store: Store, project_id: int) -> Scope:
    return store.extras.setdefault(_KEY, {}).setdefault(project_id, Scope())


def allows(store: Store, project: Project, source_project_id: int) -> bool:
    """Whether a job token of ``source_project_id`` may reach ``project``."""
    scope = scope_of(store, project.id)
    if source_project_id == project.id or not scope.inbound_enabled:
        return True
    if source_project_id in scope.project_ids:
        return True
    source = projects(store).get(source_project_id)
    if source is None or not scope.group_ids:
        return False
    namespace = namespaces(store).rows[source.namespace_id]
    return bool(set(self_and_ancestor_ids(store, namespace)) & set(scope.group_ids))


def check_job_token(ctx: Context, project: Project) -> None:
    """403 when the caller is a job token that ``project``'s scope keeps out."""
    job = getattr(ctx.caller, "job", None)
    if job is not None and not allows(ctx.store, project, job.project_id):
        raise Forbidden()


# -- endpoints ------------------------------------------------------------------------------


@api.get(BASE, params=(ID,), auth=REQUIRED)
def get_scope(ctx: Context) -> Any:
    """The project's job token scope settings."""
    project = project_with_role(ctx, MAINTAINER)
    return {
        "inbound_enabled": scope_of(ctx.store, project.id).inbound_enabled,
        "outbound_enabled": False,
    }


@api.patch(
    BASE, params=(ID, Param("enabled", BOOL_PARAM, required=True)), auth=REQUIRED, status=204
)
def patch_scope(ctx: Context) -> Response:
    """Turn the inbound scope on or off (204)."""
    project = project_with_role(ctx, MAINTAINER)
    _stored(ctx.store, project.id).inbound_enabled = ctx.params["enabled"]
    return Response(204, [], b"")


@attrs.frozen
class Allowlist:
    """One allowlist: its path, target kind and how its targets are found and shown."""

    path: str
    kind: str  # project or group
    field: str  # project_ids or group_ids
    find: Callable[[Store, int], Any]
    render: Callable[[Context, Any], dict[str, Any]]


def _find_group(store: Store, group_id: int) -> Namespace | None:
    group = namespaces(store).get(group_id)
    return group if group is not None and group.is_group else None


def _listed(ctx: Context, allowlist: Allowlist, project: Project) -> list[Any]:
    ids = getattr(scope_of(ctx.store, project.id), allowlist.field)
    if allowlist.kind == "project":
        ids = [project.id, *ids]  # a project's own job tokens always reach it
    return [t for t in (allowlist.find(ctx.store, i) for i in ids) if t is not None]


def _declare(allowlist: Allowlist) -> None:
    target = Param(f"target_{allowlist.kind}_id", INT, required=True)
    base, kind = f"{BASE}/{allowlist.path}", allowlist.kind

    @api.get(
        base,
        params=(ID,),
        auth=REQUIRED,
        paginated=True,
        summary=f"The {kind}s allowlisted in the job token scope.",
    )
    def list_targets(ctx: Context) -> Response:
        project = project_with_role(ctx, MAINTAINER)
        found = _listed(ctx, allowlist, project)
        return ctx.paginate_list(found, lambda t: allowlist.render(ctx, t))

    @api.post(
        base,
        params=(ID, target),
        auth=REQUIRED,
        summary=f"Allowlist a {kind} (201 with the source and target ids).",
    )
    def add_target(ctx: Context) -> Any:
        project = project_with_role(ctx, MAINTAINER)
        found = allowlist.find(ctx.store, ctx.params[target.name])
        if found is None:
            raise NotFound(kind.capitalize())
        if found in _listed(ctx, allowlist, project):
            raise BadRequest(f"Target {kind} is already in the job token scope")
        getattr(_stored(ctx.store, project.id), allowlist.field).append(found.id)
        return {"source_project_id": project.id, target.name: found.id}

    @api.delete(
        f"{base}/:{target.name}",
        params=(ID, target),
        auth=REQUIRED,
        summary=f"Remove a {kind} from the allowlist (204).",
    )
    def remove_target(ctx: Context) -> None:
        project = project_with_role(ctx, MAINTAINER)
        ids = getattr(_stored(ctx.store, project.id), allowlist.field)
        if ctx.params[target.name] not in ids:
            raise NotFound()
        ids.remove(ctx.params[target.name])


_declare(
    Allowlist(
        "allowlist",
        "project",
        "project_ids",
        lambda s, i: projects(s).get(i),
        lambda ctx, p: project_simple(ctx.store, p, ctx.base_url),
    )
)
_declare(
    Allowlist(
        "groups_allowlist",
        "group",
        "group_ids",
        _find_group,
        lambda ctx, g: group_view(ctx.store, g, ctx.base_url),
    )
)


# -- scenario ----------------------------------------------------------------------------------

SCOPE = Record(
    "job_token_scope",
    {
        "inbound_enabled": Field(BOOL, "limit job token access to the allowlist (default true)"),
        "allowlist": Field(ListOf(STR), "project paths whose job tokens may reach this project"),
        "groups_allowlist": Field(ListOf(STR), "group paths whose projects' job tokens may"),
    },
    "A project's CI/CD job token scope.",
)


def load_scope(service: FakeService, project: Project, value: Any, where: str) -> None:
    """``projects[].job_token_scope``."""
    if not isinstance(value, Mapping):
        raise ScenarioError([(where, "must be a mapping")])
    store = service.store
    scope = _stored(store, project.id)
    if "inbound_enabled" in value:
        scope.inbound_enabled = bool(value["inbound_enabled"])
    for index, path in enumerate(value.get("allowlist") or []):
        target = find_project(store, str(path))
        if target is None:
            raise ScenarioError([(f"{where}.allowlist[{index}]", f"no project {path!r}")])
        scope.project_ids.append(target.id)
    for index, path in enumerate(value.get("groups_allowlist") or []):
        group: Namespace | None = find_group(store, str(path))
        if group is None:
            raise ScenarioError([(f"{where}.groups_allowlist[{index}]", f"no group {path!r}")])
        scope.group_ids.append(group.id)


def register(found: Sections) -> None:
    """Declare this module's scenario keys."""
    found.register_project_section(
        "job_token_scope",
        load_scope,
        schema=SCOPE,
        doc="the CI/CD job token scope: inbound limit and allowlists",
    )
