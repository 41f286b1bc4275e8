"""The events feed area's registration: its table, its endpoints and the announcements it
records (``RECORD_EVENT``, ``MR_EVENT``, ``REFS_MOVED``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.core.events import RECORD_EVENT
    from fakeservice.events_feed import models, recording, routes
    from fakeservice.merge_requests.operations import MR_EVENT
    from fakeservice.repository.models import REFS_MOVED

    setup.tables(models.install)
    setup.routes(routes.api)
    setup.listen(RECORD_EVENT, recording.record_event)
    setup.listen(MR_EVENT, recording.merge_request_event)
    setup.listen(REFS_MOVED, recording.refs_moved)
