"""Groups endpoints (seed 001 §4.7): the group list (offset and, for anonymous callers,
keyset), subgroups, descendant groups, group projects and shared projects, group details,
and create / update / delete as the real service offers them.

Which groups a list shows (as the real service's groups finder):

* anonymous callers: public groups only (``owned`` gives nothing, ``min_access_level`` is
  ignored);
* ``owned=true``: groups the caller is a direct Owner of; ``min_access_level``: groups the
  caller is a direct member of at that role or above, with their descendants;
* administrators with ``all_available`` (their default): every group;
* everyone else with ``all_available=true``: public groups, internal ones unless the caller
  is external, plus the membership groups below;
* ``all_available=false`` (the default for non-administrators, also for subgroups and
  descendant groups): the membership groups only, that is the groups the caller is a
  direct member of with their descendants and ancestors, and the groups (with ancestors)
  of projects the caller is a direct member of.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from sortedcontainers import SortedList

from fakeservice.avatars.models import AVATAR_FILE, attach
from fakeservice.core.errors import Forbidden, MethodNotAllowed, ParamError, ValidationFailed
from fakeservice.core.store import Selection, SortKey, Table
from fakeservice.groups import settings
from fakeservice.groups.lookup import find_group_or_404, group_access_level, require_group_access
from fakeservice.groups.models import (
    VISIBILITIES,
    Namespace,
    create_group,
    delete_group,
    descendants,
    namespaces,
    update_group,
)
from fakeservice.groups.views import group_detail, group_view
from fakeservice.members.access import (
    authorized_projects,
    direct_group_levels,
    member_group_ids,
    share_active,
    visible_by_level,
)
from fakeservice.members.models import MAINTAINER, NAMESPACE, OWNER, add_member
from fakeservice.projects.models import ORDERS, Project, projects
from fakeservice.projects.routes import filter_projects, project_renderer
from fakeservice.web.conditional import require_unmodified_since
from fakeservice.web.context import Context
from fakeservice.web.http import Response, json_response
from fakeservice.web.pagination import KEYSET_UNAVAILABLE, decode_cursor, encode_cursor
from fakeservice.web.params import BOOL, HASH, INT, STR, Array, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("groups")

ACCESS_LEVELS = (10, 15, 20, 30, 40, 50)
GROUP_SORTS: dict[str, Callable[[Namespace], SortKey]] = {
    "name": lambda g: (g.name.lower(),),
    "path": lambda g: (g.path.lower(),),
    "id": lambda g: (),
}
DETAIL_PROJECTS_LIMIT = 100


# -- text matching -------------------------------------------------------------------------
MIN_PARTIAL_MATCH = 3
_QUOTED = re.compile(r'(?:(?<=^)|(?<= ))"[^"]+"(?= |$)')
_WORD = re.compile(r"[^\W_]+")


def _search_terms(query: str) -> list[str]:
    """Words of at least three characters (quoted phrases kept whole), as the service splits them."""
    quoted = [term.strip('"') for term in _QUOTED.findall(query)]
    rest = _QUOTED.sub(" ", query).split()
    return [term.lower() for term in [*quoted, *rest] if len(term) >= MIN_PARTIAL_MATCH]


def fuzzy_match(query: str, values: Iterable[str | None]) -> bool:
    """Whether one value holds every search word; with no word of three characters or
    more, whether one value equals the whole query (case-insensitively)."""
    query = " ".join(query.split())
    terms = _search_terms(query)
    for value in values:
        text = (value or "").lower()
        if terms and all(term in text for term in terms):
            return True
        if not terms and text == query.lower():
            return True
    return False


def _trigrams(text: str) -> set[str]:
    grams: set[str] = set()
    for word in _WORD.findall(text.lower()):
        padded = f"  {word} "
        grams.update(padded[i : i + 3] for i in range(len(padded) - 2))
    return grams


def similarity(left: str | None, right: str) -> float:
    """Trigram similarity (shared trigrams over all trigrams), as the database computes it."""
    mine, theirs = _trigrams(left or ""), _trigrams(right)
    union = mine | theirs
    return len(mine & theirs) / len(union) if union else 0.0


def _by_similarity(
    table: Table[Any], records: Iterable[Any], score: Callable[[Any], float]
) -> Selection[Any]:
    """Records ordered by descending score, then descending id."""
    return table.ordered(list(records), lambda r: (-score(r), -r.id))


# -- group lists ---------------------------------------------------------------------------
def _list_params(orders: tuple[str, ...]) -> tuple[Param, ...]:
    return (
        Param("statistics", BOOL, default=False),
        Param("skip_groups", Array(INT, scalar=True, comma=True)),
        Param("all_available", BOOL),
        Param("visibility", STR, values=VISIBILITIES),
        Param("search", STR),
        Param("owned", BOOL, default=False),
        Param("order_by", STR, default="name", values=orders),
        Param("sort", STR, default="asc", values=("asc", "desc")),
        Param("min_access_level", INT, values=ACCESS_LEVELS),
        Param("with_custom_attributes", BOOL, default=False),
        Param("custom_attributes", HASH),
    )


LIST_PARAMS = (
    *_list_params(("name", "path", "id", "similarity")),
    Param("top_level_only", BOOL),
    Param("cursor", STR),
)
BELOW_PARAMS = (Param("id", STR, required=True), *_list_params(("name", "path", "id")))


def group_renderer(ctx: Context) -> Callable[[Namespace], dict[str, Any]]:
    stats = bool(ctx.params.get("statistics")) and ctx.is_admin
    attrs = bool(ctx.params.get("with_custom_attributes")) and ctx.is_admin

    def render(group: Namespace) -> dict[str, Any]:
        return group_view(
            ctx.store, group, ctx.base_url, statistics=stats, with_custom_attributes=attrs
        )

    return render


def _chosen_ids(ctx: Context) -> set[int] | None:
    """The explicit set of group ids the caller's list is drawn from, or None when the list
    is drawn from the visibility indexes (public / internal / all)."""
    p = ctx.params
    if ctx.user is None:
        return set() if p["owned"] else None
    if p["owned"]:
        return {
            g
            for g, level in direct_group_levels(ctx.store, ctx.user, ctx.now).items()
            if level >= OWNER
        }
    if p.get("min_access_level") is not None:
        levels = direct_group_levels(ctx.store, ctx.user, ctx.now)
        table = namespaces(ctx.store)
        out: set[int] = set()
        for group_id, level in levels.items():
            if level >= p["min_access_level"]:
                out.add(group_id)
                out.update(d.id for d in descendants(ctx.store, table.rows[group_id]))
        return out
    all_available = p.get("all_available")
    if all_available is None:
        all_available = ctx.is_admin
    if not all_available:
        return member_group_ids(ctx.store, ctx.user, ctx.now)
    return None


def _visible_levels(ctx: Context) -> list[str] | None:
    """Visibility partitions everyone in the caller's position sees (None: every group)."""
    if ctx.is_admin:
        return None
    return ["public"] + (["internal"] if visible_by_level(ctx.user, "internal") else [])


def _in_scope(
    group: Namespace, *, top_only: bool, parent: Namespace | None, below: set[int] | None
) -> bool:
    if top_only and group.parent_id is not None:
        return False
    if below is not None:
        return group.id in below
    return parent is None or group.parent_id == parent.id


def _scoped_groups(
    ctx: Context,
    order: str,
    reverse: bool,
    *,
    top_only: bool,
    parent: Namespace | None,
    deep: bool,
) -> Selection[Namespace]:
    """The groups the caller may list in a scope (all, top level, children, descendants)."""
    store = ctx.store
    table = namespaces(store)
    sort = GROUP_SORTS[order]
    below = {d.id for d in descendants(store, parent)} if parent is not None and deep else None
    chosen = _chosen_ids(ctx)
    if chosen is not None:
        records = [table.rows[i] for i in chosen if i in table.rows]
        kept = [g for g in records if _in_scope(g, top_only=top_only, parent=parent, below=below)]
        return table.ordered(kept, sort, reverse=reverse)
    levels = _visible_levels(ctx)
    members = member_group_ids(store, ctx.user, ctx.now) if levels and ctx.user else set()

    def visible(group: Namespace) -> bool:
        return levels is None or group.visibility in levels or group.id in members

    if parent is not None and not deep:
        selection = table.select(f"children_by_{order}", [parent.id], reverse=reverse)
        return selection if levels is None else selection.filter(visible)
    if below is not None:
        records = [table.rows[i] for i in below]
        return table.ordered([g for g in records if visible(g)], sort, reverse=reverse)
    prefix = "top" if top_only else "groups"
    if levels is None:
        return table.select(f"{prefix}_by_{order}", ["top" if top_only else "all"], reverse=reverse)
    index = table.sorted[f"{prefix}_vis_by_{order}"]
    sources = [index.part(level) for level in levels]
    extra = [table.rows[i] for i in members if table.rows[i].visibility not in levels]
    extra = [g for g in extra if not top_only or g.parent_id is None]
    if extra:
        sources.append(SortedList((*sort(g), g.id) for g in extra))
    return Selection(table, sources, reverse=reverse)


def _all_of(checks: list[Callable[[Any], bool]]) -> Callable[[Any], bool] | None:
    """One predicate for all checks; None when there is none (the selection stays plain)."""
    if not checks:
        return None
    return lambda record: all(check(record) for check in checks)


def _group_filters(ctx: Context, *, full_search: bool) -> Callable[[Namespace], bool] | None:
    p = ctx.params
    checks: list[Callable[[Namespace], bool]] = []
    if p.get("skip_groups"):
        skipped = set(p["skip_groups"])
        checks.append(lambda g: g.id not in skipped)
    if p.get("visibility"):
        wanted = p["visibility"]
        checks.append(lambda g: g.visibility == wanted)
    if p.get("search"):
        query = p["search"]
        if full_search:
            checks.append(lambda g: fuzzy_match(query, (g.full_path, g.full_name)))
        else:
            checks.append(lambda g: fuzzy_match(query, (g.path, g.name)))
    if p.get("custom_attributes") and ctx.is_admin:
        pairs = {str(k): str(v) for k, v in p["custom_attributes"].items()}
        checks.append(lambda g: all(g.custom_attributes.get(k) == v for k, v in pairs.items()))
    return _all_of(checks)


def _groups(
    ctx: Context, *, top_only: bool = False, parent: Namespace | None = None, deep: bool = False
) -> Selection[Namespace]:
    """The filtered, ordered selection of a group list request."""
    p = ctx.params
    order, reverse = p["order_by"], p["sort"] == "desc"
    ranked = order == "similarity" and bool(p.get("search"))
    if order == "similarity":
        order = "name"
    selection = _scoped_groups(ctx, order, reverse, top_only=top_only, parent=parent, deep=deep)
    selection = selection.filter(_group_filters(ctx, full_search=parent is None))
    if ranked:
        query = p["search"]
        selection = _by_similarity(
            namespaces(ctx.store),
            selection,
            lambda g: similarity(g.path, query) + 0.7 * similarity(g.name, query),
        )
    return selection


def _cursor_entry(cursor: str) -> SortKey:
    data = decode_cursor(cursor)
    if not data or not isinstance(data.get("name"), str) or not isinstance(data.get("id"), int):
        raise ParamError("cursor is invalid")
    return (data["name"].lower(), data["id"])


def _keyset_groups(ctx: Context) -> Response:
    """Keyset pages: anonymous callers ordering by name ascending only."""
    p = ctx.params
    if ctx.user is not None or p["order_by"] != "name" or p["sort"] != "asc":
        raise MethodNotAllowed(error=KEYSET_UNAVAILABLE)
    selection = _groups(ctx, top_only=bool(p.get("top_level_only")))
    if p.get("cursor"):
        selection = selection.after(_cursor_entry(p["cursor"]))
    return ctx.paginate_keyset(
        selection,
        group_renderer(ctx),
        next_params=lambda g: {"cursor": encode_cursor({"name": g.name, "id": g.id, "_kd": "n"})},
        full_page_links=False,
    )


@api.get("/groups", params=LIST_PARAMS, keyset="Group")
def list_groups(ctx: Context) -> Any:
    """List the groups visible to the caller."""
    if ctx.wants_keyset:
        return _keyset_groups(ctx)
    selection = _groups(ctx, top_only=bool(ctx.params.get("top_level_only")))
    return ctx.paginate(selection, group_renderer(ctx))


@api.get("/groups/:id/subgroups", params=BELOW_PARAMS, paginated=True)
def list_subgroups(ctx: Context) -> Any:
    """List the direct subgroups of a group visible to the caller."""
    parent = find_group_or_404(ctx, ctx.params["id"])
    return ctx.paginate(_groups(ctx, parent=parent), group_renderer(ctx))


@api.get("/groups/:id/descendant_groups", params=BELOW_PARAMS, paginated=True)
def list_descendant_groups(ctx: Context) -> Any:
    """List every descendant group of a group visible to the caller."""
    parent = find_group_or_404(ctx, ctx.params["id"])
    return ctx.paginate(_groups(ctx, parent=parent, deep=True), group_renderer(ctx))


# -- group projects ------------------------------------------------------------------------
PROJECT_ORDERS = ("id", "name", "path", "created_at", "updated_at", "last_activity_at")


def _project_list_params(orders: tuple[str, ...]) -> tuple[Param, ...]:
    return (
        Param("id", STR, required=True),
        Param("archived", BOOL),
        Param("visibility", STR, values=VISIBILITIES),
        Param("order_by", STR, default="created_at", values=orders),
        Param("sort", STR, default="desc", values=("asc", "desc")),
        Param("search", STR),
        Param("simple", BOOL, default=False),
        Param("starred", BOOL, default=False),
        Param("with_issues_enabled", BOOL, default=False),
        Param("with_merge_requests_enabled", BOOL, default=False),
        Param("min_access_level", INT, values=ACCESS_LEVELS),
        Param("with_custom_attributes", BOOL, default=False),
        Param("custom_attributes", HASH),
    )


GROUP_PROJECT_PARAMS = (
    *_project_list_params((*PROJECT_ORDERS, "similarity")),
    Param("owned", BOOL, default=False),
    Param("with_shared", BOOL, default=True),
    Param("include_subgroups", BOOL, default=False),
    Param("with_security_reports", BOOL, default=False),
)
SHARED_PROJECT_PARAMS = _project_list_params(PROJECT_ORDERS)


def _project_sources(
    ctx: Context,
    group: Namespace,
    order: str,
    *,
    own: bool,
    shared: bool,
    include_subgroups: bool,
) -> list[SortedList]:
    """Sorted sources: the group's (and subgroups') projects, and projects shared with it."""
    table = projects(ctx.store)
    groups = [group, *(descendants(ctx.store, group) if include_subgroups else ())]
    inside = {g.id for g in groups}
    sources = []
    if own:
        index = table.sorted[f"ns_by_{order}"]
        sources.extend(index.part(g.id) for g in groups)
    if shared:
        sort = ORDERS[order]
        records = [table.rows[e[-1]] for e in table.sorted["shared_with"].part(group.id)]
        records = [pr for pr in records if _shared_now(pr, group, ctx.now)]
        if own:
            records = [pr for pr in records if pr.namespace_id not in inside]
        if records:
            sources.append(SortedList((*sort(pr), pr.id) for pr in records))
    return sources


def _shared_now(project: Project, group: Namespace, now: Any) -> bool:
    """Whether the project's share with the group has not expired."""
    return any(
        share["group_id"] == group.id and share_active(share, now)
        for share in project.shared_with_groups
    )


def _project_visibility(
    ctx: Context, *, owned: bool = False, min_level: int | None = None
) -> Callable[[Project], bool] | None:
    """Which projects the caller may list (public only when anonymous, roles for owned /
    min_access_level, all for administrators, else public/internal plus authorized)."""
    user = ctx.user
    if user is None:
        return lambda pr: pr.visibility == "public"
    if owned or min_level is not None:
        wanted = OWNER if owned else min_level
        levels = authorized_projects(ctx.store, user, ctx.now)
        return lambda pr: levels.get(pr.id, 0) >= wanted
    if ctx.is_admin:
        return None
    levels = authorized_projects(ctx.store, user, ctx.now)
    open_levels = ("public", "internal") if visible_by_level(user, "internal") else ("public",)
    return lambda pr: pr.visibility in open_levels or pr.id in levels


def _project_extra_filters(ctx: Context) -> Callable[[Project], bool] | None:
    p = ctx.params
    checks: list[Callable[[Project], bool]] = []
    if p.get("custom_attributes") and ctx.is_admin:
        pairs = {str(k): str(v) for k, v in p["custom_attributes"].items()}
        checks.append(lambda pr: all(pr.custom_attributes.get(k) == v for k, v in pairs.items()))
    if p.get("with_security_reports"):
        # no project of the fake has security report artifacts
        checks.append(lambda pr: False)
    return _all_of(checks)


def _project_score(query: str) -> Callable[[Project], float]:
    return lambda pr: (
        similarity(pr.path, query)
        + 0.7 * similarity(pr.name, query)
        + 0.2 * similarity(pr.description, query)
    )


def _group_projects(ctx: Context, *, own: bool, shared: bool, include_subgroups: bool) -> Any:
    p = ctx.params
    group = find_group_or_404(ctx, p["id"])
    table = projects(ctx.store)
    order, reverse = p["order_by"], p["sort"] == "desc"
    ranked = order == "similarity" and bool(p.get("search"))
    if order == "similarity":
        order, reverse = "name", False
    sources = _project_sources(
        ctx, group, order, own=own, shared=shared, include_subgroups=include_subgroups
    )
    selection = Selection(table, sources, reverse=reverse)
    selection = selection.filter(
        _project_visibility(ctx, owned=bool(p.get("owned")), min_level=p.get("min_access_level"))
    )
    selection = filter_projects(ctx, selection, order_by=order)
    selection = selection.filter(_project_extra_filters(ctx))
    if ranked:
        selection = _by_similarity(table, selection, _project_score(p["search"]))
    return ctx.paginate(selection, project_renderer(ctx))


@api.get("/groups/:id/projects", params=GROUP_PROJECT_PARAMS, paginated=True)
def list_group_projects(ctx: Context) -> Any:
    """List a group's projects (and, by default, projects shared with it)."""
    p = ctx.params
    return _group_projects(
        ctx, own=True, shared=p["with_shared"], include_subgroups=p["include_subgroups"]
    )


@api.get("/groups/:id/projects/shared", params=SHARED_PROJECT_PARAMS, paginated=True)
def list_shared_projects(ctx: Context) -> Any:
    """List the projects shared with a group."""
    return _group_projects(ctx, own=False, shared=True, include_subgroups=False)


# -- details -------------------------------------------------------------------------------
def _detail_projects(ctx: Context, group: Namespace, *, own: bool) -> list[dict[str, Any]]:
    """The deprecated ``projects`` / ``shared_projects`` arrays: newest first, at most 100."""
    sources = _project_sources(ctx, group, "id", own=own, shared=not own, include_subgroups=False)
    selection = Selection(projects(ctx.store), sources, reverse=True)
    selection = selection.filter(_project_visibility(ctx))
    selection = selection.filter(lambda pr: pr.marked_for_deletion_on is None)
    render = project_renderer(ctx)
    return [render(pr) for pr in selection.slice(0, DETAIL_PROJECTS_LIMIT)]


def group_answer(ctx: Context, group: Namespace, *, with_projects: bool) -> dict[str, Any]:
    """The group detail as the group endpoints answer it (for the caller)."""
    return group_detail(
        ctx.store,
        group,
        ctx.base_url,
        with_custom_attributes=bool(ctx.params.get("with_custom_attributes")) and ctx.is_admin,
        runners_token=group_access_level(ctx, group) >= OWNER,
        projects_list=_detail_projects(ctx, group, own=True) if with_projects else None,
        shared_projects_list=_detail_projects(ctx, group, own=False) if with_projects else None,
    )


@api.get(
    "/groups/:id",
    params=(
        Param("id", STR, required=True),
        Param("with_custom_attributes", BOOL, default=False),
        Param("with_projects", BOOL, default=True),
    ),
)
def get_group(ctx: Context) -> Any:
    """Get a group by id or URL-encoded full path."""
    group = find_group_or_404(ctx, ctx.params["id"])
    return group_answer(ctx, group, with_projects=ctx.params["with_projects"])


# -- create, update, delete ----------------------------------------------------------------
SETTINGS_PARAMS = (*settings.TABLE.params, Param("avatar", AVATAR_FILE))


def _settings(ctx: Context) -> dict[str, Any]:
    """The settings the request writes, checked by each row's model validation."""
    changes = settings.TABLE.requested(ctx.store, ctx.params, is_admin=ctx.is_admin)
    errors = settings.TABLE.errors(changes)
    if errors:
        raise ValidationFailed(errors)
    return changes


def _require_subgroup_creation(ctx: Context, parent: Namespace) -> None:
    needed = OWNER if parent.subgroup_creation_level == "owner" else MAINTAINER
    require_group_access(ctx, parent, needed)


@api.post(
    "/groups",
    params=(
        Param("name", STR, required=True),
        Param("path", STR, required=True),
        Param("parent_id", INT),
        *SETTINGS_PARAMS,
    ),
    auth=REQUIRED,
)
def create(ctx: Context) -> Any:
    """Create a group (or a subgroup with ``parent_id``); the creator becomes its Owner."""
    p = ctx.params
    parent = None
    if p.get("parent_id") is not None:
        parent = find_group_or_404(ctx, p["parent_id"])
        _require_subgroup_creation(ctx, parent)
    elif not (ctx.is_admin or ctx.user.can_create_group):
        raise Forbidden()
    changes = _settings(ctx)
    changes.setdefault("visibility", "private")
    fields = settings.TABLE.attributes_of(changes)
    group = create_group(
        ctx.store, ctx.now, name=p["name"], path=p["path"], parent=parent, **fields
    )
    settings.TABLE.apply(group, changes)
    add_member(
        ctx.store,
        ctx.now,
        kind=NAMESPACE,
        source_id=group.id,
        user_id=ctx.user.id,
        access_level=OWNER,
        created_by_id=ctx.user.id,
    )
    attach(ctx.store, "group", group, p.get("avatar"))
    return group_answer(ctx, group, with_projects=True)


@api.put(
    "/groups/:id",
    params=(
        Param("id", STR, required=True),
        Param("name", STR),
        Param("path", STR),
        *SETTINGS_PARAMS,
    ),
    auth=REQUIRED,
)
def edit(ctx: Context) -> Any:
    """Update a group's name, path and settings (Owner)."""
    p = ctx.params
    group = find_group_or_404(ctx, p["id"])
    require_group_access(ctx, group, OWNER)
    changes = _settings(ctx)
    fields = settings.TABLE.attributes_of(changes)
    for name in ("name", "path"):
        if name in p:  # a null name or path is refused by validation, not ignored
            fields[name] = p[name]
    update_group(ctx.store, group, ctx.now, **fields)
    settings.TABLE.apply(group, changes)
    attach(ctx.store, "group", group, p.get("avatar"))
    return group_answer(ctx, group, with_projects=True)


@api.delete("/groups/:id", params=(Param("id", STR, required=True),), auth=REQUIRED)
def delete(ctx: Context) -> Any:
    """Delete a group with its subgroups and projects (Owner); answers 202 as the service does."""
    group = find_group_or_404(ctx, ctx.params["id"])
    require_group_access(ctx, group, OWNER)
    require_unmodified_since(ctx.request, group.updated_at)
    delete_group(ctx.store, group)
    return json_response({"message": "202 Accepted"}, 202)
