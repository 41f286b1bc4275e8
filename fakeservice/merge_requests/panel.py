"""The merge requests dashboard panel: the newest merge requests with their project,
reference, title, state and branches."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fakeservice.core.clock import iso
from fakeservice.dashboard.panels import Panel, Row, newest, project_path

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

KEY = "merge_requests"


def rows(service: FakeService, limit: int) -> list[Row]:
    return [
        {
            "id": mr.id,
            "project": project_path(service.store, mr.project_id),
            "reference": f"!{mr.iid}",
            "title": mr.title,
            "status": mr.state,
            "branches": f"{mr.source_branch} → {mr.target_branch}",
            "updated_at": iso(mr.updated_at),
        }
        for mr in newest(service, KEY, limit)
    ]


PANEL = Panel(
    KEY,
    "Merge requests",
    ("id", "project", "reference", "title", "status", "branches", "updated_at"),
    rows,
    table="merge_requests",
    order=40,
)
