"""Approval endpoints (seed 001 §4.3): the project configuration, project rules, merge
request approvals, approval state and rules, approve/unapprove, and merge-request-level
rules. All need authentication; configuration and project rules need the Maintainer
role; merge-request-level rules need Developer and are refused (403) when the project
disables overriding approvers per merge request.
"""

from __future__ import annotations

from typing import Any

from fakeservice.approvals import models, settings
from fakeservice.approvals.views import approvals_view, config_view, rule_view, state_view
from fakeservice.core.errors import Conflict, Forbidden, NotFound, Unauthorized, ValidationFailed
from fakeservice.members.models import DEVELOPER, MAINTAINER
from fakeservice.merge_requests import access
from fakeservice.merge_requests.models import MergeRequest, change
from fakeservice.notes.system import approval_note
from fakeservice.projects.lookup import access_level
from fakeservice.projects.models import Project
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, INT, STR, Array, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("approvals")

PROJECT_ID = Param(
    "id", STR, required=True, description="The ID or URL-encoded path of the project"
)
IID = Param("merge_request_iid", INT, required=True, description="The merge request's iid")
RULE_ID = Param("approval_rule_id", INT, required=True, description="The rule's id")
MR = "/projects/:id/merge_requests/:merge_request_iid"
RULE_FIELDS = (
    Param("rule_type", STR, values=models.RULE_TYPES),
    Param("user_ids", Array(INT, scalar=True, comma=True)),
    Param("group_ids", Array(INT, scalar=True, comma=True)),
    Param("protected_branch_ids", Array(INT, scalar=True, comma=True)),
    Param("report_type", STR, values=models.REPORT_TYPES),
    Param("scanners", Array(STR, scalar=True), values=models.SCANNERS),
    Param("severity_levels", Array(STR, scalar=True), values=models.SEVERITIES),
    Param("vulnerabilities_allowed", INT),
    Param("vulnerability_states", Array(STR, scalar=True), values=models.STATES),
)
CREATE_PARAMS = (
    Param("name", STR, required=True),
    Param("approvals_required", INT, required=True),
    *RULE_FIELDS,
)


def _project(ctx: Context, level: int = 0) -> Project:
    project = access.project(ctx)
    if level and access_level(ctx, project) < level:
        raise Forbidden()
    return project


def _fields(ctx: Context, create: bool) -> dict[str, Any]:
    names = [p.name for p in CREATE_PARAMS]
    fields = {name: ctx.params[name] for name in names if name in ctx.params}
    if create:
        fields.setdefault("rule_type", "regular")
        if fields.get("report_type") or fields["rule_type"] == "report_approver":
            fields.setdefault("scanners", list(models.SCANNERS))
            fields.setdefault("severity_levels", list(models.DEFAULT_SEVERITIES))
            fields.setdefault("vulnerability_states", ["newly_detected"])
    return fields


# -- project configuration and rules -------------------------------------------------------


@api.get("/projects/:id/approvals", params=(PROJECT_ID,), auth=REQUIRED)
def get_project_approvals(ctx: Context) -> Any:
    """The project's approval configuration."""
    project = _project(ctx)
    return config_view(settings.of_project(ctx.store, project.id))


@api.post(
    "/projects/:id/approvals",
    params=(
        PROJECT_ID,
        Param("approvals_before_merge", INT),
        *(Param(name, BOOL) for name in settings.BOOLEANS),
    ),
    auth=REQUIRED,
)
def change_project_approvals(ctx: Context) -> Any:
    """Change the approval configuration (Maintainer)."""
    project = _project(ctx, MAINTAINER)
    names = ("approvals_before_merge", *settings.BOOLEANS)
    fields = {name: ctx.params[name] for name in names if ctx.params.get(name) is not None}
    if fields.get("approvals_before_merge", 0) < 0:
        raise ValidationFailed({"approvals_before_merge": ["must be greater than or equal to 0"]})
    return config_view(settings.change(ctx.store, project.id, **fields))


@api.get("/projects/:id/approval_rules", params=(PROJECT_ID,), auth=REQUIRED, paginated=True)
def list_project_rules(ctx: Context) -> Any:
    """The project's approval rules."""
    project = _project(ctx)
    return ctx.paginate_list(
        models.of_project(ctx.store, project.id), lambda r: rule_view(ctx.store, r, ctx.base_url)
    )


def _project_rule(ctx: Context, project: Project) -> models.ApprovalRule:
    found = models.find(ctx.store, project.id, None, ctx.params["approval_rule_id"])
    if found is None:
        raise NotFound()
    return found


@api.get(
    "/projects/:id/approval_rules/:approval_rule_id", params=(PROJECT_ID, RULE_ID), auth=REQUIRED
)
def get_project_rule(ctx: Context) -> Any:
    """One project approval rule."""
    project = _project(ctx)
    return rule_view(ctx.store, _project_rule(ctx, project), ctx.base_url)


@api.post("/projects/:id/approval_rules", params=(PROJECT_ID, *CREATE_PARAMS), auth=REQUIRED)
def create_project_rule(ctx: Context) -> Any:
    """Create a project approval rule (Maintainer)."""
    project = _project(ctx, MAINTAINER)
    rule = models.save(ctx.store, None, project.id, None, _fields(ctx, True))
    return rule_view(ctx.store, rule, ctx.base_url)


@api.put(
    "/projects/:id/approval_rules/:approval_rule_id",
    params=(PROJECT_ID, RULE_ID, *CREATE_PARAMS),
    auth=REQUIRED,
)
def update_project_rule(ctx: Context) -> Any:
    """Update a project rule; users and groups not given are removed."""
    project = _project(ctx, MAINTAINER)
    rule = _project_rule(ctx, project)
    fields = _fields(ctx, False)
    fields.setdefault("user_ids", [])
    fields.setdefault("group_ids", [])
    return rule_view(
        ctx.store, models.save(ctx.store, rule, project.id, None, fields), ctx.base_url
    )


@api.delete(
    "/projects/:id/approval_rules/:approval_rule_id", params=(PROJECT_ID, RULE_ID), auth=REQUIRED
)
def delete_project_rule(ctx: Context) -> Any:
    """Delete a project rule (204)."""
    project = _project(ctx, MAINTAINER)
    models.delete(ctx.store, _project_rule(ctx, project))


# -- merge request approvals -------------------------------------------------------------------


def _approvals(ctx: Context, record: MergeRequest) -> dict[str, Any]:
    return approvals_view(ctx.store, record, ctx.base_url, ctx.user, ctx.now)


@api.get(MR + "/approvals", params=(PROJECT_ID, IID), auth=REQUIRED)
def get_merge_request_approvals(ctx: Context) -> Any:
    """Approvals of a merge request (required, left, who approved)."""
    _, record = access.merge_request(ctx)
    return _approvals(ctx, record)


@api.post(
    MR + "/approvals",
    params=(PROJECT_ID, IID, Param("approvals_required", INT, required=True)),
    auth=REQUIRED,
)
def change_merge_request_approvals(ctx: Context) -> Any:
    """Change the approvals a merge request requires (deprecated; Developer)."""
    project, record = access.merge_request(ctx)
    if access_level(ctx, project) < DEVELOPER:
        raise Forbidden()
    if settings.of_project(ctx.store, project.id).disable_overriding_approvers_per_merge_request:
        raise Forbidden()
    change(
        ctx.store, record, ctx.now, approvals_before_merge=max(0, ctx.params["approvals_required"])
    )
    return _approvals(ctx, record)


@api.get(MR + "/approval_state", params=(PROJECT_ID, IID), auth=REQUIRED)
def get_approval_state(ctx: Context) -> Any:
    """The rules that decide the merge request and who approved each."""
    _, record = access.merge_request(ctx)
    return state_view(ctx.store, record, ctx.base_url)


@api.post(
    MR + "/approve",
    params=(PROJECT_ID, IID, Param("sha", STR), Param("approval_password", STR)),
    auth=REQUIRED,
)
def approve_merge_request(ctx: Context) -> Any:
    """Approve (401 when the caller may not or did already; 409 on a stale ``sha``)."""
    _, record = access.merge_request(ctx)
    if ctx.params.get("sha") is not None and ctx.params["sha"] != record.sha:
        raise Conflict(f"SHA does not match HEAD of source branch: {record.sha}")
    if ctx.user.id in record.approved_by or not models.can_approve(
        ctx.store, record, ctx.user, ctx.now
    ):
        raise Unauthorized()
    models.approve(ctx.store, record, ctx.user.id)
    _note(ctx, record, True)
    return _approvals(ctx, record)


@api.post(MR + "/unapprove", params=(PROJECT_ID, IID), auth=REQUIRED)
def unapprove_merge_request(ctx: Context) -> Any:
    """Withdraw the caller's approval (404 when there is none)."""
    _, record = access.merge_request(ctx)
    if ctx.user.id not in record.approved_by:
        raise NotFound()
    models.unapprove(ctx.store, record, ctx.user.id)
    _note(ctx, record, False)
    return _approvals(ctx, record)


def _note(ctx: Context, record: MergeRequest, approved: bool) -> None:
    approval_note(ctx.store, record, ctx.user.id, approved, ctx.now)


# -- merge request rules --------------------------------------------------------------------------


def _mr_rule_writer(ctx: Context) -> tuple[Project, MergeRequest]:
    project, record = access.merge_request(ctx)
    if access_level(ctx, project) < DEVELOPER and ctx.user.id != record.author_id:
        raise Forbidden()
    if settings.of_project(ctx.store, project.id).disable_overriding_approvers_per_merge_request:
        raise Forbidden()
    return project, record


def _mr_rule(ctx: Context, project: Project, record: MergeRequest) -> models.ApprovalRule:
    found = models.find(ctx.store, project.id, record.id, ctx.params["approval_rule_id"])
    if found is None:
        raise NotFound()
    return found


@api.get(MR + "/approval_rules", params=(PROJECT_ID, IID), auth=REQUIRED, paginated=True)
def list_merge_request_rules(ctx: Context) -> Any:
    """The merge request's own rules (else the project's that apply)."""
    _, record = access.merge_request(ctx)
    _, found = models.effective_rules(ctx.store, record)
    return ctx.paginate_list(found, lambda r: rule_view(ctx.store, r, ctx.base_url))


@api.post(
    MR + "/approval_rules",
    params=(PROJECT_ID, IID, *CREATE_PARAMS, Param("approval_project_rule_id", INT)),
    auth=REQUIRED,
)
def create_merge_request_rule(ctx: Context) -> Any:
    """Create a merge-request-level rule (from a project rule with ``approval_project_rule_id``)."""
    project, record = _mr_rule_writer(ctx)
    fields = _fields(ctx, True)
    source_id = ctx.params.get("approval_project_rule_id")
    if source_id is not None:
        source = models.find(ctx.store, project.id, None, source_id)
        if source is not None:
            fields.setdefault("user_ids", list(source.user_ids))
            fields.setdefault("group_ids", list(source.group_ids))
            fields["source_rule_id"] = source.id
    rule = models.save(ctx.store, None, project.id, record.id, fields)
    return rule_view(ctx.store, rule, ctx.base_url)


@api.put(
    MR + "/approval_rules/:approval_rule_id",
    params=(
        PROJECT_ID,
        IID,
        RULE_ID,
        Param("name", STR),
        Param("approvals_required", INT),
        *RULE_FIELDS,
    ),
    auth=REQUIRED,
)
def update_merge_request_rule(ctx: Context) -> Any:
    """Update a merge-request-level rule."""
    project, record = _mr_rule_writer(ctx)
    rule = _mr_rule(ctx, project, record)
    return rule_view(
        ctx.store,
        models.save(ctx.store, rule, project.id, record.id, _fields(ctx, False)),
        ctx.base_url,
    )


@api.delete(
    MR + "/approval_rules/:approval_rule_id", params=(PROJECT_ID, IID, RULE_ID), auth=REQUIRED
)
def delete_merge_request_rule(ctx: Context) -> Any:
    """Delete a merge-request-level rule (204)."""
    project, record = _mr_rule_writer(ctx)
    models.delete(ctx.store, _mr_rule(ctx, project, record))
