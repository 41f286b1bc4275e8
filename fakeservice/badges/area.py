"""The badges area's registration: its table, its endpoints and its scenario keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.badges import models, routes, scenario
    from fakeservice.projects.models import PROJECT_DELETED

    setup.tables(models.install)
    setup.routes(routes.api)
    setup.listen(PROJECT_DELETED, models.delete_project_badges)
    scenario.register(setup.sections)
