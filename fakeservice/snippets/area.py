"""The snippets area's registration: project and personal snippets (table, endpoints,
their notes through the notes area, their
storage moves, ``projects[].snippets`` in scenarios)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.snippets import models, routes, scenario, storage

    routes.register_notes()
    storage.register()
    setup.tables(models.install)
    setup.routes(routes.api)
    scenario.register(setup.sections)
