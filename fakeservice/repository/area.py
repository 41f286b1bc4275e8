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
        archive_routes,
        blob_routes,
        comments,
        commit_extra_routes,
        commit_routes,
        compare_routes,
        git_http,
        lifecycle,
        merged_branches,
        models,
        protected_routes,
        protected_tags,
        protected_tags_routes,
        refs_routes,
        routes,
        scenario,
    )

    setup.tables(models.install)
    setup.tables(comments.install)
    setup.tables(protected_tags.install)
    for module in (
        routes,
        refs_routes,
        merged_branches,
        protected_routes,
        protected_tags_routes,
        commit_routes,
        commit_extra_routes,
        compare_routes,
        blob_routes,
        archive_routes,
        git_http,
    ):
        setup.routes(module.api)  # one router, shared by the area's routes modules
    setup.listen(PROJECT_DELETED, lifecycle.forget_project)
    setup.listen(PROJECT_DELETED, comments.forget_project)
    setup.listen(PROJECT_CREATED, routes.initialize_with_readme)
    setup.listen(PROJECT_VIEW, routes.readme_url)
    scenario.register(setup.sections)
