"""The storage moves area's registration: the moves table, endpoints and dashboard panel
(and their ``/_fake/storage_moves`` controls), read-only repositories while moving, new
projects placed by the storage weights, an administrator's storage edit scheduled as a
move, forgetting a deleted project's moves, the
``storage_moves`` scenario key."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.projects.routes import PROJECT_CREATED, PROJECT_STORAGE_CHANGE
    from fakeservice.repository.access import READ_ONLY_CHECK
    from fakeservice.storage_moves import control, models, panel, routes, scenario

    setup.tables(models.install)
    setup.routes(routes.api)
    setup.routes(control.api)  # the same router, shared by the area's routes modules
    setup.listen(READ_ONLY_CHECK, models.project_read_only)
    setup.listen(PROJECT_DELETED, models.forget_project_moves)
    setup.listen(PROJECT_CREATED, routes.place_new_project)
    setup.listen(PROJECT_STORAGE_CHANGE, routes.move_edited_project)
    scenario.register(setup.sections)
    setup.panel(panel.PANEL)
