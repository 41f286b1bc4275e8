"""The forks area's registration: its indexes, endpoints, view fields, scenario key and
what it does when a project goes."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.forks import models, routes, scenario, views
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.projects.views import PROJECT_FULL_VIEW

    setup.tables(models.install)
    setup.routes(routes.api)
    setup.listen(PROJECT_DELETED, models.forget_project)
    setup.listen(PROJECT_FULL_VIEW, views.fork_fields)
    scenario.register(setup.sections)
