"""The push rules area's registration: its table, endpoints, scenario keys, the copy of a
group's rule into new projects, and the check of pushes and API commits."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.groups.models import NAMESPACE_DELETED
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.projects.routes import PROJECT_CREATED
    from fakeservice.push_rules import checks, models, routes, scenario
    from fakeservice.repository.models import PUSH_CHECK

    setup.tables(models.install)
    setup.routes(routes.api)
    setup.listen(PROJECT_DELETED, models.forget_project)
    setup.listen(NAMESPACE_DELETED, models.forget_group)
    setup.listen(PROJECT_CREATED, models.inherit)
    setup.listen(PUSH_CHECK, checks.refusal)
    scenario.register(setup.sections)
