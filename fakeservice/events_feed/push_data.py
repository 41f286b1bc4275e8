"""The ``push_data`` of a push event, made when the event is read from the ref update it
keeps (so that recording a push, scenario loading included, walks no history): the
commits the update brought (the hooks' own walk), the action, the ref and its kind."""

from __future__ import annotations

from typing import Any

from fakeservice.core.store import Store
from fakeservice.hooks.payloads.push import pushed_commits
from fakeservice.projects.models import projects
from fakeservice.repository.git import RefUpdate
from fakeservice.repository.models import find_repository


def push_data(store: Store, project_id: int | None, push: tuple[str, str, str]) -> dict[str, Any]:
    update = RefUpdate(*push)
    project = projects(store).get(project_id) if project_id is not None else None
    repo = find_repository(store, project) if project is not None else None
    commits = pushed_commits(repo, update) if repo is not None else []
    action = "created" if update.created else "removed" if update.deleted else "pushed"
    return {
        "commit_count": len(commits),
        "action": action,
        "ref_type": "branch" if update.branch is not None else "tag",
        "commit_from": None if update.created else update.old,
        "commit_to": None if update.deleted else update.new,
        "ref": update.branch if update.branch is not None else update.tag,
        "commit_title": commits[0].title if commits else None,
        "ref_count": None,
    }
