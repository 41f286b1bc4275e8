"""Finding a merge request for a request and the role checks its endpoints need.

Every merge request call needs authentication (seed 001 §5); non-members of a private
project get ``404 Project Not Found``; a project whose merge requests feature is disabled
(or private to members) answers 403 to those without access.
"""

from __future__ import annotations

from fakeservice.core.errors import NotFound
from fakeservice.issues.features import project_with_feature
from fakeservice.merge_requests.models import MergeRequest, find
from fakeservice.projects.models import Project
from fakeservice.web.context import Context


def project(ctx: Context) -> Project:
    return project_with_feature(ctx, "merge_requests")


def merge_request(ctx: Context) -> tuple[Project, MergeRequest]:
    """The project of ``:id`` and its merge request ``:merge_request_iid`` (404 Not found)."""
    found = project(ctx)
    record = find(ctx.store, found.id, ctx.params["merge_request_iid"])
    if record is None:
        raise NotFound()
    return found, record
