"""Epic issues in scenarios: the ``epic_issues`` key of ``projects[]`` puts the project's
issues in epics (each issue first in its epic, so list them last to first).

.. code-block:: yaml

    projects:
      - path: acme/website
        issues: [{title: Fix the header}, {title: New footer}]
        epic_issues:
          - {issue: 1, epic: "acme&1"}     # issue iid, epic as <group path>&<iid>

The epic's group must be the project's group or one of its ancestors; an issue already in
an epic is moved to the one named.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.epics import issue_links
from fakeservice.epics.scenario import epic_id
from fakeservice.groups.models import namespaces, self_and_ancestor_ids
from fakeservice.issues.models import find
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.schema import INT, STR, Field, ListOf, Record

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.projects.models import Project
    from fakeservice.scenarios.sections import Sections

EPIC_ISSUE = Record(
    "epic issue",
    {
        "issue": Field(INT, "the issue's iid in this project", required=True),
        "epic": Field(STR, "the epic as `<group path>&<iid>`", required=True),
    },
)


def _error(where: str, message: str) -> ScenarioError:
    return ScenarioError([(where, message)])


def load_epic_issues(service: FakeService, project: Project, value: Any, where: str) -> None:
    """``projects[].epic_issues``: assign each issue to its epic, in order."""
    if not isinstance(value, list):
        raise _error(where, "must be a list")
    store = service.store
    groups = self_and_ancestor_ids(store, namespaces(store).rows[project.namespace_id])
    for index, spec in enumerate(value):
        at = f"{where}[{index}]"
        if not isinstance(spec, Mapping) or spec.get("issue") is None or not spec.get("epic"):
            raise _error(at, "issue and epic are required")
        issue = find(store, project.id, spec["issue"]) if isinstance(spec["issue"], int) else None
        if issue is None:
            raise _error(
                f"{at}.issue", f"no issue {spec['issue']!r} in {project.path_with_namespace}"
            )
        epic = epic_id(service, spec["epic"], at, key="epic")
        if store.tables["epics"].rows[epic].group_id not in groups:
            raise _error(f"{at}.epic", "the epic's group must hold the project")
        current = issue_links.of_issue(store, issue.id)
        if current is None or current.epic_id != epic:
            issue_links.assign(store, epic, issue.id, service.clock.now())


def register(found: Sections) -> None:
    """Declare ``projects[].epic_issues``."""
    found.register_project_section(
        "epic_issues",
        load_epic_issues,
        schema=ListOf(EPIC_ISSUE),
        doc="the project's issues in epics",
    )
