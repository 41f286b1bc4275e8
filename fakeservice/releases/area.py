"""The releases area's registration: its tables, its endpoints, and cleanup when a
project goes, and the ``releases`` key of ``projects[]``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.releases import models, routes, scenario

    setup.tables(models.install)
    setup.routes(routes.api)
    setup.listen(PROJECT_DELETED, models.forget_project)
    scenario.register(setup.sections)
