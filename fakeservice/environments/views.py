"""JSON shapes of protected environments (seed 000 §2.7): the environment, its deploy
access levels and its approval rules."""

from __future__ import annotations

from typing import Any

from fakeservice.core.store import Store
from fakeservice.environments.models import AccessEntry, ProtectedEnvironment, describe, present


def deploy_access_level_view(store: Store, entry: AccessEntry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "access_level": entry.access_level,
        "access_level_description": describe(store, entry),
        "user_id": entry.user_id,
        "group_id": entry.group_id,
        "group_inheritance_type": entry.group_inheritance_type,
    }


def approval_rule_view(store: Store, entry: AccessEntry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "user_id": entry.user_id,
        "group_id": entry.group_id,
        "access_level": entry.access_level,
        "access_level_description": describe(store, entry),
        "required_approvals": entry.required_approvals,
        "group_inheritance_type": entry.group_inheritance_type,
    }


def protected_environment_view(store: Store, record: ProtectedEnvironment) -> dict[str, Any]:
    return {
        "name": record.name,
        "deploy_access_levels": [
            deploy_access_level_view(store, entry)
            for entry in record.deploy_access_levels
            if present(store, entry)
        ],
        "required_approval_count": record.required_approval_count,
        "approval_rules": [
            approval_rule_view(store, entry)
            for entry in record.approval_rules
            if present(store, entry)
        ],
    }
