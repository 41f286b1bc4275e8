"""The topics area's registration: its table, its endpoints and its scenario keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.topics import lifecycle, models, routes, scenario

    setup.tables(models.install)
    setup.routes(routes.api)
    setup.listen(PROJECT_DELETED, lifecycle.forget_project)
    scenario.register(setup.sections)
