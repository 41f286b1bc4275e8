"""Merge request endpoints: the three lists (``/merge_requests``, project, group) with every
§4.2 filter, create, get single, update and delete.

Actions (merge, rebase, subscriptions, pipelines, changes...) are in :mod:`.actions`.
"""

from __future__ import annotations

from typing import Any

from fakeservice.approvals import settings as approval_settings
from fakeservice.core.errors import ApiError, Conflict, Forbidden, ValidationFailed
from fakeservice.core.store import Selection
from fakeservice.groups.lookup import find_group_or_404
from fakeservice.issues import events, filters, listing, writes
from fakeservice.labels import models as labels
from fakeservice.labels.views import register_counter
from fakeservice.members.models import DEVELOPER, OWNER
from fakeservice.merge_requests import (
    access,
    approvers,
    deployed,
    fork_target,
    models,
    operations,
)
from fakeservice.merge_requests.machines import STATE
from fakeservice.merge_requests.pipelines import head_pipeline
from fakeservice.merge_requests.router import api
from fakeservice.merge_requests.views import item_view, simple_view, single_view
from fakeservice.projects.lookup import access_level
from fakeservice.projects.models import Project, projects
from fakeservice.repository.models import read_repository
from fakeservice.web.context import Context
from fakeservice.web.params import (
    BOOL,
    DATETIME,
    INT,
    STR,
    Array,
    AtLeastOne,
    MutuallyExclusive,
    Param,
)
from fakeservice.web.routing import REQUIRED

PROJECT_ID = Param(
    "id", STR, required=True, description="The ID or URL-encoded path of the project"
)
GROUP_ID = Param("id", STR, required=True, description="The ID or URL-encoded path of the group")
IID = Param("merge_request_iid", INT, required=True, description="The merge request's iid")
BASE = "/projects/:id/merge_requests"
ONE = BASE + "/:merge_request_iid"
SCOPES = ("created_by_me", "assigned_to_me", "all", "created-by-me", "assigned-to-me")


def _id_list(value: Any) -> bool:
    return isinstance(value, list) and len(value) <= 5


LIST_PARAMS = (
    Param("state", STR, values=("opened", "closed", "locked", "merged", "all"), default="all"),
    Param("order_by", STR, values=("created_at", "updated_at"), default="created_at"),
    Param("sort", STR, values=("asc", "desc"), default="desc"),
    Param("view", STR, values=("simple",)),
    Param("with_labels_details", BOOL, default=False),
    Param("with_merge_status_recheck", BOOL, default=False),
    Param("scope", STR, values=SCOPES),
    Param("reviewer_id", STR, check=filters._id_or_keyword),
    Param("reviewer_username", STR),
    Param("approver_ids", Array(STR, scalar=True)),
    Param("approved_by_ids", Array(STR, scalar=True), check=_id_list),
    Param("approved_by_usernames", Array(STR, scalar=True), check=_id_list),
    Param("source_branch", STR),
    Param("target_branch", STR),
    Param("wip", STR, values=("yes", "no")),
    Param("environment", STR),
    Param("deployed_before", DATETIME),
    Param("deployed_after", DATETIME),
    *filters.COMMON,
)
LIST_CONSTRAINTS = (
    *filters.EXCLUSIVE,
    MutuallyExclusive(("reviewer_id", "reviewer_username")),
    MutuallyExclusive(("approved_by_ids", "approved_by_usernames")),
)
WRITE_PARAMS = (
    Param("description", STR),
    *writes.LABEL_PARAMS,
    *writes.PEOPLE_PARAMS,
    Param("reviewer_ids", Array(INT, scalar=True, comma=True)),
    Param("remove_source_branch", BOOL),
    Param("allow_collaboration", BOOL),
    Param("allow_maintainer_to_push", BOOL),
    Param("squash", BOOL),
)
EDITS = (
    "title",
    "description",
    "target_branch",
    "assignee_id",
    "assignee_ids",
    "reviewer_ids",
    "milestone_id",
    "labels",
    "add_labels",
    "remove_labels",
    "state_event",
    "remove_source_branch",
    "squash",
    "discussion_locked",
    "allow_collaboration",
    "allow_maintainer_to_push",
)


def _render_list(ctx: Context) -> Any:
    if ctx.params.get("view") == "simple":
        return lambda r: simple_view(ctx.store, r, ctx.base_url)
    details = bool(ctx.params.get("with_labels_details"))
    recheck = bool(ctx.params.get("with_merge_status_recheck"))

    def render(record: models.MergeRequest) -> dict[str, Any]:
        if recheck:
            operations.request_check(ctx.store, record, ctx.now)
        return item_view(ctx.store, record, ctx.base_url, ctx.now, label_details=details)

    return render


def _extra_predicates(ctx: Context, default_scope: str, state_served: bool = False) -> list[Any]:
    p = ctx.params
    found: list[Any] = []
    if p.get("state") and p["state"] != "all" and not state_served:
        state = p["state"]
        found.append(lambda r: r.state == state)
    for name in ("source_branch", "target_branch"):
        if p.get(name) is not None:
            found.append(lambda r, n=name, v=p[name]: getattr(r, n) == v)
    if p.get("wip"):
        wanted = p["wip"] == "yes"
        found.append(lambda r: r.draft == wanted)
    if p.get("iids"):
        iids = set(p["iids"])
        found.append(lambda r: r.iid in iids)
    if p.get("approved_by_ids"):
        found.append(
            approvers.approved_by_predicate(ctx.store, p["approved_by_ids"], usernames=False)
        )
    if p.get("approved_by_usernames"):
        found.append(
            approvers.approved_by_predicate(ctx.store, p["approved_by_usernames"], usernames=True)
        )
    if p.get("approver_ids"):
        found.append(approvers.approver_predicate(ctx.store, p["approver_ids"]))
    if p.get("environment") or p.get("deployed_before") or p.get("deployed_after"):
        found.append(
            deployed.predicate(
                ctx.store, p.get("environment"), p.get("deployed_before"), p.get("deployed_after")
            )
        )
    scope = (p.get("scope") or default_scope).replace("-", "_")
    user = ctx.user
    if scope == "created_by_me":
        found.append(lambda r: r.author_id == user.id)
    elif scope == "assigned_to_me":
        found.append(lambda r: user.id in r.assignee_ids)
    return found


def _list(
    ctx: Context,
    selection: Selection[Any],
    owners: list[Any] | None,
    scope: str,
    labels_served: bool = False,
    state_served: bool = False,
) -> Any:
    params = listing.without_labels(ctx.params) if labels_served else ctx.params
    found = filters.predicates(ctx.store, owners, params, user_id=ctx.user.id)
    found += _extra_predicates(ctx, scope, state_served)
    if owners is None:
        found.append(listing.readable_projects(ctx.store, ctx.user, ctx.now))
    return ctx.paginate(selection.filter(filters.combine(found)), _render_list(ctx))


@api.get(
    BASE,
    params=(PROJECT_ID, filters.iids_param(), *LIST_PARAMS),
    constraints=LIST_CONSTRAINTS,
    auth=REQUIRED,
    paginated=True,
)
def list_project_merge_requests(ctx: Context) -> Any:
    """List a project's merge requests (every filter of §4.2; ``scope`` defaults to all)."""
    project = access.project(ctx)
    p = ctx.params
    sets = listing.first_label_sets(ctx.store, project, p)
    selection = listing.project_selection(
        models.merge_requests(ctx.store),
        project.id,
        p["order_by"],
        p["sort"] == "desc",
        sets,
        p.get("state"),
    )
    owners = labels.owners_of_project(ctx.store, project)
    served = listing.served_by_index(sets)
    by_state = listing.served_by_state(sets, p.get("state"))
    return _list(ctx, selection, owners, "all", served, by_state)


@api.get(
    "/merge_requests",
    params=LIST_PARAMS,
    constraints=LIST_CONSTRAINTS,
    auth=REQUIRED,
    paginated=True,
)
def list_merge_requests(ctx: Context) -> Any:
    """List merge requests the caller can see (``scope`` defaults to created_by_me)."""
    p = ctx.params
    selection = listing.projects_selection(
        models.merge_requests(ctx.store), None, p["order_by"], p["sort"] == "desc"
    )
    return _list(ctx, selection, None, "created_by_me")


@api.get(
    "/groups/:id/merge_requests",
    params=(GROUP_ID, *LIST_PARAMS),
    constraints=LIST_CONSTRAINTS,
    auth=REQUIRED,
    paginated=True,
)
def list_group_merge_requests(ctx: Context) -> Any:
    """List the merge requests of a group's projects and its subgroups' projects."""
    group = find_group_or_404(ctx, ctx.params["id"])
    ids = listing.group_project_ids(ctx.store, group)
    p = ctx.params
    selection = listing.projects_selection(
        models.merge_requests(ctx.store), ids, p["order_by"], p["sort"] == "desc"
    )
    return _list(ctx, selection, None, "all")


def render_single(ctx: Context, project: Project, record: models.MergeRequest) -> dict[str, Any]:
    pipeline = head_pipeline(ctx.store, record)
    return single_view(
        ctx.store,
        record,
        ctx.base_url,
        ctx.now,
        caller_id=ctx.user.id if ctx.user else None,
        label_details=bool(ctx.params.get("with_labels_details")),
        rebase=bool(ctx.params.get("include_rebase_in_progress")),
        diverged=bool(ctx.params.get("include_diverged_commits_count")),
        head_pipeline_id=pipeline.id if pipeline else None,
        can_merge=operations.can_merge(ctx.store, project, ctx.user, record.target_branch, ctx.now),
    )


@api.get(
    ONE,
    params=(
        PROJECT_ID,
        IID,
        Param("render_html", BOOL),
        Param("include_diverged_commits_count", BOOL, default=False),
        Param("include_rebase_in_progress", BOOL, default=False),
    ),
    auth=REQUIRED,
)
def get_merge_request(ctx: Context) -> Any:
    """Get one merge request (starts a mergeability check when unchecked)."""
    project, record = access.merge_request(ctx)
    operations.request_check(ctx.store, record, ctx.now)
    return render_single(ctx, project, record)


def _branch_errors(
    project: Project, source: str, target: str, ctx: Context, source_project: Project | None = None
) -> list[str]:
    """Why ``source`` (of ``source_project``, by default ``project``) cannot be merged
    into ``target`` of ``project``."""
    from_project = source_project or project
    repo = read_repository(ctx.store, project)
    source_repo = read_repository(ctx.store, from_project) if source_project else repo
    errors: list[str] = []
    if source == target and from_project.id == project.id:
        errors.append("You can't use same project/branch for source and target")
    if source_repo.branch(source) is None:
        errors.append(f'Source branch "{source}" does not exist')
    if repo.branch(target) is None:
        errors.append(f'Target branch "{target}" does not exist')
    return errors


def _approvals_before_merge(project: Project, given: int | None, ctx: Context) -> int | None:
    """§4.2 (3): inherit the project's value; a given one counts only when larger."""
    inherited = approval_settings.of_project(ctx.store, project.id).approvals_before_merge
    if given is None:
        return inherited or None
    if given == 0:
        return 0
    if inherited > 0 and given > inherited:
        return given
    return inherited or None


@api.post(
    BASE,
    params=(
        PROJECT_ID,
        Param("source_branch", STR, required=True),
        Param("target_branch", STR, required=True),
        Param("title", STR, required=True),
        Param("target_project_id", INT),
        Param("approvals_before_merge", INT),
        *WRITE_PARAMS,
    ),
    auth=REQUIRED,
)
def create_merge_request(ctx: Context) -> Any:
    """Create a merge request (201) between two branches of the project, or from a branch
    of this fork into a branch of ``target_project_id`` (its upstream)."""
    source = access.project(ctx)
    if access_level(ctx, source) < DEVELOPER:
        raise Forbidden()
    p = ctx.params
    errors = models.field_errors(p.get("title"), p.get("description"))
    if errors:
        raise ValidationFailed(errors)
    project = fork_target.target_project(ctx, source)
    branch_errors = _branch_errors(
        project, p["source_branch"], p["target_branch"], ctx, source_project=source
    )
    if branch_errors:
        raise ApiError({"message": branch_errors}, status=400)
    existing = models.open_from(ctx.store, source.id, p["source_branch"])
    same = [
        r for r in existing if r.target_branch == p["target_branch"] and r.project_id == project.id
    ]
    if same:
        raise Conflict(
            f"Another open merge request already exists for this source branch: !{same[0].iid}"
        )
    changes = writes.shared_changes(ctx.store, project, p, ctx.now, [])
    if p.get("reviewer_ids") is not None:
        changes["reviewer_ids"] = writes.people_ids(ctx.store, project, p["reviewer_ids"], ctx.now)
    collaboration = p.get("allow_collaboration", p.get("allow_maintainer_to_push"))
    record = operations.create(
        ctx.store,
        project,
        ctx.user,
        ctx.now,
        source_project_id=source.id,
        title=p["title"],
        description=p.get("description"),
        source_branch=p["source_branch"],
        target_branch=p["target_branch"],
        should_remove_source_branch=p.get("remove_source_branch"),
        force_remove_source_branch=bool(p.get("remove_source_branch")),
        allow_collaboration=bool(collaboration),
        squash=bool(p.get("squash")),
        approvals_before_merge=_approvals_before_merge(
            project, p.get("approvals_before_merge"), ctx
        ),
        **changes,
    )
    return render_single(ctx, project, record)


@api.put(
    ONE,
    params=(
        PROJECT_ID,
        IID,
        Param("title", STR),
        Param("target_branch", STR),
        Param("state_event", STR, values=("close", "reopen")),
        Param("discussion_locked", BOOL),
        *WRITE_PARAMS,
    ),
    constraints=(AtLeastOne(EDITS),),
    auth=REQUIRED,
)
def update_merge_request(ctx: Context) -> Any:
    """Update a merge request; ``state_event`` closes or reopens it."""
    project, record = access.merge_request(ctx)
    if access_level(ctx, project) < DEVELOPER and ctx.user.id != record.author_id:
        raise Forbidden()
    p = ctx.params
    errors = models.field_errors(p.get("title", record.title), p.get("description"))
    if errors:
        raise ValidationFailed(errors)
    target = p.get("target_branch")
    if target is not None:
        source = projects(ctx.store).get(record.source_project_id)
        branch_errors = _branch_errors(project, record.source_branch, target, ctx, source)
        if branch_errors:
            raise ApiError({"message": branch_errors}, status=400)
    before = events.snapshot(record)
    changes = writes.shared_changes(ctx.store, project, p, ctx.now, record.label_ids)
    if "reviewer_ids" in p:
        changes["reviewer_ids"] = writes.people_ids(
            ctx.store, project, p["reviewer_ids"] or [], ctx.now
        )
    for name in ("title", "description", "squash", "discussion_locked", "target_branch"):
        if name in p and p[name] is not None:
            changes[name] = p[name]
    if "remove_source_branch" in p:
        changes["force_remove_source_branch"] = bool(p["remove_source_branch"])
        changes["should_remove_source_branch"] = p["remove_source_branch"]
    collaboration = p.get("allow_collaboration", p.get("allow_maintainer_to_push"))
    if collaboration is not None:
        changes["allow_collaboration"] = collaboration
    models.change(ctx.store, record, ctx.now, **changes)
    events.changed(ctx.store, "MergeRequest", record, before, ctx.user, ctx.now)
    if target is not None:
        operations.refresh_refs(ctx.store, record)
        operations.mark_unchecked(ctx.store, record, ctx.now)
    event = p.get("state_event")
    if event and STATE.can(record, event):
        STATE.fire(record, event, now=ctx.now, by=ctx.user.id)
        models.change(ctx.store, record, ctx.now)
        if event == "reopen":
            operations.refresh_refs(ctx.store, record)
            operations.mark_unchecked(ctx.store, record, ctx.now)
        operations.emit(
            ctx.store, record, "closed" if event == "close" else "reopened", ctx.user, ctx.now
        )
    return render_single(ctx, project, record)


@api.delete(ONE, params=(PROJECT_ID, IID), auth=REQUIRED)
def delete_merge_request(ctx: Context) -> Any:
    """Delete a merge request (204; Owner role or administrator)."""
    project, record = access.merge_request(ctx)
    if access_level(ctx, project) < OWNER:
        raise Forbidden()
    models.merge_requests(ctx.store).delete(record)


register_counter(
    "open_merge_requests",
    lambda store, label, kind: models.count_with_label(store, label.id, "opened"),
)
