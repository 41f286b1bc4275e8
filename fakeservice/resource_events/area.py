"""The resource events area's registration: its tables, its endpoints and the
announcements it records (``RECORD_EVENT``, ``MR_EVENT``, ``ISSUABLE_RESOURCES_CHANGED``,
``EPIC_LABELS_CHANGED``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.core.events import RECORD_EVENT
    from fakeservice.epics.models import EPIC_LABELS_CHANGED
    from fakeservice.issues.events import ISSUABLE_RESOURCES_CHANGED
    from fakeservice.merge_requests.operations import MR_EVENT
    from fakeservice.resource_events import epics, models, recording, routes

    setup.tables(models.install)
    setup.routes(routes.api)
    setup.listen(RECORD_EVENT, recording.record_event)
    setup.listen(MR_EVENT, recording.merge_request_event)
    setup.listen(ISSUABLE_RESOURCES_CHANGED, recording.resources_changed)
    setup.listen(EPIC_LABELS_CHANGED, epics.labels_changed)
