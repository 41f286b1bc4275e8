"""The feature flags the fake itself consults, with the YAML definition the real service
ships for each (``GET /features/definitions`` and a feature's ``definition``).

A flag without a stored record is evaluated from its definition's ``default_enabled``.
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Definition:
    name: str
    group: str
    milestone: str | None = None
    type: str = "development"
    default_enabled: bool = False
    log_state_changes: bool | None = None
    introduced_by_url: str | None = None
    rollout_issue_url: str | None = None

    def view(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "introduced_by_url": self.introduced_by_url,
            "rollout_issue_url": self.rollout_issue_url,
            "milestone": self.milestone,
            "log_state_changes": self.log_state_changes,
            "type": self.type,
            "group": self.group,
            "default_enabled": self.default_enabled,
        }


DEFINITIONS: dict[str, Definition] = {
    d.name: d
    for d in (
        Definition("import_project_from_remote_file", group="group::import", milestone="14.10"),
    )
}

# Names of licensed (paid-plan) features: the service refuses them as flag names unless
# ``force`` is given.
LICENSED_FEATURES: frozenset[str] = frozenset(
    {"epics", "group_wikis", "geo", "audit_events", "multiple_approval_rules", "repository_mirrors"}
)


def definition(name: str) -> Definition | None:
    return DEFINITIONS.get(name)
