"""Forks in scenarios: the ``forked_from`` key of ``projects[]``.

.. code-block:: yaml

    projects:
      - path: alice/website
        forked_from: acme/website

The project becomes a fork of the named project; unless it declares files of its own it
gets a copy of the upstream's repository.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.forks import models
from fakeservice.projects.models import Project, find_project
from fakeservice.repository.models import find_repository
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import STR

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections


def load(service: FakeService, project: Project, value: Any, where: str) -> None:
    store = service.store
    source = find_project(store, str(value))
    if source is None or source.id == project.id:
        raise ScenarioError([(where, f"no other project {value!r} to fork from")])
    try:
        models.link(store, project, source)
    except ApiError:
        raise ScenarioError([(where, "the project is a fork already")]) from None
    if find_repository(store, project) is None:
        models.copy_repository(store, source, project, service.clock.now())
    store.tables["projects"].update(project, import_status="finished")


def register(found: Sections) -> None:
    """Declare ``forked_from`` on projects."""
    found.register_project_section(
        "forked_from", load, schema=STR, doc="the full path of the project this one is a fork of"
    )
