"""The ``storage_moves`` scenario section: moves of projects and groups in a given state.

.. code-block:: yaml

    storage_moves:
      - {project: acme/website, destination: storage2, state: started}
      - {group: acme, destination: storage2}          # state: finished (default)

Each move is made from where its container lives and walked through its machine to
``state`` (``failed`` from ``started``, ``cleanup_failed`` from ``replicated``); in the
``timed`` background mode an unfinished move then carries on with the clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.instance.background import replan
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.references import named_group
from fakeservice.scenarios.schema import STR, Choice, Field, ListOf, Record, exactly_one
from fakeservice.storage_moves import models
from fakeservice.storage_moves.containers import container_kind
from fakeservice.storage_moves.machines import MOVE_MACHINE, NEXT_EVENT, STATES

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

MOVE = Record(
    "storage_move",
    {
        "project": Field(STR, "the project's full path"),
        "group": Field(STR, "the group's full path"),
        "destination": Field(STR, "a declared storage (default: chosen by weight)"),
        "state": Field(Choice(STATES), "where the move stands (default finished)"),
    },
    rules=(exactly_one("project", "group"),),
)
# the path to each end state (failures leave from the state before them)
_PATHS = {
    "failed": ("schedule", "start", "fail"),
    "cleanup_failed": ("schedule", "start", "finish_replication", "fail"),
}


def _events(target: str) -> tuple[str, ...]:
    if target in _PATHS:
        return _PATHS[target]
    events: list[str] = []
    state = "initial"
    while state != target:
        event = NEXT_EVENT[state]
        events.append(event)
        state = MOVE_MACHINE.target(state, event) or target
    return tuple(events)


def _container(service: FakeService, spec: Mapping[str, Any], where: str) -> tuple[str, Any]:
    from fakeservice.projects.models import find_project

    if spec.get("project") is not None:
        project = find_project(service.store, str(spec["project"]))
        if project is None:
            raise ScenarioError([(f"{where}.project", f"no project {spec['project']!r}")])
        return "project", project
    return "group", named_group(service.store, spec.get("group"), f"{where}.group")


def load_storage_moves(service: FakeService, data: Mapping[str, Any]) -> None:
    value = data.get("storage_moves")
    if value is None:
        return
    if not isinstance(value, list):
        raise ScenarioError([("storage_moves", "must be a list")])
    store, now = service.store, service.clock.now()
    for index, spec in enumerate(value):
        where = f"storage_moves[{index}]"
        if not isinstance(spec, Mapping):
            raise ScenarioError([(where, "must be a mapping")])
        name, container = _container(service, spec, where)
        kind = container_kind(name)
        assert kind is not None
        target = str(spec.get("state") or "finished")
        if target not in STATES:
            raise ScenarioError([(f"{where}.state", f"must be one of {', '.join(STATES)}")])
        errors = models.errors_for(store, kind, container, spec.get("destination"))
        if errors:
            field, messages = next(iter(errors.items()))
            raise ScenarioError([(where, f"{field} {messages[0]}")])
        try:
            move = models.create_move(
                store, kind, container, spec.get("destination"), now, scheduled=False
            )
        except ApiError as error:  # pragma: no cover - validated above
            raise ScenarioError([(where, str(error.body))]) from error
        for event in _events(target):
            models.fire(store, move, event, now)
        replan(store, models.TABLE, move, now)


def register(found: Sections) -> None:
    """Declare the top-level ``storage_moves`` key."""
    found.register_section(
        "storage_moves",
        load_storage_moves,
        schema=ListOf(MOVE),
        doc="repository storage moves of projects and groups, in a given state",
    )
