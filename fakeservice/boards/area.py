"""The boards area's registration: the boards and board lists tables and the project and
group board endpoints, forgetting the boards of a deleted project or group, ``boards`` on
``projects[]`` and ``groups[]`` in scenarios."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.boards import models, routes, scenario
    from fakeservice.groups.models import NAMESPACE_DELETED
    from fakeservice.projects.models import PROJECT_DELETED

    setup.tables(models.install)
    setup.routes(routes.api)
    setup.listen(PROJECT_DELETED, models.forget_project)
    setup.listen(NAMESPACE_DELETED, models.forget_namespace)
    scenario.register(setup.sections)
