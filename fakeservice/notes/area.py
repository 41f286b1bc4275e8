"""The notes area's registration: tables (notes, discussions, award emoji), the note and
discussion endpoints of every noteable (issues, merge requests and commits here, snippets
and epics from their areas) and the award emoji endpoints of every awardable, system notes
(listening to merge request and issuable events), the unresolved-threads merge guard,
``projects[].notes`` in scenarios, issues and merge requests (with their notes) in project
exports, and the cleanup of the collaboration records when a project goes."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.merge_requests.operations import MERGE_GUARD
    from fakeservice.notes import (
        awards,
        commits,
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
    commits.register()
    transfer.register()
    setup.tables(models.install)
    setup.tables(awards.install)
    setup.routes(routes.api)
    system.register(setup)
    setup.listen(PROJECT_DELETED, lifecycle.forget_collaboration)
    setup.listen(MERGE_GUARD, noteables.unresolved_guard)
    scenario.register(setup.sections)
