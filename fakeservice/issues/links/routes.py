"""Issue link endpoints: ``/projects/:id/issues/:issue_iid/links`` (list, create) and
``.../links/:issue_link_id`` (get, delete).

A link shows from both of its issues; the list gives each linked issue the caller may read
with ``issue_link_id``, ``link_type`` (as seen from the listed issue), ``link_created_at``
and ``link_updated_at``. Creating and deleting need the Guest role in the projects of both
issues: an unknown target project is ``404 Project Not Found``, an unknown target issue
``404 Not found``, a target the caller may not link (or the issue itself) the service's
``404 No matching issue found...``, a second link between two issues ``409 Issue(s)
already assigned``. Get and delete answer ``{source_issue, target_issue, link_type}``.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.errors import ApiError, Conflict, Forbidden, NotFound
from fakeservice.issues.features import project_with_feature
from fakeservice.issues.links import models
from fakeservice.issues.models import Issue, issues
from fakeservice.issues.routes import IID, PROJECT_ID, api, find_issue, may_see
from fakeservice.issues.views import issue_view
from fakeservice.members.access import can_read_project
from fakeservice.members.models import GUEST, REPORTER
from fakeservice.projects.lookup import access_level, find_project_or_404
from fakeservice.projects.models import Project, projects
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import REQUIRED

LINKS = "/projects/:id/issues/:issue_iid/links"
ONE = LINKS + "/:issue_link_id"
LINK_ID = Param("issue_link_id", INT, required=True, description="The ID of the issue link")
NO_MATCH = "No matching issue found. Make sure that you are adding a valid issue URL."


def _usable(ctx: Context, issue: Issue) -> Project | None:
    """The project of ``issue`` when the caller may read the issue there."""
    project = projects(ctx.store).get(issue.project_id)
    if project is None or project.marked_for_deletion_on is not None:
        return None
    if not can_read_project(ctx.store, ctx.user, project, ctx.now):
        return None
    level = project.features.get("issues", "enabled")
    role = access_level(ctx, project)
    if level == "disabled" or (level == "private" and role < REPORTER):
        return None
    return project if may_see(ctx, project, issue, role) else None


def _may_link(ctx: Context, issue: Issue) -> bool:
    project = _usable(ctx, issue)
    return project is not None and access_level(ctx, project) >= GUEST


def _source(ctx: Context) -> Issue:
    project = project_with_feature(ctx, "issues")
    return find_issue(ctx, project, ctx.params["issue_iid"])


def _render(ctx: Context, issue: Issue) -> dict[str, Any]:
    return issue_view(ctx.store, issue, ctx.base_url, ctx.now)


def _link_view(ctx: Context, link: models.IssueLink) -> dict[str, Any]:
    table = issues(ctx.store)
    return {
        "source_issue": _render(ctx, table.rows[link.source_id]),
        "target_issue": _render(ctx, table.rows[link.target_id]),
        "link_type": link.link_type,
    }


def _readable_other(ctx: Context, link: models.IssueLink, issue: Issue) -> Issue | None:
    other = issues(ctx.store).get(link.other(issue.id))
    return other if other is not None and _usable(ctx, other) is not None else None


@api.get(LINKS, params=(PROJECT_ID, IID), auth=REQUIRED)
def list_issue_links(ctx: Context) -> Any:
    """The issues linked to the issue that the caller may read, oldest link first."""
    issue = _source(ctx)
    out = []
    for link in models.of_issue(ctx.store, issue.id):
        other = _readable_other(ctx, link, issue)
        if other is None:
            continue
        out.append(
            {
                **_render(ctx, other),
                "issue_link_id": link.id,
                "link_type": link.type_from(issue.id),
                "link_created_at": iso(link.created_at),
                "link_updated_at": iso(link.updated_at),
            }
        )
    return out


def _link_of(ctx: Context, issue: Issue) -> models.IssueLink:
    """The link ``:issue_link_id`` of ``issue`` whose other issue the caller may read."""
    link = models.issue_links(ctx.store).get(ctx.params["issue_link_id"])
    if link is None or issue.id not in (link.source_id, link.target_id):
        raise NotFound()
    if _readable_other(ctx, link, issue) is None:
        raise NotFound()
    return link


@api.get(ONE, params=(PROJECT_ID, IID, LINK_ID), auth=REQUIRED)
def get_issue_link(ctx: Context) -> Any:
    """One link of the issue: its source and target issues and type."""
    issue = _source(ctx)
    return _link_view(ctx, _link_of(ctx, issue))


@api.post(
    LINKS,
    params=(
        PROJECT_ID,
        IID,
        Param(
            "target_project_id",
            STR,
            required=True,
            description="The ID or URL-encoded path of the target issue's project",
        ),
        Param("target_issue_iid", INT, required=True, description="The target issue's iid"),
        Param("link_type", STR, values=models.LINK_TYPES, default="relates_to"),
    ),
    auth=REQUIRED,
    status=201,
)
def create_issue_link(ctx: Context) -> Any:
    """Link the issue to another one (201 with both issues)."""
    issue = _source(ctx)
    if not _may_link(ctx, issue):
        raise Forbidden()
    p = ctx.params
    target_project = find_project_or_404(ctx, p["target_project_id"])
    target = find_issue(ctx, target_project, p["target_issue_iid"])
    if target.id == issue.id or not _may_link(ctx, target):
        raise ApiError({"message": NO_MATCH}, status=404)
    if models.between(ctx.store, issue.id, target.id) is not None:
        raise Conflict("Issue(s) already assigned")
    link = models.create(
        ctx.store, issue.id, target.id, p.get("link_type") or "relates_to", ctx.now
    )
    return _link_view(ctx, link)


@api.delete(ONE, params=(PROJECT_ID, IID, LINK_ID), auth=REQUIRED)
def delete_issue_link(ctx: Context) -> Any:
    """Remove a link (from both of its issues); 200 with the link as it was."""
    issue = _source(ctx)
    link = _link_of(ctx, issue)
    if not _may_link(ctx, issue):
        raise NotFound()
    out = _link_view(ctx, link)
    models.delete(ctx.store, link)
    return out
