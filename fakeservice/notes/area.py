"""The notes area's registration: table, the note endpoints of every noteable (issues and
merge requests here, snippets from the snippets area), system notes (listening to merge
request and issuable events), ``projects[].notes`` in scenarios, issues and merge requests
(with their notes) in project exports, and the cleanup of the collaboration records when a
project goes."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.notes import (
        awards,
        lifecycle,
        models,
        noteables,
        routes,
        scenario,
        system,
        transfer,
    )
    from fakeservice.projects.models import PROJECT_DELETED

    noteables.register()
    transfer.register()
    setup.tables(models.install)
    setup.tables(awards.install)
    setup.routes(routes.api)
    system.register(setup)
    setup.listen(PROJECT_DELETED, lifecycle.forget_collaboration)
    scenario.register(setup.sections)
