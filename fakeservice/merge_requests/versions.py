"""Merge request diff versions: one record each time the source branch head of a merge
request changes (its creation, a push or commit to the source branch, a rebase), with the
diff refs of that moment, served newest first from a per-merge-request index.

``GET /projects/:id/merge_requests/:iid/versions`` lists them; ``.../versions/:version_id``
adds the version's ``commits`` (newest first) and ``diffs`` (the repository's compare of
``base_commit_sha`` → ``head_commit_sha``). ``real_size`` (the number of changed files,
as a string) and ``patch_id_sha`` (a SHA-1 of the version's diff text, standing in for
git's patch id) are computed once, when the version is recorded.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import TYPE_CHECKING, Any

import attrs

from fakeservice.core.clock import iso
from fakeservice.core.errors import NotFound
from fakeservice.core.store import Store, Table
from fakeservice.merge_requests import access, gitops, operations
from fakeservice.merge_requests.models import MergeRequest
from fakeservice.merge_requests.router import api
from fakeservice.merge_requests.routes import IID, ONE, PROJECT_ID
from fakeservice.repository.models import RefChange
from fakeservice.repository.views import commit_view, diff_view
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, INT, Param
from fakeservice.web.routing import REQUIRED

if TYPE_CHECKING:
    from fakeservice.composition import Composition
    from fakeservice.projects.models import Project
    from fakeservice.users.models import User

TABLE = "merge_request_diffs"


@attrs.define(slots=True)
class DiffVersion:
    id: int
    merge_request_id: int
    head_commit_sha: str
    base_commit_sha: str | None
    start_commit_sha: str | None
    created_at: dt.datetime
    real_size: str
    patch_id_sha: str | None
    state: str = "collected"


def versions(store: Store) -> Table[DiffVersion]:
    return store.tables[TABLE]


def install(store: Store) -> None:
    store.table(TABLE).add_sorted("merge_request", lambda r: r.merge_request_id)


def record_version(store: Store, record: MergeRequest, now: dt.datetime) -> DiffVersion | None:
    """Record the merge request's current diff refs as its newest version (nothing when
    the source head is unknown or unchanged since the newest version)."""
    if record.sha is None:
        return None
    newest = next(iter(of_merge_request(store, record)), None)
    if newest is not None and newest.head_commit_sha == record.sha:
        return None
    repo = operations.repo_of(store, record)
    diffs = gitops.changes(repo, record.base_sha, record.sha)
    text = "".join(f"{d.old_path}\0{d.new_path}\0{d.diff}" for d in diffs)
    version = DiffVersion(
        id=store.next_id(TABLE),
        merge_request_id=record.id,
        head_commit_sha=record.sha,
        base_commit_sha=record.base_sha,
        start_commit_sha=record.start_sha,
        created_at=now,
        real_size=str(len(diffs)),
        patch_id_sha=hashlib.sha1(text.encode()).hexdigest() if diffs else None,
        state="collected" if diffs else "empty",
    )
    return versions(store).insert(version)


def of_merge_request(store: Store, record: MergeRequest) -> Any:
    """The merge request's versions, newest first (a selection of its index partition)."""
    return versions(store).select("merge_request", [record.id], reverse=True)


def _created(
    store: Store, record: MergeRequest, event: str, user: User | None, now: dt.datetime
) -> None:
    if event == "created":
        record_version(store, record, now)


def _pushed(
    store: Store, project: Project, record: MergeRequest, change: RefChange, added: list[str]
) -> None:
    record_version(store, record, change.now)


def register(setup: Composition) -> None:
    """The table and the two reactions that record versions."""
    setup.tables(install)
    setup.listen(operations.MR_EVENT, _created)
    setup.listen(operations.MR_PUSHED, _pushed)


def version_view(version: DiffVersion) -> dict[str, Any]:
    return {
        "id": version.id,
        "head_commit_sha": version.head_commit_sha,
        "base_commit_sha": version.base_commit_sha,
        "start_commit_sha": version.start_commit_sha,
        "created_at": iso(version.created_at),
        "merge_request_id": version.merge_request_id,
        "state": version.state,
        "real_size": version.real_size,
        "patch_id_sha": version.patch_id_sha,
    }


@api.get(ONE + "/versions", params=(PROJECT_ID, IID), auth=REQUIRED, paginated=True)
def list_merge_request_versions(ctx: Context) -> Any:
    """The merge request's diff versions, newest first."""
    _, record = access.merge_request(ctx)
    return ctx.paginate(of_merge_request(ctx.store, record), version_view)


@api.get(
    ONE + "/versions/:version_id",
    params=(
        PROJECT_ID,
        IID,
        Param("version_id", INT, required=True, description="The ID of the diff version"),
        Param("unidiff", BOOL),
    ),
    auth=REQUIRED,
)
def get_merge_request_version(ctx: Context) -> Any:
    """One diff version with its commits (newest first) and diffs."""
    project, record = access.merge_request(ctx)
    version = versions(ctx.store).get(ctx.params["version_id"])
    if version is None or version.merge_request_id != record.id:
        raise NotFound()
    repo = operations.repo_of(ctx.store, record)
    shas = gitops.commits_between(repo, version.start_commit_sha, version.head_commit_sha)
    web = f"{ctx.base_url}/{project.path_with_namespace}"
    diffs = gitops.changes(repo, version.base_commit_sha, version.head_commit_sha)
    return {
        **version_view(version),
        "commits": [commit_view(repo.get_commit(sha), web) for sha in shas],
        "diffs": [diff_view(entry) for entry in diffs],
    }
