"""Topics in scenarios: the top-level ``topics`` key declares topics with their title and
description; every project's ``topics`` names topics too (created titled like their name
when not declared), and the counts follow the projects.

.. code-block:: yaml

    topics:
      - {name: terraform, title: Terraform, description: Infrastructure as code}
    projects:
      - {path: acme/infra, topics: [terraform, aws]}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ValidationFailed
from fakeservice.projects.models import projects
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import STR, Field, ListOf, Record
from fakeservice.topics import models

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

TOPIC = Record(
    "topic",
    {
        "name": Field(STR, "the topic's name, unique regardless of case", required=True),
        "title": Field(STR, "the title shown (default: the name)"),
        "description": Field(STR, ""),
    },
    "A project topic.",
)


def load_topics(service: FakeService, data: Mapping[str, Any]) -> None:
    for index, item in enumerate(data.get("topics") or []):
        name = str(item.get("name") or "")
        try:
            models.create_topic(
                service.store,
                service.clock.now(),
                name=name,
                title=str(item.get("title") or name),
                description=item.get("description"),
            )
        except ValidationFailed as error:
            raise ScenarioError([(f"topics[{index}]", str(error.body["message"]))]) from None


def sync_project_topics(service: FakeService, _data: Mapping[str, Any]) -> None:
    """Give every project's topic names their topic records, and count the projects."""
    store, now = service.store, service.clock.now()
    table = projects(store)
    names: set[str] = set()
    for project in list(table):
        if project.topics:
            canonical = models.canonical(store, now, project.topics)
            if canonical != project.topics:
                table.update(project, topics=canonical)
            names.update(canonical)
    models.recount(store, names)


def register(found: Sections) -> None:
    """Declare the top-level ``topics`` key and keep project topics canonical."""
    found.register_section("topics", load_topics, schema=ListOf(TOPIC), doc="project topics")
    found.register_section("projects", sync_project_topics)
