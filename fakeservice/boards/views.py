"""Boards and board lists as the API answers them (a project board names its project, a
group board its group; lists carry their label)."""

from __future__ import annotations

from typing import Any

from fakeservice.boards.models import Board, BoardList, of_board
from fakeservice.core.store import Store
from fakeservice.groups.models import namespaces
from fakeservice.groups.views import group_web_url
from fakeservice.labels.models import PROJECT, labels
from fakeservice.labels.views import label_view
from fakeservice.projects.models import projects
from fakeservice.projects.views import project_identity


def list_view(store: Store, item: BoardList) -> dict[str, Any]:
    label = labels(store).get(item.label_id)
    return {
        "id": item.id,
        "label": label_view(store, label) if label is not None else None,
        "position": item.position,
        "max_issue_count": 0,
        "max_issue_weight": 0,
        "limit_metric": None,
    }


def board_view(store: Store, board: Board, base_url: str) -> dict[str, Any]:
    out: dict[str, Any] = {"id": board.id, "name": board.name}
    if board.owner_kind == PROJECT:
        out["project"] = project_identity(projects(store).rows[board.owner_id])
    else:
        group = namespaces(store).rows[board.owner_id]
        out["group"] = {
            "id": group.id,
            "name": group.name,
            "web_url": group_web_url(group, base_url),
        }
    out.update(
        {
            "milestone": None,
            "assignee": None,
            "labels": [],
            "weight": None,
            "hide_backlog_list": board.hide_backlog_list,
            "hide_closed_list": board.hide_closed_list,
            "lists": [list_view(store, item) for item in of_board(store, board)],
        }
    )
    return out
