"""Projects endpoints: list (offset and keyset), get by id or encoded path, create, edit,
delete, archive, star; and a user's projects."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.avatars.models import AVATAR_FILE, attach
from fakeservice.core.errors import MethodNotAllowed, NotFound, ValidationFailed
from fakeservice.core.events import listeners
from fakeservice.core.store import Selection, as_id
from fakeservice.groups.models import VISIBILITIES, Namespace, find_namespace, namespaces
from fakeservice.members.access import authorized_projects, group_access, visible_projects
from fakeservice.members.models import (
    DEVELOPER,
    MAINTAINER,
    OWNER,
    PROJECT,
    REPORTER,
    find_member,
)
from fakeservice.projects import settings
from fakeservice.projects.lookup import access_level, find_project_or_404, require_access
from fakeservice.projects.models import (
    ORDERS,
    Project,
    create_project,
    project_errors,
    projects,
)
from fakeservice.projects.views import project_full, project_simple, statistics_view
from fakeservice.topics import models as topic_models
from fakeservice.users.views import custom_attributes
from fakeservice.web.conditional import require_unmodified_since
from fakeservice.web.context import Context
from fakeservice.web.pagination import KEYSET_UNAVAILABLE
from fakeservice.web.params import BOOL, DATETIME, INT, STR, AtLeastOne, Param
from fakeservice.web.routing import ADMIN, PUBLIC, REQUIRED, AreaRouter

api = AreaRouter("projects")

PROJECT_ORDERS = (
    "id",
    "name",
    "path",
    "created_at",
    "updated_at",
    "last_activity_at",
    "similarity",
    "star_count",
)

LIST_PARAMS = (
    Param("order_by", STR, default="created_at", values=PROJECT_ORDERS),
    Param("sort", STR, default="desc", values=("asc", "desc")),
    Param("archived", BOOL),
    Param("visibility", STR, values=VISIBILITIES),
    Param("search", STR),
    Param("search_namespaces", BOOL),
    Param("owned", BOOL, default=False),
    Param("starred", BOOL, default=False),
    Param("imported", BOOL, default=False),
    Param("membership", BOOL, default=False),
    Param("with_issues_enabled", BOOL, default=False),
    Param("with_merge_requests_enabled", BOOL, default=False),
    Param("with_programming_language", STR),
    Param("min_access_level", INT, values=(10, 15, 20, 30, 40, 50)),
    Param("id_after", INT),
    Param("id_before", INT),
    Param("last_activity_after", DATETIME),
    Param("last_activity_before", DATETIME),
    Param("repository_storage", STR),
    Param("topic", STR),
    Param("topic_id", INT),
    Param("statistics", BOOL, default=False),
    Param("with_custom_attributes", BOOL, default=False),
    Param("simple", BOOL, default=False),
    Param("include_pending_delete", BOOL),
    Param("include_hidden", BOOL),
)


def _stars(ctx: Context) -> dict[int, set[int]]:
    return ctx.store.extras.setdefault("stars", {})


def project_renderer(ctx: Context) -> Callable[[Project], dict[str, Any]]:
    p = ctx.params
    simple = p.get("simple") or (ctx.user is None and p.get("simple") is None and False)
    admin = ctx.is_admin

    def render(project: Project) -> dict[str, Any]:
        if simple:
            return project_simple(ctx.store, project, ctx.base_url)
        out = project_full(ctx.store, project, ctx.base_url, viewer_is_admin=admin)
        if p.get("statistics") and access_level(ctx, project) >= REPORTER:
            out["statistics"] = statistics_view(project)
        if p.get("with_custom_attributes") and admin:
            out["custom_attributes"] = custom_attributes(project)
        return out

    return render


def filter_projects(
    ctx: Context, selection: Selection[Project], *, order_by: str
) -> Selection[Project]:
    """Apply the common list filters as one predicate on ``selection``."""
    p = ctx.params
    checks: list[Callable[[Project], bool]] = []
    if p.get("archived") is not None:
        archived = p["archived"]
        checks.append(lambda pr: pr.archived == archived)
    if p.get("visibility"):
        visibility = p["visibility"]
        checks.append(lambda pr: pr.visibility == visibility)
    if p.get("search"):
        needle = p["search"].lower()
        with_ns = bool(p.get("search_namespaces"))
        checks.append(
            lambda pr: (
                needle in pr.name.lower()
                or needle in pr.path.lower()
                or needle in (pr.description or "").lower()
                or (with_ns and needle in pr.path_with_namespace.lower())
            )
        )
    if p.get("with_issues_enabled"):
        checks.append(lambda pr: pr.feature_enabled("issues"))
    if p.get("with_merge_requests_enabled"):
        checks.append(lambda pr: pr.feature_enabled("merge_requests"))
    if p.get("starred"):
        starred = _stars(ctx).get(ctx.user.id, set()) if ctx.user else set()
        checks.append(lambda pr: pr.id in starred)
    if p.get("imported"):
        checks.append(lambda pr: pr.import_status != "none")
    if p.get("last_activity_after"):
        after = p["last_activity_after"]
        checks.append(lambda pr: pr.last_activity_at > after)
    if p.get("last_activity_before"):
        before = p["last_activity_before"]
        checks.append(lambda pr: pr.last_activity_at < before)
    if p.get("repository_storage") and ctx.is_admin:
        storage = p["repository_storage"]
        checks.append(lambda pr: pr.repository_storage == storage)
    if p.get("topic"):
        wanted = {t.strip().lower() for t in p["topic"].split(",") if t.strip()}
        checks.append(lambda pr: wanted <= {t.lower() for t in pr.topics})
    if p.get("with_programming_language"):
        checks.append(lambda pr: False)
    if p.get("id_after") is not None and not (order_by == "id" and p["sort"] == "asc"):
        id_after = p["id_after"]
        checks.append(lambda pr: pr.id > id_after)
    if p.get("id_before") is not None and not (order_by == "id" and p["sort"] == "desc"):
        id_before = p["id_before"]
        checks.append(lambda pr: pr.id < id_before)
    if checks:
        selection = selection.filter(lambda pr: all(check(pr) for check in checks))
    if order_by == "id" and p["sort"] == "asc" and p.get("id_after") is not None:
        selection = selection.after((p["id_after"],))
    if order_by == "id" and p["sort"] == "desc" and p.get("id_before") is not None:
        selection = selection.after((p["id_before"],))
    return selection


def _owned_ids(ctx: Context) -> set[int]:
    """Projects in the caller's namespace and in groups the caller owns."""
    levels = authorized_projects(ctx.store, ctx.user, ctx.now)
    return {pid for pid, level in levels.items() if level >= OWNER}


def _topic_candidates(ctx: Context) -> set[int] | None:
    """The projects carrying every asked topic (``topic``, ``topic_id``), from the topic
    index; None when the request filters on no topic."""
    p = ctx.params
    wanted = [t.strip().lower() for t in (p.get("topic") or "").split(",") if t.strip()]
    if p.get("topic_id") is not None:
        topic = topic_models.topics(ctx.store).get(p["topic_id"])
        wanted.append(topic.name.lower() if topic is not None else "")
    if not wanted:
        return None
    index = projects(ctx.store).sorted["topic"]
    found = [{entry[-1] for entry in index.part(name)} for name in wanted]
    return set.intersection(*found)


def _member_ids(ctx: Context) -> set[int]:
    """The projects ``owned`` / ``membership`` / ``min_access_level`` leave."""
    p = ctx.params
    levels = authorized_projects(ctx.store, ctx.user, ctx.now)
    ids = set(levels)
    if p["owned"]:
        ids &= _owned_ids(ctx)
    if p.get("min_access_level"):
        ids = {pid for pid in ids if levels[pid] >= p["min_access_level"]}
    return ids


def _base_selection(ctx: Context, order_by: str, reverse: bool) -> Selection[Project]:
    p = ctx.params
    table = projects(ctx.store)
    sort = ORDERS[order_by]
    tagged = _topic_candidates(ctx)
    if tagged is not None:
        from fakeservice.members.access import can_read_project

        store, user, now = ctx.store, ctx.user, ctx.now
        records = [
            table.rows[i] for i in tagged if can_read_project(store, user, table.rows[i], now)
        ]
        if ctx.user is not None and (p["owned"] or p["membership"] or p.get("min_access_level")):
            member_ids = _member_ids(ctx)
            records = [pr for pr in records if pr.id in member_ids]
        return table.ordered(records, sort, reverse=reverse)
    if ctx.user is not None and (p["owned"] or p["membership"] or p.get("min_access_level")):
        ids = _member_ids(ctx)
        return table.ordered([table.rows[i] for i in ids], sort, reverse=reverse)
    if p.get("repository_storage") and ctx.is_admin and order_by == "id":
        return table.select("storage", [p["repository_storage"]], reverse=reverse)
    return visible_projects(ctx.store, ctx.user, ctx.now, order_by=order_by, reverse=reverse)


@api.get("/projects", params=LIST_PARAMS, keyset="Project")
def list_projects(ctx: Context) -> Any:
    """List all projects visible to the caller."""
    p = ctx.params
    order_by = "name" if p["order_by"] == "similarity" and not p.get("search") else p["order_by"]
    if order_by == "similarity":
        order_by = "name"
    reverse = p["sort"] == "desc"
    if ctx.wants_keyset and order_by != "id":
        raise MethodNotAllowed(error=KEYSET_UNAVAILABLE)
    selection = filter_projects(ctx, _base_selection(ctx, order_by, reverse), order_by=order_by)
    render = project_renderer(ctx)
    if ctx.wants_keyset:
        key = "id_before" if reverse else "id_after"
        return ctx.paginate_keyset(
            selection, render, next_params=lambda last: {key: last.id}, full_page_links=True
        )
    return ctx._paginator().offset(selection, render)


@api.get(
    "/users/:user_id/projects",
    params=(Param("user_id", STR, required=True), *LIST_PARAMS),
    paginated=True,
)
def list_user_projects(ctx: Context) -> Any:
    """Projects in a user's personal namespace that the caller may see."""
    from fakeservice.users.models import find_by_id_or_username

    owner = find_by_id_or_username(ctx.store, ctx.params["user_id"])
    if owner is None:
        raise NotFound("User")
    p = ctx.params
    order_by = p["order_by"] if p["order_by"] in ORDERS else "created_at"
    table = projects(ctx.store)
    selection = table.select(f"ns_by_{order_by}", [owner.namespace_id], reverse=p["sort"] == "desc")
    store, user, now = ctx.store, ctx.user, ctx.now
    from fakeservice.members.access import can_read_project

    selection = selection.filter(lambda pr: can_read_project(store, user, pr, now))
    return ctx.paginate(filter_projects(ctx, selection, order_by=order_by), project_renderer(ctx))


def _permissions(ctx: Context, project: Project) -> dict[str, Any]:
    user = ctx.user
    if user is None:
        return {"project_access": None, "group_access": None}
    member = find_member(ctx.store, PROJECT, project.id, user.id)
    ns = namespaces(ctx.store).rows[project.namespace_id]
    group_level = group_access(ctx.store, user, ns, ctx.now) if ns.is_group else 0
    return {
        "project_access": {"access_level": member.access_level, "notification_level": 3}
        if member
        else None,
        "group_access": {"access_level": group_level, "notification_level": 3}
        if group_level
        else None,
    }


# Areas add fields of a project's details that depend on the caller (e.g. the runners
# area's ``runners_token`` for maintainers): ``hook(ctx, project, out)`` may change ``out``.
PROJECT_DETAIL = "project.detail"


def project_detail(ctx: Context, project: Project) -> dict[str, Any]:
    out = project_full(ctx.store, project, ctx.base_url, viewer_is_admin=ctx.is_admin)
    if ctx.params.get("statistics") and access_level(ctx, project) >= REPORTER:
        out["statistics"] = statistics_view(project)
    if ctx.params.get("with_custom_attributes") and ctx.is_admin:
        out["custom_attributes"] = custom_attributes(project)
    if ctx.params.get("license"):
        out["license_url"] = None
        out["license"] = None
    out["permissions"] = _permissions(ctx, project)
    for hook in listeners(ctx.store, PROJECT_DETAIL):
        hook(ctx, project, out)
    return out


@api.get(
    "/projects/:id",
    params=(
        Param("id", STR, required=True),
        Param("statistics", BOOL, default=False),
        Param("license", BOOL, default=False),
        Param("with_custom_attributes", BOOL, default=False),
    ),
    auth=PUBLIC,
)
def get_project(ctx: Context) -> Any:
    """Get a project by id or URL-encoded path."""
    return project_detail(ctx, find_project_or_404(ctx, ctx.params["id"]))


EDIT_PARAMS = (*settings.PARAMS, Param("avatar", AVATAR_FILE))

# Areas react to project creation through the API (e.g. the repository area's
# ``initialize_with_readme``) by listening to this event: ``hook(ctx, project, params)``.
PROJECT_CREATED = "project.created"
# an administrator asked ``PUT /projects/:id`` for another ``repository_storage``:
# listeners ``hook(ctx, project, storage)`` schedule the move (or raise ValidationFailed,
# before anything changed); without listeners the field is set directly
PROJECT_STORAGE_CHANGE = "project.storage_change"
CreateHook = Callable[[Context, Project, dict[str, Any]], None]


def _changes(ctx: Context, project: Project | None) -> dict[str, Any]:
    """The settings the request writes, validated against ``project`` (None: a new one)."""
    changes = settings.requested(ctx.store, ctx.params, is_admin=ctx.is_admin)
    errors = settings.errors_of(project, changes)
    if errors:
        raise ValidationFailed(errors)
    return changes


# who may create projects in a group, by its ``project_creation_level`` (``noone`` and
# ``administrator``: administrators only)
CREATION_ROLES = {"developer": DEVELOPER, "maintainer": MAINTAINER, "owner": OWNER}


def _check_personal_limit(ctx: Context, creator: Any) -> None:
    """The creator's ``projects_limit`` bounds its personal projects (0: none at all)."""
    limit = creator.projects_limit
    owned = len(projects(ctx.store).sorted["ns_by_id"].part(creator.namespace_id))
    if owned < limit:
        return
    if limit == 0:
        message = (
            "Personal project creation is not allowed. "
            "Please contact your administrator with questions"
        )
    else:
        message = (
            f"Your project limit is {limit} projects! "
            "Please contact your administrator to increase it"
        )
    raise ValidationFailed({"limit_reached": [message]})


def namespace_by_key(ctx: Context, key: Any) -> Namespace | None:
    """The namespace of an id or a full path."""
    record_id = as_id(key)
    if record_id is not None:
        return namespaces(ctx.store).get(record_id)
    return find_namespace(ctx.store, str(key))


def grant_creator(ctx: Context, project: Project, creator: Any, namespace: Namespace) -> None:
    """A creator below Maintainer in the project's group becomes its Maintainer."""
    if (
        namespace.kind != "group"
        or group_access(ctx.store, creator, namespace, ctx.now) >= MAINTAINER
    ):
        return
    from fakeservice.members.models import add_member

    add_member(
        ctx.store,
        ctx.now,
        kind=PROJECT,
        source_id=project.id,
        user_id=creator.id,
        access_level=MAINTAINER,
    )


def may_create_in(ctx: Context, ns: Namespace) -> bool:
    """Whether the caller may create projects in ``ns``: its own namespace, or a group
    whose ``project_creation_level`` its role reaches (administrators: anywhere)."""
    if ctx.is_admin:
        return True
    if ns.kind == "user":
        return ns.owner_id == ctx.user.id
    needed = CREATION_ROLES.get(ns.project_creation_level)
    return needed is not None and group_access(ctx.store, ctx.user, ns, ctx.now) >= needed


def _target_namespace(ctx: Context) -> Namespace:
    key = ctx.params.get("namespace_id", ctx.params.get("namespace"))
    if key is None:
        return namespaces(ctx.store).rows[ctx.user.namespace_id]
    ns = namespace_by_key(ctx, key)
    if ns is None:
        raise NotFound("Namespace")
    if not may_create_in(ctx, ns):
        raise ValidationFailed({"namespace": ["is not valid"]})
    return ns


def _create_in(ctx: Context, namespace: Namespace, creator: Any) -> Any:
    """Validate, create (with its settings) and answer a new project of ``creator``."""
    changes = _changes(ctx, None)
    if namespace.kind == "user":
        _check_personal_limit(ctx, creator)
    changes.setdefault("visibility", "private")
    project = create_project(
        ctx.store,
        ctx.now,
        namespace=namespace,
        creator_id=creator.id,
        name=ctx.params.get("name"),
        path=ctx.params.get("path"),
        **settings.attributes_of(changes),
    )
    settings.apply(project, changes)
    if project.topics:
        topic_names = topic_models.canonical(ctx.store, ctx.now, project.topics)
        projects(ctx.store).update(project, topics=topic_names)
        topic_models.recount(ctx.store, topic_names)
    grant_creator(ctx, project, creator, namespace)
    for hook in listeners(ctx.store, PROJECT_CREATED):
        hook(ctx, project, ctx.params)
    attach(ctx.store, "project", project, ctx.params.get("avatar"))
    return project_detail(ctx, project)


CREATE_PARAMS = (
    Param("path", STR),
    Param("namespace_id", STR),
    Param("initialize_with_readme", BOOL, default=False),
    *EDIT_PARAMS,
)


@api.post(
    "/projects",
    params=(Param("name", STR), *CREATE_PARAMS),
    constraints=(AtLeastOne(("name", "path")),),
    auth=REQUIRED,
)
def create(ctx: Context) -> Any:
    """Create a project (in the caller's namespace unless ``namespace_id`` is given)."""
    return _create_in(ctx, _target_namespace(ctx), ctx.user)


@api.post(
    "/projects/user/:user_id",
    params=(
        Param("user_id", INT, required=True),
        Param("name", STR, required=True),
        *CREATE_PARAMS,
    ),
    auth=ADMIN,
)
def create_for_user(ctx: Context) -> Any:
    """Create a project owned by another user (administrators)."""
    from fakeservice.users.models import users

    owner = users(ctx.store).get(ctx.params["user_id"])
    if owner is None:
        raise NotFound("User")
    if ctx.params.get("namespace_id") is None:
        namespace = namespaces(ctx.store).rows[owner.namespace_id]
    else:
        namespace = _target_namespace(ctx)
    return _create_in(ctx, namespace, owner)


@api.put(
    "/projects/:id",
    params=(Param("id", STR, required=True), Param("name", STR), Param("path", STR), *EDIT_PARAMS),
    auth=REQUIRED,
)
def edit(ctx: Context) -> Any:
    """Edit a project (Maintainer; visibility, path and name changes need Owner-like rights)."""
    project = find_project_or_404(ctx, ctx.params["id"])
    require_access(ctx, project, MAINTAINER)
    p = ctx.params
    ns = namespaces(ctx.store).rows[project.namespace_id]
    name = p.get("name", project.name)
    path = p.get("path", project.path)
    changes = settings.requested(ctx.store, p, is_admin=ctx.is_admin)
    errors = project_errors(
        ctx.store,
        ns,
        name=name,
        path=path,
        visibility=changes.get("visibility", project.visibility),
        exclude=project.id,
    )
    for key, found in settings.errors_of(project, changes).items():
        errors.setdefault(key, []).extend(found)
    if errors:
        raise ValidationFailed(errors)
    movers = listeners(ctx.store, PROJECT_STORAGE_CHANGE)
    if movers and "repository_storage" in changes:
        storage = changes.pop("repository_storage")
        if storage != project.repository_storage:
            for hook in movers:
                hook(ctx, project, storage)
    old_topics = list(project.topics)
    if "topics" in changes:
        changes["topics"] = topic_models.canonical(ctx.store, ctx.now, changes["topics"])
    fields = settings.apply(project, changes)
    if "name" in p or "path" in p:
        fields.update(
            name=name,
            path=path,
            path_with_namespace=f"{ns.full_path}/{path}",
            name_with_namespace=f"{ns.full_name} / {name}",
        )
    projects(ctx.store).update(project, updated_at=ctx.now, **fields)
    if "topics" in changes or "visibility" in changes:
        topic_models.recount(ctx.store, [*old_topics, *project.topics])
    attach(ctx.store, "project", project, ctx.params.get("avatar"))
    return project_detail(ctx, project)


@api.delete("/projects/:id", params=(Param("id", STR, required=True),), auth=REQUIRED)
def delete(ctx: Context) -> Any:
    """Delete a project (Owner): answers 202 as the real service does."""
    from fakeservice.core.errors import ApiError
    from fakeservice.projects.models import delete_project

    project = find_project_or_404(ctx, ctx.params["id"])
    require_access(ctx, project, OWNER)
    require_unmodified_since(ctx.request, project.updated_at)
    delete_project(ctx.store, project)
    raise ApiError({"message": "202 Accepted"}, status=202)


def _set_archived(ctx: Context, archived: bool) -> Any:
    project = find_project_or_404(ctx, ctx.params["id"])
    require_access(ctx, project, MAINTAINER)
    projects(ctx.store).update(project, archived=archived, updated_at=ctx.now)
    return project_detail(ctx, project)


@api.post("/projects/:id/archive", params=(Param("id", STR, required=True),), auth=REQUIRED)
def archive(ctx: Context) -> Any:
    """Archive a project (Maintainer)."""
    return _set_archived(ctx, True)


@api.post("/projects/:id/unarchive", params=(Param("id", STR, required=True),), auth=REQUIRED)
def unarchive(ctx: Context) -> Any:
    """Unarchive a project (Maintainer)."""
    return _set_archived(ctx, False)


@api.post("/projects/:id/star", params=(Param("id", STR, required=True),), auth=REQUIRED)
def star(ctx: Context) -> Any:
    """Star a project; 304 when already starred."""
    from fakeservice.core.errors import NotModified

    project = find_project_or_404(ctx, ctx.params["id"])
    starred = _stars(ctx).setdefault(ctx.user.id, set())
    if project.id in starred:
        raise NotModified()
    starred.add(project.id)
    projects(ctx.store).update(project, star_count=project.star_count + 1)
    return project_detail(ctx, project)


@api.post("/projects/:id/unstar", params=(Param("id", STR, required=True),), auth=REQUIRED)
def unstar(ctx: Context) -> Any:
    """Unstar a project; 304 when not starred."""
    from fakeservice.core.errors import NotModified

    project = find_project_or_404(ctx, ctx.params["id"])
    starred = _stars(ctx).setdefault(ctx.user.id, set())
    if project.id not in starred:
        raise NotModified()
    starred.discard(project.id)
    projects(ctx.store).update(project, star_count=max(0, project.star_count - 1))
    return project_detail(ctx, project)
