"""The epics area's registration: the epics, epic to-do and epic issue tables, the group
epics and epic issues endpoints (and the issues' ``epic`` fields), their notes through the notes area and ``groups[].epics`` and ``projects[].epic_issues`` in scenarios."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.epics import (
        issue_fields,
        issue_links,
        issue_routes,  # noqa: F401  (declares the epic issues endpoints on routes.api)
        issue_scenario,
        models,
        notes,
        routes,
        scenario,
        todos,
    )
    from fakeservice.issues.models import ISSUE_DELETED
    from fakeservice.issues.views import ISSUE_VIEW

    notes.register()

    setup.tables(models.install)
    setup.tables(todos.install)
    setup.tables(issue_links.install)
    setup.listen(ISSUE_VIEW, issue_fields.extend_issue)
    setup.listen(ISSUE_DELETED, issue_links.forget_issue)
    setup.routes(routes.api)
    scenario.register(setup.sections)
    issue_scenario.register(setup.sections)
