"""Finding a merge request for a request and the role checks its endpoints need.

Every merge request call needs authentication (seed 001 §5); non-members of a private
project get ``404 Project Not Found``; a project whose merge requests feature is disabled
(or private to members) answers 403 to those without access.
"""

from __future__ import annotations

from fakeservice.core.errors import Forbidden, NotFound
from fakeservice.members.models import REPORTER
from fakeservice.merge_requests.models import MergeRequest, find
from fakeservice.projects.lookup import access_level, find_project_or_404
from fakeservice.projects.models import Project
from fakeservice.web.context import Context


def project(ctx: Context) -> Project:
    found = find_project_or_404(ctx, ctx.params["id"])
    feature = found.features.get("merge_requests", "enabled")
    if feature == "disabled" or (feature == "private" and access_level(ctx, found) < REPORTER):
        raise Forbidden()
    return found


def merge_request(ctx: Context) -> tuple[Project, MergeRequest]:
    """The project of ``:id`` and its merge request ``:merge_request_iid`` (404 Not found)."""
    found = project(ctx)
    record = find(ctx.store, found.id, ctx.params["merge_request_iid"])
    if record is None:
        raise NotFound()
    return found, record
