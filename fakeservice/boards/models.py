"""Board and board list records and the operations on them.

A board belongs to a project or a group (``owner_kind``, ``owner_id``, as labels do). Its
lists are label lists: each names a label the board's owner can use, once per board, at
a ``position`` (0, 1, ... without gaps; moving a list shifts the ones in between).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Selection, Store, Table

Owner = tuple[str, int]


@attrs.define(slots=True)
class Board:
    id: int
    owner_kind: str
    owner_id: int
    name: str
    created_at: dt.datetime
    hide_backlog_list: bool = False
    hide_closed_list: bool = False


@attrs.define(slots=True)
class BoardList:
    id: int
    board_id: int
    label_id: int
    position: int


def boards(store: Store) -> Table[Board]:
    return store.tables["boards"]


def lists(store: Store) -> Table[BoardList]:
    return store.tables["board_lists"]


def install(store: Store) -> None:
    store.table("boards").add_sorted("owner", lambda b: (b.owner_kind, b.owner_id))
    table = store.table("board_lists")
    table.add_sorted("board", lambda r: r.board_id, lambda r: (r.position,))
    table.add_unique("board_label", lambda r: (r.board_id, r.label_id))


def of_owner(store: Store, owner: Owner) -> Selection[Board]:
    return boards(store).select("owner", [owner])


def of_board(store: Store, board: Board) -> list[BoardList]:
    return list(lists(store).select("board", [board.id]))


def create_board(store: Store, owner: Owner, name: str, now: dt.datetime) -> Board:
    board = Board(store.next_id("boards"), owner[0], owner[1], name, now)
    return boards(store).insert(board)


def delete_board(store: Store, board: Board) -> None:
    for item in of_board(store, board):
        lists(store).delete(item)
    boards(store).delete(board)


def create_list(store: Store, board: Board, label_id: int) -> BoardList:
    if lists(store).by("board_label", (board.id, label_id)) is not None:
        raise ValidationFailed({"label_id": ["has already been taken"]})
    position = len(of_board(store, board))
    return lists(store).insert(
        BoardList(store.next_id("board_lists"), board.id, label_id, position)
    )


def move_list(store: Store, board: Board, item: BoardList, position: int) -> None:
    """Put ``item`` at ``position`` (clamped to the board's lists), the others keeping their
    order."""
    others = [other for other in of_board(store, board) if other.id != item.id]
    position = max(0, min(position, len(others)))
    others.insert(position, item)
    for index, record in enumerate(others):
        if record.position != index:
            lists(store).update(record, position=index)


def delete_list(store: Store, board: Board, item: BoardList) -> None:
    lists(store).delete(item)
    for index, record in enumerate(of_board(store, board)):
        if record.position != index:
            lists(store).update(record, position=index)


def forget_owner(store: Store, owner: Owner) -> None:
    for board in list(of_owner(store, owner)):
        delete_board(store, board)


def forget_project(store: Store, project: Any) -> None:
    """Drop a deleted project's boards."""
    forget_owner(store, ("project", project.id))


def forget_namespace(store: Store, namespace: Any) -> None:
    """Drop a deleted group's boards (the ``NAMESPACE_DELETED`` listener)."""
    if namespace.is_group:
        forget_owner(store, ("group", namespace.id))
