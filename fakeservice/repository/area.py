"""The repository area's registration: tables, endpoints (files, refs, commits, protected
branches, git smart HTTP), cleanup when a project goes, and the repository keys of
``projects[]`` in scenarios."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.projects.routes import PROJECT_CREATED
    from fakeservice.projects.views import PROJECT_VIEW
    from fakeservice.repository import (
        commit_routes,
        git_http,
        lifecycle,
        models,
        protected_routes,
        refs_routes,
        routes,
        scenario,
    )

    setup.tables(models.install)
    for module in (routes, refs_routes, protected_routes, commit_routes, git_http):
        setup.routes(module.api)  # one router, shared by the area's routes modules
    setup.listen(PROJECT_DELETED, lifecycle.forget_project)
    setup.listen(PROJECT_CREATED, routes.initialize_with_readme)
    setup.listen(PROJECT_VIEW, routes.readme_url)
    scenario.register(setup.sections)
