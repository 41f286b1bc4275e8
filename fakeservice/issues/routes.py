"""Issue endpoints: ``/projects/:id/issues`` (list, create), ``/projects/:id/issues/:issue_iid``
(get, update with ``state_event``, delete), the cross-project lists ``/issues`` and
``/groups/:id/issues``, and ``/issues/:id`` (one issue by its global id; administrators).

Confidential issues are visible to Reporters and up, their author and assignees; others
get 404 for them and do not see them in lists. Creating needs a signed-in caller who can
see the project; updating needs Reporter or authorship; deleting needs Owner.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import Forbidden, NotFound, ValidationFailed
from fakeservice.core.store import Selection
from fakeservice.groups.lookup import find_group_or_404
from fakeservice.issues import events, filters, listing, models, writes
from fakeservice.issues.views import issue_view
from fakeservice.labels import models as labels
from fakeservice.labels.views import register_counter
from fakeservice.members.models import OWNER, REPORTER
from fakeservice.projects.lookup import access_level, find_project_or_404
from fakeservice.projects.models import Project, projects
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, DATE, DATETIME, INT, STR, AtLeastOne, Param
from fakeservice.web.routing import ADMIN, PUBLIC, REQUIRED, AreaRouter

api = AreaRouter("issues")

PROJECT_ID = Param(
    "id", STR, required=True, description="The ID or URL-encoded path of the project"
)
GROUP_ID = Param("id", STR, required=True, description="The ID or URL-encoded path of the group")
IID = Param("issue_iid", INT, required=True, description="The issue's iid in its project")
LIST_PARAMS = (
    Param("state", STR, values=("opened", "closed", "all"), default="all"),
    Param(
        "scope",
        STR,
        values=("created_by_me", "assigned_to_me", "all", "created-by-me", "assigned-to-me"),
    ),
    Param("order_by", STR, values=("created_at", "updated_at"), default="created_at"),
    Param("sort", STR, values=("asc", "desc"), default="desc"),
    Param("confidential", BOOL),
    Param("with_labels_details", BOOL, default=False),
    *filters.COMMON,
)
EDIT_FIELDS = (
    "title",
    "description",
    "confidential",
    "assignee_id",
    "assignee_ids",
    "milestone_id",
    "labels",
    "add_labels",
    "remove_labels",
    "state_event",
    "updated_at",
    "due_date",
    "discussion_locked",
    "weight",
)
WRITE_PARAMS = (
    Param("description", STR),
    Param("confidential", BOOL),
    *writes.LABEL_PARAMS,
    *writes.PEOPLE_PARAMS,
    Param("due_date", DATE),
    Param("discussion_locked", BOOL),
    Param("weight", INT),
)


def may_see(ctx: Context, project: Project, record: models.Issue, role: int | None = None) -> bool:
    """Whether the caller may see ``record`` (confidential issues are restricted)."""
    if not record.confidential:
        return True
    user = ctx.user
    if user is None:
        return False
    if role is None:
        role = access_level(ctx, project)
    return role >= REPORTER or user.id == record.author_id or user.id in record.assignee_ids


def find_issue(ctx: Context, project: Project, iid: int) -> models.Issue:
    """The issue ``iid`` of ``project`` if the caller may see it, else 404 Not found."""
    record = models.find(ctx.store, project.id, iid)
    if record is None or not may_see(ctx, project, record):
        raise NotFound()
    return record


def _render(ctx: Context, *, single: bool = False) -> Any:
    details = bool(ctx.params.get("with_labels_details"))
    caller_id = ctx.user.id if ctx.user is not None else None
    return lambda record: issue_view(
        ctx.store,
        record,
        ctx.base_url,
        ctx.now,
        caller_id=caller_id,
        single=single,
        label_details=details,
    )


def _scope_predicate(ctx: Context, default: str) -> Any:
    scope = (ctx.params.get("scope") or default).replace("-", "_")
    user = ctx.user
    if scope == "all":
        return None
    if user is None:
        return lambda r: False
    if scope == "created_by_me":
        return lambda r: r.author_id == user.id
    return lambda r: user.id in r.assignee_ids


def _list_predicates(
    ctx: Context,
    owners: list[labels.Owner] | None,
    default_scope: str,
    labels_served: bool = False,
    state_served: bool = False,
) -> list[Any]:
    p = ctx.params
    caller = ctx.user.id if ctx.user is not None else None
    params = listing.without_labels(p) if labels_served else p
    found = filters.predicates(ctx.store, owners, params, user_id=caller)
    if p.get("state") and p["state"] != "all" and not state_served:
        state = p["state"]
        found.append(lambda r: r.state == state)
    if p.get("confidential") is not None:
        wanted = p["confidential"]
        found.append(lambda r: r.confidential == wanted)
    if p.get("iids"):
        iids = set(p["iids"])
        found.append(lambda r: r.iid in iids)
    scope = _scope_predicate(ctx, default_scope)
    if scope is not None:
        found.append(scope)
    return found


def _visible_confidential(ctx: Context) -> Any:
    """Across projects: hide confidential issues the caller may not see."""
    table = projects(ctx.store)
    roles: dict[int, int] = {}

    def visible(record: models.Issue) -> bool:
        if not record.confidential:
            return True
        if record.project_id not in roles:
            roles[record.project_id] = access_level(ctx, table.rows[record.project_id])
        return may_see(ctx, table.rows[record.project_id], record, roles[record.project_id])

    return visible


@api.get(
    "/projects/:id/issues",
    params=(PROJECT_ID, filters.iids_param(), *LIST_PARAMS),
    constraints=filters.EXCLUSIVE,
    auth=PUBLIC,
    paginated=True,
)
def list_project_issues(ctx: Context) -> Any:
    """List a project's issues with the common filters."""
    project = find_project_or_404(ctx, ctx.params["id"])
    p = ctx.params
    owners = labels.owners_of_project(ctx.store, project)
    sets = listing.first_label_sets(ctx.store, project, p)
    state = p.get("state")
    selection = listing.project_selection(
        models.issues(ctx.store), project.id, p["order_by"], p["sort"] == "desc", sets, state
    )
    role = access_level(ctx, project)
    served = (listing.served_by_index(sets), listing.served_by_state(sets, state))
    found = _list_predicates(ctx, owners, "all", *served)
    if role < REPORTER:  # Reporters and up see every issue: no predicate to walk
        found.append(lambda r: may_see(ctx, project, r, role))
    return ctx.paginate(selection.filter(filters.combine(found)), _render(ctx))


def _cross_project(ctx: Context, project_ids: list[int] | None, default_scope: str) -> Any:
    p = ctx.params
    selection: Selection[Any] = listing.projects_selection(
        models.issues(ctx.store), project_ids, p["order_by"], p["sort"] == "desc"
    )
    found = _list_predicates(ctx, None, default_scope)
    found.append(listing.readable_projects(ctx.store, ctx.user, ctx.now))
    found.append(_visible_confidential(ctx))
    return ctx.paginate(selection.filter(filters.combine(found)), _render(ctx))


@api.get(
    "/issues",
    params=(filters.iids_param(), *LIST_PARAMS),
    constraints=filters.EXCLUSIVE,
    auth=REQUIRED,
    paginated=True,
)
def list_issues(ctx: Context) -> Any:
    """List issues the caller can see (``scope`` defaults to ``created_by_me``)."""
    return _cross_project(ctx, None, "created_by_me")


@api.get(
    "/groups/:id/issues",
    params=(GROUP_ID, filters.iids_param(), *LIST_PARAMS),
    constraints=filters.EXCLUSIVE,
    auth=PUBLIC,
    paginated=True,
)
def list_group_issues(ctx: Context) -> Any:
    """List the issues of a group's projects and its subgroups' projects."""
    group = find_group_or_404(ctx, ctx.params["id"])
    ids = listing.group_project_ids(ctx.store, group)
    return _cross_project(ctx, ids, "all")


@api.get("/projects/:id/issues/:issue_iid", params=(PROJECT_ID, IID), auth=PUBLIC)
def get_issue(ctx: Context) -> Any:
    """Get one issue."""
    project = find_project_or_404(ctx, ctx.params["id"])
    return _render(ctx, single=True)(find_issue(ctx, project, ctx.params["issue_iid"]))


@api.get(
    "/issues/:id",
    params=(Param("id", INT, required=True, description="The issue's global ID"),),
    auth=ADMIN,
)
def get_issue_by_id(ctx: Context) -> Any:
    """Get one issue by its global ID (administrators only)."""
    record = models.issues(ctx.store).get(ctx.params["id"])
    if record is None:
        raise NotFound()
    return _render(ctx, single=True)(record)


@api.post(
    "/projects/:id/issues",
    params=(
        PROJECT_ID,
        Param("title", STR, required=True),
        *WRITE_PARAMS,
        Param("created_at", DATETIME),
        Param("iid", INT),
        Param("issue_type", STR, values=("issue", "incident", "test_case", "task")),
    ),
    auth=REQUIRED,
)
def create_issue(ctx: Context) -> Any:
    """Create an issue (201); ``created_at`` and ``iid`` need the Owner role or admin."""
    project = find_project_or_404(ctx, ctx.params["id"])
    p = ctx.params
    errors = models.field_errors(p.get("title"), p.get("description"))
    if errors:
        raise ValidationFailed(errors)
    if p.get("iid") is not None and models.find(ctx.store, project.id, p["iid"]) is not None:
        raise ValidationFailed({"iid": ["has already been taken"]})
    role = access_level(ctx, project)
    backdated = p.get("created_at") if role >= OWNER else None
    iid = p.get("iid") if role >= OWNER else None
    changes = writes.shared_changes(ctx.store, project, p, ctx.now, [])
    record = models.create(
        ctx.store,
        project.id,
        ctx.user.id,
        ctx.now,
        title=p["title"],
        iid=iid,
        description=p.get("description"),
        confidential=bool(p.get("confidential")),
        due_date=p.get("due_date"),
        discussion_locked=p.get("discussion_locked"),
        weight=p.get("weight"),
        issue_type=p.get("issue_type") or "issue",
        created_at=backdated,
        **changes,
    )
    return _render(ctx, single=True)(record)


def require_edit(ctx: Context, project: Project, record: models.Issue) -> None:
    if access_level(ctx, project) >= REPORTER or ctx.user.id == record.author_id:
        return
    raise Forbidden()


@api.put(
    "/projects/:id/issues/:issue_iid",
    params=(
        PROJECT_ID,
        IID,
        Param("title", STR),
        *WRITE_PARAMS,
        Param("state_event", STR, values=("close", "reopen")),
        Param("updated_at", DATETIME),
    ),
    constraints=(AtLeastOne(EDIT_FIELDS),),
    auth=REQUIRED,
)
def update_issue(ctx: Context) -> Any:
    """Update an issue; ``state_event`` closes or reopens it."""
    project = find_project_or_404(ctx, ctx.params["id"])
    record = find_issue(ctx, project, ctx.params["issue_iid"])
    require_edit(ctx, project, record)
    p = ctx.params
    errors = models.field_errors(p.get("title", record.title), p.get("description"))
    if errors:
        raise ValidationFailed(errors)
    before = events.snapshot(record)
    changes = writes.shared_changes(ctx.store, project, p, ctx.now, record.label_ids)
    for name in ("title", "description", "due_date", "discussion_locked", "weight"):
        if name in p:
            changes[name] = p[name]
    if p.get("confidential") is not None:
        changes["confidential"] = p["confidential"]
    stamp = (
        p.get("updated_at")
        if access_level(ctx, project) >= OWNER and p.get("updated_at")
        else ctx.now
    )
    models.change(ctx.store, record, stamp, **changes)
    events.changed(ctx.store, "Issue", record, before, ctx.user, stamp)
    if p.get("state_event"):
        models.transition(ctx.store, record, p["state_event"], stamp, ctx.user.id)
    return _render(ctx, single=True)(record)


@api.delete("/projects/:id/issues/:issue_iid", params=(PROJECT_ID, IID), auth=REQUIRED)
def delete_issue(ctx: Context) -> Any:
    """Delete an issue (204; Owner role)."""
    project = find_project_or_404(ctx, ctx.params["id"])
    record = find_issue(ctx, project, ctx.params["issue_iid"])
    if access_level(ctx, project) < OWNER:
        raise Forbidden()
    models.delete(ctx.store, record)


register_counter(
    "open_issues", lambda store, label, kind: models.count_with_label(store, label.id, "opened")
)
register_counter(
    "closed_issues", lambda store, label, kind: models.count_with_label(store, label.id, "closed")
)
