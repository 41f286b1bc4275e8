"""The wikis area's registration: its endpoints, its scenario keys and the cleanup of a
deleted project's or group's wiki."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.groups.models import NAMESPACE_DELETED
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.wikis import git_http, lifecycle, routes, scenario

    for module in (routes, git_http):
        setup.routes(module.api)  # one router, shared by the area's routes modules
    setup.listen(PROJECT_DELETED, lifecycle.forget_project_wiki)
    setup.listen(NAMESPACE_DELETED, lifecycle.forget_group_wiki)
    scenario.register(setup.sections)
