"""The JSON shape of a push rule (``project_id`` or ``group_id`` by its owner)."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.push_rules.models import FIELDS, PROJECT, PushRule


def rule_view(rule: PushRule) -> dict[str, Any]:
    owner = "project_id" if rule.source_kind == PROJECT else "group_id"
    out: dict[str, Any] = {"id": rule.id, owner: rule.source_id, "created_at": iso(rule.created_at)}
    for name in FIELDS:
        out[name] = getattr(rule, name)
    return out
