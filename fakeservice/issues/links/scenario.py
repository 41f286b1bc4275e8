"""Issue links in scenarios: the ``issue_links`` key of ``projects[]``, loaded once every
project's ``issues`` exist, so a link may point at an issue of any project.

.. code-block:: yaml

    projects:
      - path: acme/website
        issues: [{title: Login page is blank}, {title: Sessions expire}]
        issue_links:
          - issue: 1                    # an iid of this project
            target_issue: 2             # an iid of target_project (default: this project)
            target_project: acme/website
            link_type: blocks           # relates_to (default), blocks, is_blocked_by
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.issues import models as issues
from fakeservice.issues.links import models
from fakeservice.labels.scenario import items
from fakeservice.projects.models import find_project
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import INT, STR, Choice, Field, ListOf, Record
from fakeservice.scenarios.sections import Sections

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

ISSUE_LINK = Record(
    "issue link",
    {
        "issue": Field(INT, "the iid of an issue of this project", required=True),
        "target_issue": Field(INT, "the iid of the linked issue", required=True),
        "target_project": Field(STR, "the linked issue's project path (default: this one)"),
        "link_type": Field(
            Choice(models.LINK_TYPES), "relates_to (default), blocks or is_blocked_by"
        ),
    },
)


def _issue(service: FakeService, project: Any, iid: Any, where: str) -> issues.Issue:
    found = issues.find(service.store, project.id, iid) if isinstance(iid, int) else None
    if found is None:
        raise ScenarioError([(where, f"unknown issue {iid!r} in {project.path_with_namespace}")])
    return found


def load_issue_links(service: FakeService, project: Any, value: Any, where: str) -> None:
    store = service.store
    now = service.clock.now()
    for here, spec in items(value, where):
        source = _issue(service, project, spec.get("issue"), f"{here}.issue")
        target_project = project
        if spec.get("target_project") is not None:
            target_project = find_project(store, str(spec["target_project"]))
            if target_project is None:
                problem = f"unknown project {spec['target_project']!r}"
                raise ScenarioError([(f"{here}.target_project", problem)])
        target = _issue(service, target_project, spec.get("target_issue"), f"{here}.target_issue")
        link_type = spec.get("link_type") or "relates_to"
        if link_type not in models.LINK_TYPES:
            raise ScenarioError([(f"{here}.link_type", f"unknown link type {link_type!r}")])
        if target.id == source.id:
            raise ScenarioError([(here, "an issue cannot be linked to itself")])
        if models.between(store, source.id, target.id) is not None:
            raise ScenarioError([(here, "the two issues are linked already")])
        models.create(store, source.id, target.id, link_type, now)


def register(found: Sections) -> None:
    """Declare ``projects[].issue_links``."""
    found.register_project_section(
        "issue_links", load_issue_links, schema=ListOf(ISSUE_LINK), doc="links between issues"
    )
