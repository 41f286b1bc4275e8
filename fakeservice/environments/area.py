"""The environments area's registration: protected environments (table, endpoints,
cleanup when a project goes, ``projects[].protected_environments`` in scenarios)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.environments import lifecycle, models, routes, scenario, update
    from fakeservice.projects.models import PROJECT_DELETED

    setup.tables(models.install)
    for module in (routes, update):
        setup.routes(module.api)  # one router, shared by the area's routes modules
    setup.listen(PROJECT_DELETED, lifecycle.forget_environments)
    scenario.register(setup.sections)
