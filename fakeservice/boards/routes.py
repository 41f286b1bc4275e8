"""Issue board endpoints of projects and groups (``/projects/:id/boards``,
``/groups/:id/boards``): boards (list, get, create with ``name``, update ``name``,
``hide_backlog_list``, ``hide_closed_list``, delete) and their label lists (list, get,
create with ``label_id``, update ``position``, delete). Reading needs read access to the
project or group, writing the Reporter role; a ``label_id`` the owner cannot use answers
``404 Label Not Found``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.boards import models
from fakeservice.boards.views import board_view, list_view
from fakeservice.core.errors import NotFound
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.labels import models as labels
from fakeservice.members.models import REPORTER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, INT, STR, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("boards")

ID = Param("id", STR, required=True, description="The ID or URL-encoded path")
BOARD_ID = Param("board_id", INT, required=True, description="The board's ID")
LIST_ID = Param("list_id", INT, required=True, description="The list's ID")
NAME = Param("name", STR, allow_blank=False, description="The board's name")
HIDE = (Param("hide_backlog_list", BOOL), Param("hide_closed_list", BOOL))


@attrs.frozen
class Owner:
    """The project or group a request names, the owners of the labels its lists may use,
    and the check before a write."""

    key: models.Owner
    label_owners: list[labels.Owner]
    require_write: Callable[[], Any]


def _project(ctx: Context) -> Owner:
    project = find_project_or_404(ctx, ctx.params["id"])
    return Owner(
        (labels.PROJECT, project.id),
        labels.owners_of_project(ctx.store, project),
        lambda: require_access(ctx, project, REPORTER),
    )


def _group(ctx: Context) -> Owner:
    group = find_group_or_404(ctx, ctx.params["id"])
    return Owner(
        (labels.GROUP, group.id),
        labels.owners_of_group(ctx.store, group.id),
        lambda: require_group_access(ctx, group, REPORTER),
    )


def _board(ctx: Context, owner: Owner) -> models.Board:
    board = models.boards(ctx.store).get(ctx.params["board_id"])
    if board is None or (board.owner_kind, board.owner_id) != owner.key:
        raise NotFound("Board")
    return board


def _list(ctx: Context, board: models.Board) -> models.BoardList:
    item = models.lists(ctx.store).get(ctx.params["list_id"])
    if item is None or item.board_id != board.id:
        raise NotFound("List")
    return item


def _label_id(ctx: Context, owner: Owner) -> int:
    label = labels.labels(ctx.store).get(ctx.params["label_id"])
    if label is None or label.owner not in owner.label_owners:
        raise NotFound("Label")
    return label.id


def _declare(prefix: str, find: Callable[[Context], Owner], kind: str) -> None:
    base = f"/{prefix}/:id/boards"
    one = f"{base}/:board_id"

    def render(ctx: Context) -> Callable[[models.Board], dict[str, Any]]:
        return lambda board: board_view(ctx.store, board, ctx.base_url)

    @api.get(base, params=(ID,), paginated=True, summary=f"List a {kind}'s boards")
    def list_boards(ctx: Context) -> Any:
        owner = find(ctx)
        return ctx.paginate(models.of_owner(ctx.store, owner.key), render(ctx))

    @api.get(one, params=(ID, BOARD_ID), summary=f"Get a {kind}'s board")
    def get_board(ctx: Context) -> Any:
        return board_view(ctx.store, _board(ctx, find(ctx)), ctx.base_url)

    @api.post(
        base,
        params=(ID, attrs.evolve(NAME, required=True)),
        auth=REQUIRED,
        summary="Create a board",
    )
    def create_board(ctx: Context) -> Any:
        owner = find(ctx)
        owner.require_write()
        board = models.create_board(ctx.store, owner.key, ctx.params["name"], ctx.now)
        return board_view(ctx.store, board, ctx.base_url)

    @api.put(one, params=(ID, BOARD_ID, NAME, *HIDE), auth=REQUIRED, summary="Update a board")
    def update_board(ctx: Context) -> Any:
        owner = find(ctx)
        board = _board(ctx, owner)
        owner.require_write()
        names = ("name", "hide_backlog_list", "hide_closed_list")
        changes = {k: ctx.params[k] for k in names if ctx.params.get(k) is not None}
        models.boards(ctx.store).update(board, **changes)
        return board_view(ctx.store, board, ctx.base_url)

    @api.delete(one, params=(ID, BOARD_ID), auth=REQUIRED, summary="Delete a board")
    def delete_board(ctx: Context) -> Any:
        owner = find(ctx)
        board = _board(ctx, owner)
        owner.require_write()
        models.delete_board(ctx.store, board)
        return None

    @api.get(one + "/lists", params=(ID, BOARD_ID), paginated=True, summary="List board lists")
    def list_lists(ctx: Context) -> Any:
        board = _board(ctx, find(ctx))
        selection = models.lists(ctx.store).select("board", [board.id])
        return ctx.paginate(selection, lambda item: list_view(ctx.store, item))

    @api.get(one + "/lists/:list_id", params=(ID, BOARD_ID, LIST_ID), summary="Get a list")
    def get_list(ctx: Context) -> Any:
        board = _board(ctx, find(ctx))
        return list_view(ctx.store, _list(ctx, board))

    @api.post(
        one + "/lists",
        params=(ID, BOARD_ID, Param("label_id", INT, required=True)),
        auth=REQUIRED,
        summary="Create a label list",
    )
    def create_list(ctx: Context) -> Any:
        owner = find(ctx)
        board = _board(ctx, owner)
        owner.require_write()
        item = models.create_list(ctx.store, board, _label_id(ctx, owner))
        return list_view(ctx.store, item)

    @api.put(
        one + "/lists/:list_id",
        params=(ID, BOARD_ID, LIST_ID, Param("position", INT, required=True)),
        auth=REQUIRED,
        summary="Move a list",
    )
    def update_list(ctx: Context) -> Any:
        owner = find(ctx)
        board = _board(ctx, owner)
        item = _list(ctx, board)
        owner.require_write()
        models.move_list(ctx.store, board, item, ctx.params["position"])
        return list_view(ctx.store, item)

    @api.delete(one + "/lists/:list_id", params=(ID, BOARD_ID, LIST_ID), auth=REQUIRED)
    def delete_list(ctx: Context) -> Any:
        """Delete a list (204)."""
        owner = find(ctx)
        board = _board(ctx, owner)
        item = _list(ctx, board)
        owner.require_write()
        models.delete_list(ctx.store, board, item)
        return None


_declare("projects", _project, "project")
_declare("groups", _group, "group")
