"""Epic issues endpoints (paid tier; every call authenticated):

* ``GET /groups/:id/epics/:epic_iid/issues``: the epic's issues the caller may see, in
  their order, each an issue with ``epic_issue_id`` and ``relative_position``;
* ``POST .../issues/:issue_id`` (the issue's global id): assign it first in the epic,
  moving it from another epic; the link ``{id, relative_position, epic, issue}``;
* ``DELETE .../issues/:epic_issue_id``: unassign it; the removed link;
* ``PUT .../issues/:epic_issue_id`` with ``move_before_id`` / ``move_after_id`` (links of
  the same epic): reorder; the epic's issues.

Changes need the Planner role in the epic's group (as editing the epic). An unknown issue
or link answers ``404 Not found``; an issue the caller may not see, or outside the epic's
group and its subgroups, ``404`` ``No matching issue found...``; an issue already in the
epic ``409``; a link of another epic ``403``; a plan without epics ``403``.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import Forbidden, NotFound
from fakeservice.epics import issue_links as links
from fakeservice.epics import models
from fakeservice.epics.access import epic_group, epic_role
from fakeservice.epics.routes import ID, IID, PATH, api, render_epic, visible_epic
from fakeservice.groups.models import namespaces, self_and_ancestor_ids
from fakeservice.issues.models import Issue, issues
from fakeservice.issues.routes import may_see
from fakeservice.issues.views import issue_view
from fakeservice.members.access import can_read_project
from fakeservice.members.models import GUEST, PLANNER
from fakeservice.projects.lookup import access_level
from fakeservice.projects.models import projects
from fakeservice.web.context import Context
from fakeservice.web.params import INT, AtLeastOne, Param
from fakeservice.web.routing import REQUIRED

ISSUES = PATH + "/:epic_iid/issues"
ISSUE_ID = Param("issue_id", INT, required=True, description="The global ID of the issue")
LINK_ID = Param(
    "epic_issue_id", INT, required=True, description="The ID of the issue - epic association"
)
MOVE_PARAMS = (
    ID,
    IID,
    LINK_ID,
    Param("move_before_id", INT, description="The association to place before this one"),
    Param("move_after_id", INT, description="The association to place after this one"),
)


def _readable(ctx: Context, issue: Issue | None) -> bool:
    if issue is None:
        return False
    project = projects(ctx.store).get(issue.project_id)
    if project is None or not can_read_project(ctx.store, ctx.user, project, ctx.now):
        return False
    return may_see(ctx, project, issue)


def _issue_view(ctx: Context, issue: Issue) -> dict[str, Any]:
    caller = ctx.user.id if ctx.user is not None else None
    return issue_view(ctx.store, issue, ctx.base_url, ctx.now, caller_id=caller)


def _epic_issues(ctx: Context, epic: models.Epic) -> Any:
    table = issues(ctx.store)
    selection = links.of_epic(ctx.store, epic.id).filter(
        lambda link: _readable(ctx, table.get(link.issue_id))
    )

    def render(link: links.EpicIssue) -> dict[str, Any]:
        return {
            **_issue_view(ctx, table.rows[link.issue_id]),
            "epic_issue_id": link.id,
            "relative_position": link.relative_position,
        }

    return ctx.paginate(selection, render)


def _link_view(ctx: Context, epic: models.Epic, link: links.EpicIssue) -> dict[str, Any]:
    return {
        "id": link.id,
        "relative_position": link.relative_position,
        "epic": render_epic(ctx, epic),
        "issue": _issue_view(ctx, issues(ctx.store).rows[link.issue_id]),
    }


def _editable_epic(ctx: Context) -> models.Epic:
    epic = visible_epic(ctx, epic_group(ctx))
    if epic_role(ctx, epic.group_id) < PLANNER:
        raise Forbidden()
    return epic


def _linkable(ctx: Context, epic: models.Epic, issue: Issue) -> bool:
    """Whether the caller may put ``issue`` in ``epic``: they see it (and are a member of
    its project, or an administrator) and its project is in the epic's group or below."""
    if not _readable(ctx, issue):
        return False
    project = projects(ctx.store).rows[issue.project_id]
    if access_level(ctx, project) < GUEST:
        return False
    namespace = namespaces(ctx.store).rows[project.namespace_id]
    return epic.group_id in self_and_ancestor_ids(ctx.store, namespace)


@api.get(ISSUES, params=(ID, IID), auth=REQUIRED, paginated=True)
def list_epic_issues(ctx: Context) -> Any:
    """List the epic's issues the caller may see, in the epic's order."""
    return _epic_issues(ctx, visible_epic(ctx, epic_group(ctx)))


@api.post(ISSUES + "/:issue_id", params=(ID, IID, ISSUE_ID), auth=REQUIRED)
def assign_epic_issue(ctx: Context) -> Any:
    """Assign an issue to the epic (first in its order), moving it from another epic."""
    epic = _editable_epic(ctx)
    issue = issues(ctx.store).get(ctx.params["issue_id"])
    if issue is None:
        raise NotFound()
    if not _linkable(ctx, epic, issue):
        raise NotFound(message=links.NO_MATCHING_ISSUE)
    link = links.assign(ctx.store, epic.id, issue.id, ctx.now)
    return _link_view(ctx, epic, link)


@api.delete(ISSUES + "/:epic_issue_id", params=(ID, IID, LINK_ID), auth=REQUIRED)
def remove_epic_issue(ctx: Context) -> Any:
    """Remove an issue from the epic; the removed association."""
    epic = _editable_epic(ctx)
    link = links.link_of_epic(ctx.store, epic.id, ctx.params["epic_issue_id"])
    answer = _link_view(ctx, epic, link)
    links.remove(ctx.store, link)
    return answer


@api.put(
    ISSUES + "/:epic_issue_id",
    params=MOVE_PARAMS,
    constraints=(AtLeastOne(("move_before_id", "move_after_id")),),
    auth=REQUIRED,
)
def move_epic_issue(ctx: Context) -> Any:
    """Reorder an issue of the epic; the epic's issues in their new order."""
    epic = _editable_epic(ctx)
    p = ctx.params
    link = links.link_of_epic(ctx.store, epic.id, p["epic_issue_id"])
    before = (
        links.in_epic(ctx.store, epic.id, p["move_before_id"]) if "move_before_id" in p else None
    )
    after = links.in_epic(ctx.store, epic.id, p["move_after_id"]) if "move_after_id" in p else None
    links.move(ctx.store, link, before, after)
    return _epic_issues(ctx, epic)
