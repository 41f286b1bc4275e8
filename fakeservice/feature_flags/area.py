"""The feature flags area's registration: its tables, its endpoints, its scenario keys and
the cleanup of a deleted project's flags and user lists."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.feature_flags import models, records, routes, scenario
    from fakeservice.projects.models import PROJECT_DELETED

    setup.tables(records.install)
    setup.routes(routes.api)
    setup.listen(PROJECT_DELETED, models.forget_project)
    scenario.register(setup.sections)
