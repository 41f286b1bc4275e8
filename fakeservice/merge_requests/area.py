"""The merge requests area's registration: table, dashboard panel, endpoints (``routes`` and
``actions`` share one router), the reaction to pushes (``REFS_MOVED``),
``projects[].merge_requests`` in scenarios, and the extension that settles mergeability
checks, rebases and merges waiting on a pipeline (registered after CI's, whose runner
catches up first), the diff versions recorded on creation and pushes (``versions``) and the review requests
recorded on creation and updates (``reviewers``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.merge_requests import (
        actions,
        extension,
        models,
        operations,
        panel,
        reviewers,
        routes,
        scenario,
        versions,
    )
    from fakeservice.repository.models import REFS_MOVED

    setup.tables(models.install)
    for module in (routes, actions):
        setup.routes(module.api)  # one router, shared by the area's routes modules
    setup.listen(REFS_MOVED, operations.react_to_push)
    versions.register(setup)  # diff versions: their table, endpoints and reactions
    reviewers.register(setup)  # review requests: their table, endpoint and reactions
    scenario.register(setup.sections)
    setup.extension(extension.extend)
    setup.panel(panel.PANEL)
