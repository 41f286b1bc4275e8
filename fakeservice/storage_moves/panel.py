"""The repository storage moves dashboard panel: each move with its container, its
source and destination storages and its state (the move machine's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fakeservice.core.clock import iso
from fakeservice.dashboard.panels import Panel, Row, newest
from fakeservice.storage_moves.models import TABLE

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

KEY = "storage_moves"


def rows(service: FakeService, limit: int) -> list[Row]:
    return [
        {
            "id": move.id,
            "container": f"{move.kind} {move.container_id}",
            "source": move.source_storage_name,
            "destination": move.destination_storage_name,
            "status": move.state,
            "updated_at": iso(move.updated_at),
        }
        for move in newest(service, KEY, limit)
    ]


PANEL = Panel(
    KEY,
    "Storage moves",
    ("id", "container", "source", "destination", "status", "updated_at"),
    rows,
    table=TABLE,
    order=60,
)
