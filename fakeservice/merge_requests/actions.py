"""Merge request actions: merge (with ``sha``, ``squash``, messages, source branch removal
and merge when pipeline succeeds), cancel merge when pipeline succeeds, rebase, changes,
diffs, commits, participants, pipelines, closes_issues, subscribe, unsubscribe and todo.

Merge answers as the service does: 401 when the caller may not merge into the target
branch, 405 when the merge request is not in a mergeable state (not open, draft, missing
approvals, a required pipeline that did not succeed), 406 ``Branch cannot be merged``
on conflicts, 409 when ``sha`` is not the source head.
"""

from __future__ import annotations

from typing import Any

from fakeservice.ci.views import Renderer
from fakeservice.core.clock import iso
from fakeservice.core.errors import (
    ApiError,
    BadRequest,
    Conflict,
    Forbidden,
    NotModified,
    Unauthorized,
)
from fakeservice.issues.views import issue_view
from fakeservice.merge_requests import access, gitops, models, operations, pipelines
from fakeservice.merge_requests.router import api
from fakeservice.merge_requests.routes import IID, ONE, PROJECT_ID, render_single
from fakeservice.merge_requests.views import commit_view, diff_view, item_view, subscribed
from fakeservice.projects.lookup import access_level
from fakeservice.projects.models import Project
from fakeservice.projects.views import project_identity
from fakeservice.repository.access import can_push_branch
from fakeservice.repository.models import read_repository
from fakeservice.users.models import users
from fakeservice.users.views import user_ref
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, STR, Param
from fakeservice.web.routing import REQUIRED

ACTIVE = (
    "created",
    "waiting_for_resource",
    "preparing",
    "pending",
    "running",
    "scheduled",
    "manual",
)


def _not_allowed() -> ApiError:
    return ApiError({"message": "405 Method Not Allowed"}, status=405)


def _mergeable_state(
    ctx: Context, project: Any, record: models.MergeRequest, skip_ci: bool
) -> None:
    if record.state != "opened" or record.draft:
        raise _not_allowed()
    if project.only_allow_merge_if_pipeline_succeeds and not skip_ci:
        pipeline = pipelines.head_pipeline(ctx.store, record)
        if pipeline is None or pipeline.status != "success":
            raise _not_allowed()
    try:
        operations.run_guards(ctx.store, project, record, ctx.user)
    except ApiError as error:
        raise _not_allowed() from error


@api.put(
    ONE + "/merge",
    params=(
        PROJECT_ID,
        IID,
        Param("merge_commit_message", STR),
        Param("squash_commit_message", STR),
        Param("squash", BOOL),
        Param("should_remove_source_branch", BOOL),
        Param("merge_when_pipeline_succeeds", BOOL),
        Param("auto_merge", BOOL),
        Param("sha", STR),
    ),
    auth=REQUIRED,
)
def merge_merge_request(ctx: Context) -> Any:
    """Merge: a real merge, fast-forward or squash commit on the target branch."""
    project, record = access.merge_request(ctx)
    if not operations.can_merge(ctx.store, project, ctx.user, record.target_branch, ctx.now):
        raise Unauthorized()
    p = ctx.params
    wait = bool(p.get("merge_when_pipeline_succeeds") or p.get("auto_merge"))
    pipeline = pipelines.head_pipeline(ctx.store, record)
    automatic = wait and pipeline is not None and pipeline.status in ACTIVE
    _mergeable_state(ctx, project, record, skip_ci=automatic)
    operations.check_now(ctx.store, record, ctx.now)
    if record.merge_status != "can_be_merged":
        raise ApiError({"message": "Branch cannot be merged"}, status=406)
    if p.get("sha") is not None and p["sha"] != record.sha:
        raise Conflict(f"SHA does not match HEAD of source branch: {record.sha}")
    given = {
        k: p[k]
        for k in (
            "merge_commit_message",
            "squash_commit_message",
            "squash",
            "should_remove_source_branch",
        )
        if k in p
    }
    if automatic:
        models.change(
            ctx.store,
            record,
            ctx.now,
            merge_when_pipeline_succeeds=True,
            merge_user_id=ctx.user.id,
            merge_params=given,
        )
    else:
        operations.perform_merge(ctx.store, record, ctx.user, ctx.now, given)
    return render_single(ctx, project, record)


@api.post(ONE + "/cancel_merge_when_pipeline_succeeds", params=(PROJECT_ID, IID), auth=REQUIRED)
def cancel_merge_when_pipeline_succeeds(ctx: Context) -> Any:
    """Stop waiting for the pipeline (406 when not waiting)."""
    project, record = access.merge_request(ctx)
    if not operations.can_merge(ctx.store, project, ctx.user, record.target_branch, ctx.now):
        raise Unauthorized()
    if not record.merge_when_pipeline_succeeds:
        raise ApiError({"message": "Can't cancel the automatic merge"}, status=406)
    models.change(
        ctx.store, record, ctx.now, merge_when_pipeline_succeeds=False, merge_user_id=None
    )
    return render_single(ctx, project, record)


def _source_to_push(ctx: Context, record: models.MergeRequest) -> Project:
    """The merge request's source project (the fork for one from a fork), when the caller
    may push its source branch (403 otherwise, and when the source project is gone)."""
    source = operations.source_project(ctx.store, record)
    if source is None:
        raise Forbidden()
    repo = read_repository(ctx.store, source)
    if not can_push_branch(
        ctx.store, source, repo, record.source_branch, access_level(ctx, source)
    ):
        raise Forbidden()
    return source


@api.put(
    ONE + "/rebase", params=(PROJECT_ID, IID, Param("skip_ci", BOOL)), auth=REQUIRED, status=202
)
def rebase_merge_request(ctx: Context) -> Any:
    """Rebase the source branch on the target (202; completes on the clock)."""
    _, record = access.merge_request(ctx)
    _source_to_push(ctx, record)
    if record.rebase_in_progress:
        raise Conflict("Rebase task canceled: Another rebase is already in progress")
    models.change(ctx.store, record, None, merge_user_id=ctx.user.id)
    operations.start_rebase(ctx.store, record, ctx.now)
    return {"rebase_in_progress": True}


def _changes(ctx: Context, record: models.MergeRequest) -> list[Any]:
    repo = operations.repo_of(ctx.store, record)
    return gitops.changes(repo, record.base_sha, record.sha)


@api.get(
    ONE + "/changes",
    params=(PROJECT_ID, IID, Param("access_raw_diffs", BOOL), Param("unidiff", BOOL)),
    auth=REQUIRED,
)
def merge_request_changes(ctx: Context) -> Any:
    """The merge request with its ``changes`` (the diff base → head from git)."""
    project, record = access.merge_request(ctx)
    out = render_single(ctx, project, record)
    out["changes"] = [diff_view(entry) for entry in _changes(ctx, record)]
    return out


@api.get(
    ONE + "/diffs", params=(PROJECT_ID, IID, Param("unidiff", BOOL)), auth=REQUIRED, paginated=True
)
def merge_request_diffs(ctx: Context) -> Any:
    """The merge request's file diffs, paginated."""
    _, record = access.merge_request(ctx)
    return ctx.paginate_list(_changes(ctx, record), diff_view)


@api.get(ONE + "/commits", params=(PROJECT_ID, IID), auth=REQUIRED, paginated=True)
def merge_request_commits(ctx: Context) -> Any:
    """Commits of the source branch that the target lacks, newest first."""
    project, record = access.merge_request(ctx)
    repo = operations.repo_of(ctx.store, record)
    shas = (
        gitops.commits_between(repo, record.start_sha, record.sha)
        if record.state != "merged"
        else []
    )
    if record.state == "merged" and record.sha and record.base_sha:
        shas = gitops.commits_between(repo, record.base_sha, record.sha)
    web = f"{ctx.base_url}/{project.path_with_namespace}"
    return ctx.paginate_list(
        [repo.get_commit(sha) for sha in shas], lambda info: commit_view(info, web)
    )


@api.get(ONE + "/participants", params=(PROJECT_ID, IID), auth=REQUIRED)
def merge_request_participants(ctx: Context) -> Any:
    """The author, assignees, reviewers and everyone who commented."""
    _, record = access.merge_request(ctx)
    ids = [record.author_id, *record.assignee_ids, *record.reviewer_ids]
    ids += operations.more_participants(ctx.store, record)
    table = users(ctx.store)
    seen: list[int] = []
    for user_id in ids:
        if user_id not in seen and table.get(user_id) is not None:
            seen.append(user_id)
    return [user_ref(table.get(i), ctx.base_url) for i in seen]


@api.get(ONE + "/pipelines", params=(PROJECT_ID, IID), auth=REQUIRED, paginated=True)
def merge_request_pipelines(ctx: Context) -> Any:
    """Pipelines of the merge request's commits, newest first."""
    _, record = access.merge_request(ctx)
    renderer = Renderer(ctx.store, ctx.base_url, ctx.now)
    return ctx.paginate_list(pipelines.of_merge_request(ctx.store, record), renderer.pipeline_item)


@api.post(ONE + "/pipelines", params=(PROJECT_ID, IID), auth=REQUIRED)
def create_merge_request_pipeline(ctx: Context) -> Any:
    """A ``merge_request_event`` pipeline from the CI file at the source head (201)."""
    _, record = access.merge_request(ctx)
    # a merge request from a fork runs it in the fork, from the fork's CI file, as the
    # service does by default (the fork's runners and variables, not the target's)
    source = _source_to_push(ctx, record)
    if record.state != "opened":
        raise BadRequest("Merge request is not open")
    pipeline = pipelines.create(ctx.store, source, record, ctx.user.id, ctx.now)
    return Renderer(ctx.store, ctx.base_url, ctx.now).pipeline(pipeline)


@api.get(ONE + "/closes_issues", params=(PROJECT_ID, IID), auth=REQUIRED, paginated=True)
def merge_request_closes_issues(ctx: Context) -> Any:
    """Issues a merge would close (``Closes #N`` in the description)."""
    _, record = access.merge_request(ctx)
    found = operations.closes_issues(ctx.store, record)
    return ctx.paginate_list(
        found, lambda issue: issue_view(ctx.store, issue, ctx.base_url, ctx.now)
    )


def _subscription(ctx: Context, subscribe: bool) -> Any:
    project, record = access.merge_request(ctx)
    user_id = ctx.user.id
    if subscribed(record, user_id) == subscribe:
        raise NotModified()
    if subscribe:
        models.change(
            ctx.store,
            record,
            None,
            subscriber_ids=[*record.subscriber_ids, user_id],
            unsubscriber_ids=[i for i in record.unsubscriber_ids if i != user_id],
        )
    else:
        models.change(
            ctx.store,
            record,
            None,
            subscriber_ids=[i for i in record.subscriber_ids if i != user_id],
            unsubscriber_ids=[*record.unsubscriber_ids, user_id],
        )
    return render_single(ctx, project, record)


@api.post(ONE + "/subscribe", params=(PROJECT_ID, IID), auth=REQUIRED)
def subscribe_merge_request(ctx: Context) -> Any:
    """Subscribe (304 when subscribed already)."""
    return _subscription(ctx, True)


@api.post(ONE + "/unsubscribe", params=(PROJECT_ID, IID), auth=REQUIRED)
def unsubscribe_merge_request(ctx: Context) -> Any:
    """Unsubscribe (304 when not subscribed)."""
    return _subscription(ctx, False)


@api.post(ONE + "/todo", params=(PROJECT_ID, IID), auth=REQUIRED)
def merge_request_todo(ctx: Context) -> Any:
    """Add a to-do for the caller (304 when one exists)."""
    project, record = access.merge_request(ctx)
    if ctx.user.id in record.todo_user_ids:
        raise NotModified()
    models.change(ctx.store, record, None, todo_user_ids=[*record.todo_user_ids, ctx.user.id])
    target = item_view(ctx.store, record, ctx.base_url, ctx.now)
    return {
        "id": ctx.store.next_id("todos"),
        "project": {
            key: value
            for key, value in project_identity(project).items()
            if key in ("id", "name", "name_with_namespace", "path", "path_with_namespace")
        },
        "author": user_ref(users(ctx.store).get(record.author_id), ctx.base_url),
        "action_name": "marked",
        "target_type": "MergeRequest",
        "target": target,
        "target_url": target["web_url"],
        "body": record.title,
        "state": "pending",
        "created_at": iso(ctx.now),
    }
