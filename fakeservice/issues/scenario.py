"""Issues in scenarios: the ``issues`` key of ``projects[]``.

.. code-block:: yaml

    projects:
      - path: acme/website
        labels: [{name: bug}]
        milestones: [{title: v1.0}]
        issues:
          - title: Login page is blank
            author: alice
            assignees: [carol]
            labels: [bug]
            milestone: v1.0
            state: closed
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.clock import as_time
from fakeservice.core.errors import ApiError
from fakeservice.issues import models
from fakeservice.labels import models as labels
from fakeservice.labels.scenario import api_message, items
from fakeservice.milestones import models as milestones
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.references import named_user
from fakeservice.scenarios.schema import BOOL, STR, TIME, Choice, Field, ListOf, Record
from fakeservice.scenarios.sections import Sections

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

ISSUE = Record(
    "issue",
    {
        "title": Field(STR, "the issue's title", required=True),
        "description": Field(STR, "its description (Markdown)"),
        "author": Field(STR, "a username (default: the project's creator or root)"),
        "assignees": Field(ListOf(STR), "usernames"),
        "labels": Field(ListOf(STR), "label names (created when missing)"),
        "milestone": Field(STR, "a milestone title of the project or its groups"),
        "state": Field(Choice(("opened", "closed")), "opened (default) or closed"),
        "confidential": Field(BOOL, "false (default)"),
        "created_at": Field(TIME, "when it was opened (default: now)"),
    },
)
ISSUES = ListOf(ISSUE)


def default_author(service: FakeService, project: Any, spec: Mapping[str, Any], where: str) -> int:
    """The ``author`` of a scenario record, else the project's creator, else root."""
    if spec.get("author") is not None:
        return named_user(service.store, spec["author"], f"{where}.author").id
    if project.creator_id is not None:
        return int(project.creator_id)
    return named_user(service.store, "root", where).id


def milestone_of(service: FakeService, project: Any, title: Any, where: str) -> int | None:
    if title is None:
        return None
    owners = milestones.owners_of_project(service.store, project)
    found = milestones.by_title(service.store, owners, str(title))
    if not found:
        raise ScenarioError([(f"{where}.milestone", f"unknown milestone {title!r}")])
    return found[0].id


def people(service: FakeService, names: Any, where: str) -> list[int]:
    return [
        named_user(service.store, name, f"{where}[{i}]").id for i, name in enumerate(names or [])
    ]


def load_issues(service: FakeService, project: Any, value: Any, where: str) -> None:
    store = service.store
    now = service.clock.now()
    for here, spec in items(value, where):
        if not spec.get("title"):
            raise ScenarioError([(here, "title is required")])
        created = spec.get("created_at")
        try:
            record = models.create(
                store,
                project.id,
                default_author(service, project, spec, here),
                now,
                title=str(spec["title"]),
                description=spec.get("description"),
                assignee_ids=people(service, spec.get("assignees"), f"{here}.assignees"),
                label_ids=labels.find_or_create(
                    store, project, [str(n) for n in spec.get("labels") or []], now
                ),
                milestone_id=milestone_of(service, project, spec.get("milestone"), here),
                confidential=bool(spec.get("confidential")),
                created_at=as_time(created) if created is not None else None,
            )
        except ApiError as error:
            raise ScenarioError([(here, api_message(error))]) from error
        if spec.get("state") == "closed":
            models.transition(store, record, "close", now, record.author_id)


def register(found: Sections) -> None:
    """Declare the issues area's scenario keys."""
    found.register_project_section("issues", load_issues, schema=ISSUES, doc="issues")
