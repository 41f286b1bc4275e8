"""Milestones in scenarios: the ``milestones`` key of ``projects[]`` and of ``groups[]``.

.. code-block:: yaml

    projects:
      - path: acme/website
        milestones:
          - {title: v1.0, due_date: 2026-12-01, description: First release}
          - {title: v0.9, state: closed}
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.labels.scenario import api_message
from fakeservice.milestones import models
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import DATE, STR, Choice, Field, ListOf, Record
from fakeservice.scenarios.sections import Sections

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

MILESTONE = Record(
    "milestone",
    {
        "title": Field(STR, "the milestone's title", required=True),
        "description": Field(STR, "what it is about"),
        "start_date": Field(DATE, "first day"),
        "due_date": Field(DATE, "last day"),
        "state": Field(Choice(("active", "closed")), "active (default) or closed"),
    },
)
MILESTONES = ListOf(MILESTONE)


def _date(value: Any) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value))


def _load(service: FakeService, owner: models.Owner, value: Any, where: str) -> None:
    if not isinstance(value, list):
        raise ScenarioError([(where, "must be a list")])
    for index, spec in enumerate(value):
        here = f"{where}[{index}]"
        if not isinstance(spec, Mapping) or not spec.get("title"):
            raise ScenarioError([(here, "title is required")])
        try:
            record = models.create(
                service.store,
                owner,
                service.clock.now(),
                title=str(spec["title"]),
                description=spec.get("description"),
                start_date=_date(spec.get("start_date")),
                due_date=_date(spec.get("due_date")),
            )
        except ValueError as error:
            raise ScenarioError([(here, "dates must be YYYY-MM-DD")]) from error
        except ApiError as error:
            raise ScenarioError([(here, api_message(error))]) from error
        if spec.get("state") == "closed":
            models.MACHINE.fire(record, "close")


def load_project_milestones(service: FakeService, project: Any, value: Any, where: str) -> None:
    _load(service, (models.PROJECT, project.id), value, where)


def load_group_milestones(service: FakeService, group: Any, value: Any, where: str) -> None:
    _load(service, (models.GROUP, group.id), value, where)


def register(found: Sections) -> None:
    """Declare the milestones area's scenario keys."""
    found.register_project_section(
        "milestones", load_project_milestones, schema=MILESTONES, doc="project milestones"
    )
    found.register_group_section(
        "milestones", load_group_milestones, schema=MILESTONES, doc="group milestones"
    )
