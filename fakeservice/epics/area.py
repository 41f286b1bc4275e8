"""The epics area's registration: the epics and epic to-do tables, the group epics
endpoints, their notes through the notes area and ``groups[].epics`` in scenarios."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.epics import models, notes, routes, scenario, todos

    notes.register()

    setup.tables(models.install)
    setup.tables(todos.install)
    setup.routes(routes.api)
    scenario.register(setup.sections)
