"""Approval rules (project and merge request level), approvals, and the approval state
computed from them (seed 001 §2.3, §4.2 (3), §4.3).

A rule is satisfied when enough of its eligible approvers approved: a ``regular`` rule's
eligible approvers are its users and the members of its groups; an ``any_approver`` rule
counts every approval. A merge request uses its own rules when it has any (the state says
``approval_rules_overwritten``), else the project's rules that apply to its target branch;
with no rule at all, its ``approvals_before_merge`` counts as one ``any_approver`` rule.
Authors may approve only with ``merge_requests_author_approval``; committers of the merge
request's commits may not with ``merge_requests_disable_committers_approval``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from fakeservice.approvals import reports, settings
from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Store, Table
from fakeservice.members.access import project_access
from fakeservice.members.models import DEVELOPER, NAMESPACE, of_source
from fakeservice.merge_requests import gitops, operations
from fakeservice.merge_requests.models import MergeRequest, change
from fakeservice.repository import protected
from fakeservice.users.models import users

RULE_TYPES = ("regular", "any_approver", "report_approver")
REPORT_TYPES = ("vulnerability", "license_scanning", "code_coverage")
SCANNERS = (
    "sast",
    "secret_detection",
    "dependency_scanning",
    "container_scanning",
    "dast",
    "coverage_fuzzing",
    "api_fuzzing",
)
SEVERITIES = ("info", "unknown", "low", "medium", "high", "critical")
DEFAULT_SEVERITIES = ("unknown", "high", "critical")
STATES = ("newly_detected", "detected", "confirmed", "resolved", "dismissed")


@attrs.define(slots=True)
class ApprovalRule:
    id: int
    project_id: int
    merge_request_id: int | None
    name: str
    rule_type: str
    approvals_required: int
    user_ids: list[int] = attrs.field(factory=list)
    group_ids: list[int] = attrs.field(factory=list)
    protected_branch_ids: list[int] = attrs.field(factory=list)
    report_type: str | None = None
    scanners: list[str] = attrs.field(factory=list)
    severity_levels: list[str] = attrs.field(factory=list)
    vulnerabilities_allowed: int = 0
    vulnerability_states: list[str] = attrs.field(factory=list)
    source_rule_id: int | None = None


def rules(store: Store) -> Table[ApprovalRule]:
    return store.tables["approval_rules"]


def install(store: Store) -> None:
    table = store.table("approval_rules")
    table.add_sorted("owner", lambda r: (r.project_id, r.merge_request_id))
    table.add_sorted("project", lambda r: r.project_id)


def of_project(store: Store, project_id: int) -> list[ApprovalRule]:
    return list(rules(store).select("owner", [(project_id, None)]))


def of_merge_request(store: Store, record: MergeRequest) -> list[ApprovalRule]:
    return list(rules(store).select("owner", [(record.project_id, record.id)]))


def find(
    store: Store, project_id: int, merge_request_id: int | None, rule_id: int
) -> ApprovalRule | None:
    found = rules(store).get(rule_id)
    if (
        found is None
        or found.project_id != project_id
        or found.merge_request_id != merge_request_id
    ):
        return None
    return found


def rule_errors(
    fields: dict[str, Any], others: Iterable[ApprovalRule], own_id: int | None
) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    name = fields.get("name")
    if not isinstance(name, str) or not name.strip():
        errors["name"] = ["can't be blank"]
    elif any(o.name == name and o.id != own_id for o in others):
        errors["name"] = ["has already been taken"]
    required = fields.get("approvals_required")
    if isinstance(required, int) and required < 0:
        errors["approvals_required"] = ["must be greater than or equal to 0"]
    if fields.get("rule_type") == "any_approver" and any(
        o.rule_type == "any_approver" and o.id != own_id for o in others
    ):
        errors["rule_type"] = ["any-approver for the project already exists"]
    return errors


def save(
    store: Store,
    rule: ApprovalRule | None,
    project_id: int,
    mr_id: int | None,
    fields: dict[str, Any],
) -> ApprovalRule:
    """Create (``rule`` None) or update a rule after validating the merged fields."""
    siblings = (
        of_project(store, project_id)
        if mr_id is None
        else list(rules(store).select("owner", [(project_id, mr_id)]))
    )
    current = attrs.asdict(rule) if rule is not None else {"rule_type": "regular"}
    merged = {**current, **{k: v for k, v in fields.items() if v is not None}}
    errors = rule_errors(merged, siblings, rule.id if rule else None)
    if errors:
        raise ValidationFailed(errors)
    if merged.get("rule_type") == "any_approver":
        merged["user_ids"], merged["group_ids"] = [], []
    if rule is None:
        record = ApprovalRule(
            id=store.next_id("approval_rules"),
            project_id=project_id,
            merge_request_id=mr_id,
            **{k: v for k, v in merged.items() if k in _EDITABLE},
        )
        return rules(store).insert(record)
    return rules(store).update(rule, **{k: v for k, v in merged.items() if k in _EDITABLE})


_EDITABLE = (
    "name",
    "rule_type",
    "approvals_required",
    "user_ids",
    "group_ids",
    "protected_branch_ids",
    "report_type",
    "scanners",
    "severity_levels",
    "vulnerabilities_allowed",
    "vulnerability_states",
    "source_rule_id",
)


def delete(store: Store, rule: ApprovalRule) -> None:
    rules(store).delete(rule)


# -- eligibility and state ------------------------------------------------------------------


def group_member_ids(store: Store, group_ids: Iterable[int]) -> list[int]:
    out: list[int] = []
    for group_id in group_ids:
        for member in of_source(store, NAMESPACE, group_id):
            if member.user_id not in out:
                out.append(member.user_id)
    return out


def eligible_ids(store: Store, rule: ApprovalRule) -> list[int]:
    """Users of the rule, then members of its groups (once each, existing users only)."""
    table = users(store)
    out: list[int] = []
    for user_id in [*rule.user_ids, *group_member_ids(store, rule.group_ids)]:
        if user_id not in out and table.get(user_id) is not None:
            out.append(user_id)
    return out


def applies_to(store: Store, rule: ApprovalRule, branch: str) -> bool:
    if not rule.protected_branch_ids:
        return True
    table = protected.protected_branches(store)
    found = (table.get(i) for i in rule.protected_branch_ids)
    return any(p is not None and p.matches(branch) for p in found)


@attrs.frozen
class RuleState:
    rule: ApprovalRule
    approved_by: list[int]
    required: int

    @property
    def approved(self) -> bool:
        return len(self.approved_by) >= self.required


def effective_rules(store: Store, record: MergeRequest) -> tuple[bool, list[ApprovalRule]]:
    """(overwritten, rules) that decide the merge request's approvals."""
    own = of_merge_request(store, record)
    if own:
        return True, own
    found = [
        r
        for r in of_project(store, record.project_id)
        if applies_to(store, r, record.target_branch)
    ]
    return False, found


def rule_states(store: Store, record: MergeRequest) -> tuple[bool, list[RuleState]]:
    overwritten, found = effective_rules(store, record)
    out: list[RuleState] = []
    for rule in found:
        needed = rule.approvals_required
        if rule.rule_type == "report_approver" and not reports.required(
            store, record, rule.report_type
        ):
            needed = 0
        if rule.rule_type == "any_approver":
            approved = list(record.approved_by)
        else:
            eligible = set(eligible_ids(store, rule))
            approved = [u for u in record.approved_by if u in eligible]
        out.append(RuleState(rule, approved, needed))
    return overwritten, out


def approvals_required(store: Store, record: MergeRequest) -> int:
    _, states = rule_states(store, record)
    if states:
        return sum(s.required for s in states)
    return record.approvals_before_merge or 0


def approvals_left(store: Store, record: MergeRequest) -> int:
    _, states = rule_states(store, record)
    if states:
        return sum(max(0, s.required - len(s.approved_by)) for s in states)
    return max(0, (record.approvals_before_merge or 0) - len(record.approved_by))


def committer_ids(store: Store, record: MergeRequest) -> set[int]:
    repo = operations.repo_of(store, record)
    emails = {
        repo.get_commit(sha).committer_email.lower()
        for sha in gitops.commits_between(repo, record.start_sha, record.sha)
    }
    return {
        u.id
        for u in users(store)
        if u.email.lower() in emails or (u.commit_email or "").lower() in emails
    }


def can_approve(store: Store, record: MergeRequest, user: Any, now: Any) -> bool:
    """Whether ``user`` may approve (not counting an approval already given)."""
    if user is None or record.state != "opened":
        return False
    project = operations.project_of(store, record)
    config = settings.of_project(store, project.id)
    if user.id == record.author_id and not config.merge_requests_author_approval:
        return False
    if config.merge_requests_disable_committers_approval and user.id in committer_ids(
        store, record
    ):
        return False
    if user.admin:
        return True
    _, states = rule_states(store, record)
    eligible = {
        u for s in states if s.rule.rule_type == "regular" for u in eligible_ids(store, s.rule)
    }
    if user.id in eligible:
        return True
    return project_access(store, user, project, now) >= DEVELOPER


def approve(store: Store, record: MergeRequest, user_id: int) -> None:
    if user_id not in record.approved_by:
        change(store, record, None, approved_by=[*record.approved_by, user_id])


def unapprove(store: Store, record: MergeRequest, user_id: int) -> None:
    change(store, record, None, approved_by=[u for u in record.approved_by if u != user_id])
