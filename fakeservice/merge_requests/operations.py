"""Merge request operations: create, refresh from git, the asynchronous mergeability
check, merge, rebase and the reactions to pushes, all on the store and the repository.

Other areas plug in without this module knowing them, by listening to its events
(``setup.listen(NAME, fn)``, see :mod:`fakeservice.core.events`):

* :data:`MR_PUSHED` listeners run after a push refreshed a merge request (approvals reset
  approvals there, notes write ``added N commits``);
* :data:`MERGE_GUARD` listeners may refuse a merge (approvals refuse while approvals are
  missing) by raising;
* :data:`MR_EVENT` listeners hear ``created``, ``merged``, ``closed``, ``reopened``;
* :data:`MR_PARTICIPANTS` listeners name more participants (the notes area: commenters).

:func:`react_to_push` listens to the repository's ``REFS_MOVED``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from fakeservice.ci.runner import outcomes
from fakeservice.core.errors import ApiError
from fakeservice.core.events import listeners
from fakeservice.core.store import Store
from fakeservice.issues import models as issues
from fakeservice.members.access import project_role
from fakeservice.members.models import DEVELOPER
from fakeservice.merge_requests import gitops
from fakeservice.merge_requests.machines import CHECK_SECONDS, MERGE_STATUS, REBASE_SECONDS, STATE
from fakeservice.merge_requests.models import (
    MergeRequest,
    change,
    due,
    merge_requests,
    open_from,
    open_into,
)
from fakeservice.projects.models import Project, projects
from fakeservice.repository import fetch, protected
from fakeservice.repository.git import HEADS, ZERO_SHA, RefUpdate, Repository
from fakeservice.repository.models import (
    RefChange,
    commit_email,
    find_repository,
    read_repository,
    record_change,
)
from fakeservice.users.models import User, users

# listener(store, project, record, change, added): a push moved the source branch
MR_PUSHED = "merge_request.pushed"
PushListener = Callable[[Store, Project, MergeRequest, RefChange, list[str]], None]
# listener(store, project, record, user): raise an ApiError to refuse the merge
MERGE_GUARD = "merge_request.merge_guard"
MergeGuard = Callable[[Store, Project, MergeRequest, User], None]
# listener(store, record, event, user, now): created, merged, closed, reopened
MR_EVENT = "merge_request.event"
EventListener = Callable[[Store, MergeRequest, str, "User | None", dt.datetime], None]
# listener(store, record) -> more participant user ids
MR_PARTICIPANTS = "merge_request.participants"
Participants = Callable[[Store, MergeRequest], list[int]]

CLOSING = re.compile(
    r"\b(?:close[sd]?|closing|fix(?:e[sd])?|fixing|resolve[sd]?|resolving|implement(?:s|ed)?|implementing)"
    r":?\s+((?:#\d+(?:\s*,\s*|\s+and\s+)?)+)",
    re.IGNORECASE,
)


def more_participants(store: Store, record: MergeRequest) -> list[int]:
    return [
        user_id for source in listeners(store, MR_PARTICIPANTS) for user_id in source(store, record)
    ]


def emit(
    store: Store, record: MergeRequest, event: str, user: User | None, now: dt.datetime
) -> None:
    for listener in listeners(store, MR_EVENT):
        listener(store, record, event, user, now)


def project_of(store: Store, record: MergeRequest) -> Project:
    return projects(store).rows[record.project_id]


def repo_of(store: Store, record: MergeRequest) -> Repository:
    return read_repository(store, project_of(store, record))


def current_heads(store: Store, record: MergeRequest) -> gitops.Heads:
    """The source, target and merge base heads; the source of a merge request from a
    fork is its head as last fetched into the target repository."""
    repo = repo_of(store, record)
    if not from_fork(record):
        return gitops.heads(repo, record.source_branch, record.target_branch)
    head = fetch.read_ref(repo, fetch.MERGE_REQUEST_HEAD.format(iid=record.iid))
    return gitops.heads_at(repo, head, record.target_branch)


def from_fork(record: MergeRequest) -> bool:
    return record.source_project_id != record.project_id


def source_project(store: Store, record: MergeRequest) -> Project | None:
    """The merge request's source project: the fork for one from a fork (None when gone)."""
    return projects(store).get(record.source_project_id)


def source_repo(store: Store, record: MergeRequest) -> Repository | None:
    """The repository of the merge request's source project (None when it is gone)."""
    source = source_project(store, record)
    return read_repository(store, source) if source is not None else None


def fetch_source(store: Store, record: MergeRequest) -> None:
    """Fetch a fork's source branch head into the target repository
    (``refs/merge-requests/<iid>/head``), as the service does on creation and push."""
    sender = source_repo(store, record)
    branch = sender.branch(record.source_branch) if sender is not None else None
    receiver = find_repository(store, project_of(store, record))
    if sender is None or branch is None or receiver is None:
        return
    ref = fetch.MERGE_REQUEST_HEAD.format(iid=record.iid)
    fetch.fetch_into(sender, receiver, branch.commit_id, ref)


def refresh_refs(store: Store, record: MergeRequest) -> None:
    """Take ``sha`` and the diff refs from the branches as they are now."""
    if record.state in ("merged", "closed"):
        return
    if from_fork(record):
        fetch_source(store, record)
    found = current_heads(store, record)
    if found.source is None:
        return
    change(
        store,
        record,
        None,
        sha=found.source,
        start_sha=found.target,
        base_sha=found.base or found.target,
    )


# -- the asynchronous mergeability check ----------------------------------------------------


def instant(store: Store, record: MergeRequest) -> bool:
    return outcomes.mode_of(store, record.project_id)[0] == "instant"


def request_check(store: Store, record: MergeRequest, now: dt.datetime) -> None:
    """Start a check when the status is unchecked; it completes on the clock."""
    if record.state != "opened" or not MERGE_STATUS.can(record, "check"):
        return
    MERGE_STATUS.fire(record, "check")
    change(store, record, None, due_at=now + dt.timedelta(seconds=CHECK_SECONDS), due_kind="check")
    if instant(store, record):
        complete_check(store, record)


def complete_check(store: Store, record: MergeRequest) -> None:
    """Decide ``can_be_merged`` / ``cannot_be_merged`` from the repository."""
    if record.merge_status != "checking":
        return
    found = current_heads(store, record)
    conflicted = (
        found.source is None
        or found.target is None
        or gitops.has_conflicts(repo_of(store, record), found)
    )
    MERGE_STATUS.fire(record, "conflict" if conflicted else "mergeable")
    change(
        store,
        record,
        None,
        has_conflicts=conflicted and found.source is not None,
        due_at=None,
        due_kind=None,
    )


def check_now(store: Store, record: MergeRequest, now: dt.datetime) -> None:
    """Run a pending check to its end at once (a merge cannot wait)."""
    request_check(store, record, now)
    complete_check(store, record)


def mark_unchecked(store: Store, record: MergeRequest, now: dt.datetime) -> None:
    if MERGE_STATUS.can(record, "mark_unchecked"):
        MERGE_STATUS.fire(record, "mark_unchecked")
        change(store, record, None, due_at=None, due_kind=None)
    request_check(store, record, now)


# -- creation ----------------------------------------------------------------------------------


def create(
    store: Store, project: Project, author: User, now: dt.datetime, **fields: Any
) -> MergeRequest:
    iid = store.next_iid("merge_requests", project.id)
    fields.setdefault("source_project_id", project.id)
    record = MergeRequest(
        id=store.next_id("merge_requests"),
        iid=iid,
        project_id=project.id,
        author_id=author.id,
        created_at=now,
        updated_at=now,
        **fields,
    )
    merge_requests(store).insert(record)
    refresh_refs(store, record)
    request_check(store, record, now)
    emit(store, record, "created", author, now)
    return record


# -- pushes --------------------------------------------------------------------------------------


def react_to_push(change_: RefChange) -> None:
    """Refresh the merge requests from and into the branches a push moved."""
    store = change_.store
    for update in change_.updates:
        branch = update.branch
        if branch is None or update.deleted:
            continue
        for record in open_from(store, change_.project.id, branch):
            before = record.sha
            refresh_refs(store, record)
            if record.sha == before:
                continue
            added = gitops.commits_between(change_.repo, before, record.sha) if before else []
            change(store, record, change_.now, rebase_in_progress=False)
            mark_unchecked(store, record, change_.now)
            for listener in listeners(store, MR_PUSHED):
                listener(store, project_of(store, record), record, change_, added)
        for record in open_into(store, change_.project.id, branch):
            refresh_refs(store, record)
            mark_unchecked(store, record, change_.now)


# -- merging ---------------------------------------------------------------------------------------


def can_merge(
    store: Store, project: Project, user: User | None, branch: str, now: dt.datetime
) -> bool:
    """Developer and up, unless a protected branch rule says otherwise."""
    role = project_role(store, user, project, now)
    if role < DEVELOPER or project.archived:
        return False
    rules = protected.rules_for(store, project.id, branch)
    return not rules or any(protected.allows(rule.merge_access_levels, role) for rule in rules)


def run_guards(store: Store, project: Project, record: MergeRequest, user: User) -> None:
    for guard in listeners(store, MERGE_GUARD):
        guard(store, project, record, user)


def closing_iids(description: str | None) -> list[int]:
    """Issue iids a description closes (``Closes #1``, ``fixes #2, #3``), in order, once."""
    out: list[int] = []
    for found in CLOSING.finditer(description or ""):
        for number in re.findall(r"#(\d+)", found.group(1)):
            if int(number) not in out:
                out.append(int(number))
    return out


def closes_issues(store: Store, record: MergeRequest) -> list[issues.Issue]:
    found = (issues.find(store, record.project_id, iid) for iid in closing_iids(record.description))
    return [issue for issue in found if issue is not None and issue.state == "opened"]


def _messages(record: MergeRequest, project: Project, given: dict[str, Any]) -> tuple[str, str]:
    default = (
        f"Merge branch '{record.source_branch}' into '{record.target_branch}'\n\n"
        f"{record.title}\n\n"
        f"See merge request {project.path_with_namespace}!{record.iid}"
    )
    merge_message = given.get("merge_commit_message") or default
    squash_message = given.get("squash_commit_message") or record.title
    return merge_message, squash_message


def perform_merge(
    store: Store, record: MergeRequest, user: User, now: dt.datetime, given: dict[str, Any]
) -> None:
    """Lock, write the merge to git, then merged (or unlock with ``merge_error``)."""
    project = project_of(store, record)
    repo = read_repository(store, project)
    found = current_heads(store, record)
    squash = bool(given.get("squash", record.squash))
    merge_message, squash_message = _messages(record, project, given)
    STATE.fire(record, "lock")
    try:
        result = gitops.merge(
            repo,
            found,
            record.target_branch,
            method=project.merge_method,
            squash=squash,
            merge_message=merge_message,
            squash_message=squash_message,
            author=gitops.Author(user.name, commit_email(user)),
            now=now,
        )
    except ApiError:
        STATE.fire(record, "unlock")
        change(store, record, now, merge_error="Branch cannot be merged")
        raise
    STATE.fire(record, "merge", now=now, by=user.id)
    remove = given.get("should_remove_source_branch")
    if remove is None:
        remove = record.force_remove_source_branch or (
            record.should_remove_source_branch
            if record.should_remove_source_branch is not None
            else project.remove_source_branch_after_merge
        )
    change(
        store,
        record,
        now,
        merge_commit_sha=result.merge_commit_sha,
        squash_commit_sha=result.squash_commit_sha,
        squash=squash,
        merge_error=None,
        merge_user_id=user.id,
        should_remove_source_branch=bool(remove)
        if "should_remove_source_branch" in given
        else record.should_remove_source_branch,
        due_at=None,
        due_kind=None,
    )
    record_change(store, project, repo, now, updates=result.updates, user=user)
    if remove:
        _remove_source_branch(store, record, user, now)
    if record.target_branch == repo.default_branch:
        for issue in closes_issues(store, record):
            issues.transition(store, issue, "close", now, user.id)
    emit(store, record, "merged", user, now)


def _remove_source_branch(store: Store, record: MergeRequest, user: User, now: dt.datetime) -> None:
    """Delete the merged source branch (in the fork for a merge request from a fork, when
    the user may write there), unless it is its repository's default branch."""
    source = source_project(store, record)
    if source is None:
        return
    if from_fork(record) and project_role(store, user, source, now) < DEVELOPER:
        return
    repo = read_repository(store, source)
    old = repo.branch(record.source_branch)
    if old is None or record.source_branch == repo.default_branch:
        return
    repo.delete_branch(record.source_branch)
    update = RefUpdate(HEADS.decode() + record.source_branch, old.commit_id, ZERO_SHA)
    record_change(store, source, repo, now, updates=(update,), user=user)


# -- rebase and timed work ---------------------------------------------------------------------------


def start_rebase(store: Store, record: MergeRequest, now: dt.datetime) -> None:
    change(
        store,
        record,
        None,
        rebase_in_progress=True,
        merge_error=None,
        due_at=now + dt.timedelta(seconds=REBASE_SECONDS),
        due_kind="rebase",
    )
    if instant(store, record):
        complete_rebase(store, record, now)


def rebase_site(store: Store, record: MergeRequest) -> tuple[Project, Repository, gitops.Heads]:
    """Where a rebase writes: the source project's repository (for a merge request from a
    fork, after fetching the target head into it) and the heads there."""
    project = project_of(store, record)
    repo = read_repository(store, project)
    if not from_fork(record):
        return project, repo, gitops.heads(repo, record.source_branch, record.target_branch)
    source = projects(store).rows[record.source_project_id]
    fork_repo = read_repository(store, source)
    target = repo.branch(record.target_branch)
    head = fork_repo.branch(record.source_branch)
    if target is None or head is None:
        return source, fork_repo, gitops.Heads(None, None, None)
    fetch.copy_objects(repo, fork_repo, target.commit_id)
    base = fork_repo.merge_base(target.commit_id, head.commit_id)
    return source, fork_repo, gitops.Heads(head.commit_id, target.commit_id, base)


def complete_rebase(store: Store, record: MergeRequest, now: dt.datetime) -> None:
    project, repo, found = rebase_site(store, record)
    author = users(store).get(record.merge_user_id or record.author_id)
    change(store, record, None, rebase_in_progress=False, due_at=None, due_kind=None)
    try:
        update = gitops.rebase(
            repo,
            found,
            record.source_branch,
            gitops.Author(author.name, commit_email(author))
            if author
            else gitops.Author("Administrator", "admin@example.com"),
            now,
        )
    except ApiError as error:
        message = error.body.get("message") if isinstance(error.body, dict) else None
        change(store, record, None, merge_error=str(message))
        return
    if update is not None:
        record_change(store, project, repo, now, updates=(update,), user=author)


def settle_due(store: Store, now: dt.datetime) -> None:
    """Finish the checks and rebases due by ``now``, in due order."""
    while True:
        record = next(iter(due(store)), None)
        if record is None or record.due_at is None or record.due_at > now:
            break
        if record.due_kind == "rebase":
            complete_rebase(store, record, record.due_at)
        else:
            complete_check(store, record)
            if record.due_at is not None:
                change(store, record, None, due_at=None, due_kind=None)
