"""The commit statuses area's registration: indexes over CI records by commit, the
statuses endpoints and the ``statuses`` key of ``projects[]``. Registered after the CI area, whose tables it indexes."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.statuses import models, routes, scenario

    setup.tables(models.install)
    setup.routes(routes.api)
    scenario.register(setup.sections)
