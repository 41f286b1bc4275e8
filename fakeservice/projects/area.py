"""The projects area's registration: its tables, its endpoints, and what it does when a
group changes (deleting, moving or narrowing a group reaches the projects inside)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.groups.models import GROUP_VISIBILITY, NAMESPACE_DELETED, NAMESPACE_MOVED
    from fakeservice.projects import models, routes, scenario

    setup.tables(models.install)
    setup.routes(routes.api)
    setup.listen(NAMESPACE_DELETED, models.delete_projects_in)
    setup.listen(NAMESPACE_MOVED, models.refresh_paths)
    setup.listen(GROUP_VISIBILITY, models.visibility_errors)
    scenario.register(setup.sections)
