"""Approvals in scenarios: the ``approvals`` (configuration) and ``approval_rules`` keys
of ``projects[]``.

.. code-block:: yaml

    projects:
      - path: acme/website
        approvals: {approvals_before_merge: 1, merge_requests_author_approval: false}
        approval_rules:
          - {name: Leads, approvals_required: 1, users: [alice], groups: [acme]}
          - {name: Anyone, approvals_required: 1, rule_type: any_approver}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.approvals import models, settings
from fakeservice.core.errors import ApiError
from fakeservice.issues.scenario import people
from fakeservice.labels.scenario import api_message
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.references import named_group
from fakeservice.scenarios.schema import BOOL, INT, STR, Choice, Field, ListOf, Range, Record
from fakeservice.scenarios.sections import Sections

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

CONFIG = Record(
    "approval configuration",
    {
        "approvals_before_merge": Field(Range(0, 100), "approvals every merge request needs (0)"),
        **{name: Field(BOOL, name.replace("_", " ")) for name in settings.BOOLEANS},
    },
)
RULE = Record(
    "approval rule",
    {
        "name": Field(STR, "the rule's name", required=True),
        "approvals_required": Field(INT, "approvals needed", required=True),
        "rule_type": Field(
            Choice(("regular", "any_approver")), "regular (default) or any_approver"
        ),
        "users": Field(ListOf(STR), "usernames of eligible approvers"),
        "groups": Field(ListOf(STR), "group paths whose members are eligible"),
    },
)
RULES = ListOf(RULE)


def load_config(service: FakeService, project: Any, value: Any, where: str) -> None:
    if not isinstance(value, Mapping):
        raise ScenarioError([(where, "must be a mapping")])
    known = ("approvals_before_merge", *settings.BOOLEANS)
    settings.change(service.store, project.id, **{k: v for k, v in value.items() if k in known})


def load_rules(service: FakeService, project: Any, value: Any, where: str) -> None:
    if not isinstance(value, list):
        raise ScenarioError([(where, "must be a list")])
    for index, spec in enumerate(value):
        here = f"{where}[{index}]"
        if not isinstance(spec, Mapping) or not spec.get("name"):
            raise ScenarioError([(here, "name is required")])
        groups = [
            named_group(service.store, g, f"{here}.groups[{i}]").id
            for i, g in enumerate(spec.get("groups") or [])
        ]
        fields = {
            "name": str(spec["name"]),
            "approvals_required": spec.get("approvals_required", 0),
            "rule_type": spec.get("rule_type", "regular"),
            "user_ids": people(service, spec.get("users"), f"{here}.users"),
            "group_ids": groups,
        }
        try:
            models.save(service.store, None, project.id, None, fields)
        except ApiError as error:
            raise ScenarioError([(here, api_message(error))]) from error


def register(found: Sections) -> None:
    """Declare the approvals area's scenario keys."""
    found.register_project_section(
        "approvals", load_config, schema=CONFIG, doc="approval configuration"
    )
    found.register_project_section(
        "approval_rules", load_rules, schema=RULES, doc="project approval rules"
    )
