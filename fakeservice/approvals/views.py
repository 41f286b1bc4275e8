"""JSON shapes of approvals (seed 001 §2.3): project configuration, rules, merge request
approvals and approval state."""

from __future__ import annotations

from typing import Any

from fakeservice.approvals import models, settings
from fakeservice.core.store import Store
from fakeservice.groups.models import namespaces
from fakeservice.groups.views import group_view
from fakeservice.issues.shared_views import head
from fakeservice.merge_requests.models import MergeRequest
from fakeservice.repository import protected
from fakeservice.repository.views import protected_branch_view
from fakeservice.users.models import users
from fakeservice.users.views import user_ref


def config_view(config: settings.ApprovalSettings) -> dict[str, Any]:
    return {
        "approvers": [],
        "approver_groups": [],
        "approvals_before_merge": config.approvals_before_merge,
        **{name: getattr(config, name) for name in settings.BOOLEANS},
    }


def _users(store: Store, ids: list[int], base_url: str) -> list[dict[str, Any]]:
    table = users(store)
    return [ref for ref in (user_ref(table.get(i), base_url) for i in ids) if ref is not None]


def _groups(store: Store, ids: list[int], base_url: str) -> list[dict[str, Any]]:
    table = namespaces(store)
    out = []
    for group_id in ids:
        group = table.get(group_id)
        if group is not None:
            out.append({**group_view(store, group, base_url), "ldap_cn": None, "ldap_access": None})
    return out


def _protected_branches(store: Store, ids: list[int]) -> list[dict[str, Any]]:
    table = protected.protected_branches(store)
    return [protected_branch_view(p) for p in (table.get(i) for i in ids) if p is not None]


def rule_view(store: Store, rule: models.ApprovalRule, base_url: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": rule.id,
        "name": rule.name,
        "rule_type": rule.rule_type,
        "eligible_approvers": _users(store, models.eligible_ids(store, rule), base_url),
        "approvals_required": rule.approvals_required,
        "users": _users(store, rule.user_ids, base_url),
        "groups": _groups(store, rule.group_ids, base_url),
        "contains_hidden_groups": False,
        "protected_branches": _protected_branches(store, rule.protected_branch_ids),
        "applies_to_all_protected_branches": False,
        "report_type": rule.report_type,
        "scanners": list(rule.scanners),
        "severity_levels": list(rule.severity_levels),
        "vulnerabilities_allowed": rule.vulnerabilities_allowed,
        "vulnerability_states": list(rule.vulnerability_states),
    }
    if rule.merge_request_id is not None:
        source = models.rules(store).get(rule.source_rule_id)
        out["source_rule"] = {"approvals_required": source.approvals_required} if source else None
        out["overridden"] = False
    return out


def state_rule_view(store: Store, state: models.RuleState, base_url: str) -> dict[str, Any]:
    out = rule_view(store, state.rule, base_url)
    out.update(
        {
            "approvals_required": state.required,
            "approved_by": _users(store, state.approved_by, base_url),
            "approved": state.approved,
            "overridden": False,
            "code_owner": False,
        }
    )
    out.setdefault("source_rule", None)
    return out


def approvals_view(
    store: Store, record: MergeRequest, base_url: str, user: Any, now: Any
) -> dict[str, Any]:
    left = models.approvals_left(store, record)
    overwritten, states = models.rule_states(store, record)
    config = settings.of_project(store, record.project_id)
    return {
        **head(record),
        "merge_status": record.merge_status,
        "approved": left == 0,
        "approvals_required": models.approvals_required(store, record),
        "approvals_left": left,
        "require_password_to_approve": config.require_password_to_approve,
        "approved_by": [{"user": ref} for ref in _users(store, record.approved_by, base_url)],
        "suggested_approvers": [],
        "approvers": [],
        "approver_groups": [],
        "user_has_approved": user is not None and user.id in record.approved_by,
        "user_can_approve": user is not None
        and user.id not in record.approved_by
        and models.can_approve(store, record, user, now),
        "approval_rules_left": [
            {"id": s.rule.id, "name": s.rule.name, "rule_type": s.rule.rule_type}
            for s in states
            if not s.approved
        ],
        "has_approval_rules": bool(states),
        "merge_request_approvers_available": True,
        "multiple_approval_rules_available": True,
        "invalid_approvers_rules": [],
        "approval_rules_overwritten": overwritten,
    }


def state_view(store: Store, record: MergeRequest, base_url: str) -> dict[str, Any]:
    overwritten, states = models.rule_states(store, record)
    return {
        "approval_rules_overwritten": overwritten,
        "rules": [state_rule_view(store, s, base_url) for s in states],
    }
