"""The noteables and awardables this area registers itself: issues and merge requests
(snippets register from the snippets area, epics from the epics area)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import ApiError
from fakeservice.core.store import Store
from fakeservice.issues import models as issues
from fakeservice.issues.routes import find_issue
from fakeservice.members.models import OWNER
from fakeservice.merge_requests import access as mr_access
from fakeservice.merge_requests import gitops
from fakeservice.merge_requests import models as merge_requests
from fakeservice.merge_requests import operations as mr_operations
from fakeservice.merge_requests.views import diff_refs, discussions_resolved
from fakeservice.notes import positions
from fakeservice.notes.award_routes import Awardable, register_awardable
from fakeservice.notes.registry import Noteable, Target
from fakeservice.notes.routes import register_noteable
from fakeservice.projects.lookup import access_level, find_project_or_404
from fakeservice.projects.models import Project
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import REQUIRED

PROJECT_ID = Param(
    "id", STR, required=True, description="The ID or URL-encoded path of the project"
)


def _issue(ctx: Context) -> Target:
    project = find_project_or_404(ctx, ctx.params["id"])
    record = find_issue(ctx, project, ctx.params["issue_iid"])
    role = access_level(ctx, project)
    return Target(record, project.id, role >= OWNER, role, issues.issues)


def _merge_request(ctx: Context) -> Target:
    project, record = mr_access.merge_request(ctx)
    role = access_level(ctx, project)
    return Target(record, project.id, role >= OWNER, role, merge_requests.merge_requests)


def _position(ctx: Context, target: Target, raw: Any) -> dict[str, Any]:
    record = target.record
    repo = mr_operations.repo_of(ctx.store, record)
    changed = gitops.changes(repo, record.base_sha, record.sha)
    return positions.check(raw, repo, diff_refs(record), changed)


MR_PARAMS = (PROJECT_ID, Param("merge_request_iid", INT, required=True))
# merge request notes: also what draft notes find their merge request and check with
MERGE_REQUEST_NOTES = Noteable(
    type="MergeRequest",
    base="/projects/:id/merge_requests/:merge_request_iid/notes",
    params=MR_PARAMS,
    find=_merge_request,
    auth=REQUIRED,
    resolvable=True,
    position=_position,
)


def unresolved_guard(store: Store, project: Project, record: Any, user: Any) -> None:
    """Refuse a merge (405) while the project wants every thread resolved and one is not."""
    if not discussions_resolved(store, project, record):
        raise ApiError({"message": "405 Method Not Allowed"}, status=405)


def register() -> None:
    """Declare the note and award emoji endpoints of issues and merge requests."""
    issue_params = (PROJECT_ID, Param("issue_iid", INT, required=True))
    mr_params = MR_PARAMS
    register_awardable(Awardable("Issue", "/projects/:id/issues/:issue_iid", issue_params, _issue))
    register_awardable(
        Awardable(
            "MergeRequest",
            "/projects/:id/merge_requests/:merge_request_iid",
            mr_params,
            _merge_request,
        )
    )
    register_noteable(
        Noteable(
            type="Issue",
            base="/projects/:id/issues/:issue_iid/notes",
            params=issue_params,
            find=_issue,
            confidential=True,
        )
    )
    register_noteable(MERGE_REQUEST_NOTES)
