"""Labels in scenarios: the ``labels`` key of ``projects[]`` and of ``groups[]``.

.. code-block:: yaml

    projects:
      - path: acme/website
        labels:
          - {name: bug, color: "#d9534f", description: Something is broken, priority: 1}
          - {name: feature}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.labels import models
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import INT, STR, Field, ListOf, Record
from fakeservice.scenarios.sections import Sections

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

LABEL = Record(
    "label",
    {
        "name": Field(STR, "the label's name", required=True),
        "color": Field(STR, f"#RRGGBB or a colour name ({models.DEFAULT_COLOR})"),
        "description": Field(STR, "what the label means"),
        "priority": Field(INT, "priority (project labels only)"),
    },
)
LABELS = ListOf(LABEL)


def api_message(error: ApiError) -> str:
    """An API error's message as one line, for a scenario problem."""
    body = error.body if isinstance(error.body, dict) else {"message": error.body}
    message = body.get("message", body.get("error"))
    if isinstance(message, dict):
        return "; ".join(f"{k} {' '.join(map(str, v))}" for k, v in message.items())
    return str(message)


def items(value: Any, where: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``(where, mapping)`` for each entry of a scenario list (problems for anything else)."""
    if not isinstance(value, list):
        raise ScenarioError([(where, "must be a list")])
    for index, spec in enumerate(value):
        here = f"{where}[{index}]"
        if not isinstance(spec, Mapping):
            raise ScenarioError([(here, "must be a mapping")])
        yield here, spec


def _load(service: FakeService, owner: models.Owner, value: Any, where: str) -> None:
    if not isinstance(value, list):
        raise ScenarioError([(where, "must be a list")])
    for index, spec in enumerate(value):
        here = f"{where}[{index}]"
        if not isinstance(spec, Mapping) or not spec.get("name"):
            raise ScenarioError([(here, "name is required")])
        try:
            models.create(
                service.store,
                owner,
                service.clock.now(),
                name=str(spec["name"]),
                color=str(spec.get("color", models.DEFAULT_COLOR)),
                description=spec.get("description"),
                priority=spec.get("priority"),
            )
        except ApiError as error:
            raise ScenarioError([(here, api_message(error))]) from error


def load_project_labels(service: FakeService, project: Any, value: Any, where: str) -> None:
    _load(service, (models.PROJECT, project.id), value, where)


def load_group_labels(service: FakeService, group: Any, value: Any, where: str) -> None:
    _load(service, (models.GROUP, group.id), value, where)


def register(found: Sections) -> None:
    """Declare the labels area's scenario keys."""
    found.register_project_section(
        "labels", load_project_labels, schema=LABELS, doc="project labels"
    )
    found.register_group_section("labels", load_group_labels, schema=LABELS, doc="group labels")
