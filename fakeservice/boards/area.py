"""The boards area's registration: the boards and board lists tables and the project and
group board endpoints, forgetting a deleted project's boards, ``boards`` on
``projects[]`` and ``groups[]`` in scenarios."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.boards import models, routes, scenario
    from fakeservice.projects.models import PROJECT_DELETED

    setup.tables(models.install)
    setup.routes(routes.api)
    setup.listen(PROJECT_DELETED, models.forget_project)
    scenario.register(setup.sections)
