"""Push and tag push payloads (``object_kind`` ``push`` / ``tag_push``)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.store import Store
from fakeservice.hooks.payloads.common import (
    commit_payload,
    hook_email,
    project_payload,
    repository_payload,
)
from fakeservice.projects.models import Project
from fakeservice.repository.git import ZERO_SHA, RefUpdate, Repository
from fakeservice.users.models import User
from fakeservice.users.views import avatar_url

MAX_COMMITS = 20
_WALK_LIMIT = 1000


def pushed_commits(repo: Repository, update: RefUpdate) -> list[Any]:
    """The commits a ref update brought, newest first (up to :data:`_WALK_LIMIT`)."""
    if update.deleted:
        return []
    stop: str | None = None if update.created else update.old
    if update.created and update.branch is not None:
        default = repo.resolve(repo.default_branch)
        if default is not None and default != update.new:
            stop = repo.merge_base(default, update.new)
        elif default == update.new and repo.find_commit(update.new) is not None:
            return [repo.get_commit(update.new)]
    if update.tag is not None:
        head = repo.find_commit(update.ref)
        return [head] if head is not None else []
    found, frontier, seen = [], [update.new], {update.new}
    while frontier and len(found) < _WALK_LIMIT:
        sha = frontier.pop(0)
        if sha == stop:
            continue
        info = repo.find_commit(sha)
        if info is None:
            continue
        found.append(info)
        for parent in info.parent_ids:
            if parent not in seen and parent != stop:
                seen.add(parent)
                frontier.append(parent)
    found.sort(key=lambda c: c.committed_date, reverse=True)
    return found


def _commit(repo: Repository, info: Any, web_url: str) -> dict[str, Any]:
    added: list[str] = []
    modified: list[str] = []
    removed: list[str] = []
    for change in repo.diff(info.id):
        if change.new_file:
            added.append(change.new_path)
        elif change.deleted_file:
            removed.append(change.old_path)
        else:
            modified.append(change.new_path)
    return {
        **commit_payload(info, web_url),
        "added": added,
        "modified": modified,
        "removed": removed,
    }


def push_payload(
    store: Store,
    project: Project,
    repo: Repository,
    update: RefUpdate,
    user: User | None,
    base_url: str,
    *,
    protected: bool,
) -> dict[str, Any]:
    kind = "tag_push" if update.tag is not None else "push"
    found = pushed_commits(repo, update)
    shown = list(reversed(found[:MAX_COMMITS]))
    project_part = project_payload(store, project, base_url)
    head = None if update.new == ZERO_SHA else repo.find_commit(update.ref)
    return {
        "object_kind": kind,
        "event_name": kind,
        "before": update.old,
        "after": update.new,
        "ref": update.ref,
        "ref_protected": protected,
        "checkout_sha": head.id if head is not None else None,
        "message": None,
        "user_id": user.id if user is not None else None,
        "user_name": user.name if user is not None else None,
        "user_username": user.username if user is not None else None,
        "user_email": hook_email(user) if user is not None else None,
        "user_avatar": avatar_url(user, base_url) if user is not None else None,
        "project_id": project.id,
        "project": project_part,
        "commits": [_commit(repo, info, project_part["web_url"]) for info in shown],
        "total_commits_count": len(found),
        "push_options": {},
        "repository": repository_payload(store, project, base_url),
    }
