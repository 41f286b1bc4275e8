"""Fork endpoints: fork a project (``POST /projects/:id/fork``), list a project's forks,
and make or remove the fork relation of an existing project.

As the service decides: a caller who may not fork the project (it cannot read it, the
repository or forking is disabled, forking is private and it is no member) gets 404; a
namespace it cannot see is ``404 Namespace Not Found``; a namespace it may not create
projects in, or one outside the group hierarchy of an upstream whose top-level group sets
``prevent_forking_outside_group``, is ``404 Target Namespace Not Found``; a name or path
already taken is 409 with the model's messages.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import ApiError, NotFound, NotModified
from fakeservice.core.store import Selection
from fakeservice.forks import models
from fakeservice.groups.models import (
    VISIBILITIES,
    Namespace,
    namespaces,
    self_and_ancestor_ids,
)
from fakeservice.members.access import (
    can_read_group,
    can_read_project,
    visible_by_level,
)
from fakeservice.members.models import MAINTAINER, OWNER
from fakeservice.projects.lookup import access_level, find_project_or_404, require_access
from fakeservice.projects.models import ORDERS, Project, find_project, projects
from fakeservice.projects.routes import (
    LIST_PARAMS,
    filter_projects,
    grant_creator,
    may_create_in,
    namespace_by_key,
    project_detail,
    project_renderer,
)
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, DATETIME, INT, STR, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("forks")

ID = Param("id", STR, required=True)


def can_fork(ctx: Context, project: Project) -> bool:
    """Whether the caller may fork ``project`` (``fork_project``)."""
    if ctx.user is None:
        return False
    if ctx.is_admin:
        return True
    level = project.features.get("forking", "enabled")
    if level == "disabled" or not project.feature_enabled("repository"):
        return False
    return level != "private" or access_level(ctx, project) > 0


def _namespace(ctx: Context) -> Namespace:
    """The target namespace: ``namespace_id``, ``namespace_path`` or ``namespace`` (id or
    path); the caller's own namespace when none is given."""
    p = ctx.params
    key = next(
        (
            p[k]
            for k in ("namespace_id", "namespace_path", "namespace")
            if p.get(k) not in (None, "")
        ),
        None,
    )
    if key is None:
        return namespaces(ctx.store).rows[ctx.user.namespace_id]
    ns = namespace_by_key(ctx, key)
    if ns is None or (ns.is_group and not can_read_group(ctx.store, ctx.user, ns, ctx.now)):
        raise NotFound("Namespace")
    if ns.kind == "user" and ns.owner_id != ctx.user.id and not ctx.is_admin:
        raise NotFound("Namespace")
    return ns


def _valid_target(ctx: Context, source: Project, ns: Namespace) -> bool:
    """``valid_fork_target?``: the caller may create projects there, and the upstream's
    top-level group does not keep forks inside its hierarchy elsewhere."""
    source_ns = namespaces(ctx.store).rows[source.namespace_id]
    if source_ns.is_group:
        root_id = self_and_ancestor_ids(ctx.store, source_ns)[-1]
        root = namespaces(ctx.store).rows[root_id]
        if root.settings.get("prevent_forking_outside_group") and (
            not ns.is_group or root_id not in self_and_ancestor_ids(ctx.store, ns)
        ):
            return False
    return may_create_in(ctx, ns)


@api.post(
    "/projects/:id/fork",
    params=(
        ID,
        Param("namespace_id", INT),
        Param("namespace_path", STR),
        Param("namespace", STR),
        Param("path", STR),
        Param("name", STR),
        Param("description", STR),
        Param("visibility", STR, values=VISIBILITIES),
        Param("branches", STR),
        Param("mr_default_target_self", BOOL),
    ),
    auth=REQUIRED,
)
def fork(ctx: Context) -> Any:
    """Fork a project into a namespace (201 with the fork; its import is finished)."""
    source = find_project_or_404(ctx, ctx.params["id"])
    if not can_fork(ctx, source):
        raise NotFound(message="404 Not Found")
    p = ctx.params
    ns = _namespace(ctx)
    if not _valid_target(ctx, source, ns):
        raise NotFound("Target Namespace")
    branch = p.get("branches") or None
    if branch is not None:
        from fakeservice.repository.models import read_repository

        if read_repository(ctx.store, source).branch(branch) is None:
            raise ApiError({"message": {"base": [f"Branch {branch} does not exist"]}}, status=409)
    created = models.create_fork(
        ctx.store,
        ctx.now,
        source,
        ns,
        creator_id=ctx.user.id,
        name=p.get("name"),
        path=p.get("path"),
        description=p.get("description"),
        visibility=p.get("visibility"),
        branch=branch,
        mr_default_target_self=p.get("mr_default_target_self"),
    )
    grant_creator(ctx, created, ctx.user, ns)
    return project_detail(ctx, created)


FORK_LIST_PARAMS = (
    ID,
    *(param for param in LIST_PARAMS if param.name not in ("id_after", "id_before")),
    Param("updated_before", DATETIME),
    Param("updated_after", DATETIME),
)


@api.get("/projects/:id/forks", params=FORK_LIST_PARAMS, paginated=True)
def list_forks(ctx: Context) -> Any:
    """The forks of a project the caller may see, with the filters of ``GET /projects``."""
    source = find_project_or_404(ctx, ctx.params["id"])
    p = ctx.params
    order_by = p["order_by"] if p["order_by"] in ORDERS else "name"
    selection = _visible_forks(ctx, source, order_by, p["sort"] == "desc")
    selection = filter_projects(ctx, selection, order_by=order_by)
    checks = []
    if ctx.user is not None and (p["owned"] or p["membership"] or p.get("min_access_level")):
        wanted = OWNER if p["owned"] else p.get("min_access_level") or 1
        checks.append(lambda pr: access_level(ctx, pr) >= wanted)
    if p.get("updated_before"):
        before = p["updated_before"]
        checks.append(lambda pr: pr.updated_at < before)
    if p.get("updated_after"):
        after = p["updated_after"]
        checks.append(lambda pr: pr.updated_at > after)
    if checks:
        selection = selection.filter(lambda pr: all(check(pr) for check in checks))
    return ctx.paginate(selection, project_renderer(ctx))


def _visible_forks(
    ctx: Context, source: Project, order_by: str, reverse: bool
) -> Selection[Project]:
    """The forks of ``source`` the caller may see, merged from the index's visibility
    partitions (all of them for administrators; else public, internal when signed in and
    not external, and those of the other forks the caller may read: the work grows with
    this project's forks only)."""
    table = projects(ctx.store)
    index = table.sorted[f"forks_by_{order_by}"]
    if ctx.is_admin:
        levels = list(VISIBILITIES)
    else:
        levels = ["public"] + (["internal"] if visible_by_level(ctx.user, "internal") else [])
    sources = [index.part((source.id, level)) for level in levels]
    hidden = [level for level in VISIBILITIES if level not in levels]
    if ctx.user is not None and hidden:
        store, user, now = ctx.store, ctx.user, ctx.now
        readable = [
            table.rows[entry[-1]]
            for level in hidden
            for entry in index.part((source.id, level))
            if can_read_project(store, user, table.rows[entry[-1]], now)
        ]
        if readable:
            sources.append(table.ordered(readable, ORDERS[order_by]).sources[0])
    return Selection(table, sources, reverse=reverse)


@api.post(
    "/projects/:id/fork/:forked_from_id",
    params=(ID, Param("forked_from_id", STR, required=True)),
    auth=REQUIRED,
)
def create_relation(ctx: Context) -> Any:
    """Mark an existing project as a fork of another (Maintainer of the fork, and allowed
    to fork the upstream; 409 when it is a fork already)."""
    project = find_project_or_404(ctx, ctx.params["id"])
    require_access(ctx, project, MAINTAINER)
    source = find_project(ctx.store, ctx.params["forked_from_id"])
    if source is None or not can_read_project(ctx.store, ctx.user, source, ctx.now):
        raise NotFound("Project")
    if not can_fork(ctx, source):
        raise NotFound(message="404 Not Found")
    if source.id == project.id:
        raise ApiError({"message": "Target project cannot be equal to source project"}, status=400)
    models.link(ctx.store, project, source)
    return project_detail(ctx, project)


@api.delete("/projects/:id/fork", params=(ID,), auth=REQUIRED, status=204)
def delete_relation(ctx: Context) -> Any:
    """Remove a project's fork relation (Owner; 304 when it is no fork)."""
    project = find_project_or_404(ctx, ctx.params["id"])
    require_access(ctx, project, OWNER)
    if not models.unlink(ctx.store, project):
        raise NotModified()
    return None
