"""The project exports dashboard panel: each project's export with its state (the export
machine's), who asked for it and when it finished."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fakeservice.core.clock import iso
from fakeservice.dashboard.panels import Panel, Row, newest, project_path
from fakeservice.transfer.exports import TABLE, export_status
from fakeservice.users.models import users

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

KEY = "exports"


def rows(service: FakeService, limit: int) -> list[Row]:
    store = service.store
    out: list[Row] = []
    for record in newest(service, KEY, limit):
        user = users(store).get(record.user_id)
        out.append(
            {
                "project": project_path(store, record.id),
                "status": export_status(record),
                "user": user.username if user is not None else record.user_id,
                "created_at": iso(record.created_at),
                "finished_at": iso(record.finished_at),
            }
        )
    return out


PANEL = Panel(
    KEY,
    "Project exports",
    ("project", "status", "user", "created_at", "finished_at"),
    rows,
    table=TABLE,
    order=50,
)
