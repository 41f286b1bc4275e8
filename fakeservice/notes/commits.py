"""Commits as noteables of discussions: ``/projects/:id/repository/commits/:commit_id/
discussions`` (no notes endpoints: commit comments have their own API).

A commit is no stored record: its noteable id is derived from the project and the full
commit sha (deterministic, and reading a commit's discussions writes nothing). Notes on it
answer ``noteable_type`` ``Commit``, ``noteable_id`` null and ``commit_id``. Who may read
the project's code may read and start them.
"""

from __future__ import annotations

import attrs

from fakeservice.members.models import OWNER
from fakeservice.notes.registry import Noteable, Target
from fakeservice.notes.routes import register_noteable
from fakeservice.projects.lookup import access_level
from fakeservice.repository.guards import readable
from fakeservice.web.context import Context
from fakeservice.web.params import STR, Param
from fakeservice.web.routing import PUBLIC


@attrs.frozen
class CommitNoteable:
    id: int
    project_id: int
    sha: str


def noteable_id(project_id: int, sha: str) -> int:
    """The id a project's commit is noted under (the sha's 64 high bits, per project)."""
    return (project_id << 64) | int(sha[:16], 16)


def _find(ctx: Context) -> Target:
    project, repo = readable(ctx)
    sha = repo.get_commit(ctx.params["commit_id"]).id
    record = CommitNoteable(noteable_id(project.id, sha), project.id, sha)
    role = access_level(ctx, project)
    return Target(record, project.id, role >= OWNER, role, None)


def register() -> None:
    """Declare the commit discussion endpoints (on the notes area's router)."""
    register_noteable(
        Noteable(
            type="Commit",
            base="/projects/:id/repository/commits/:commit_id/notes",
            params=(
                Param("id", STR, required=True, description="The ID or path of the project"),
                Param("commit_id", STR, required=True, description="A commit sha or ref"),
            ),
            find=_find,
            auth=PUBLIC,
            notes_api=False,
        )
    )
