"""Control-plane endpoints for storage moves: ``GET /_fake/storage_moves/:id`` and
``POST /_fake/storage_moves/:id/fire`` (see :mod:`fakeservice.instance.control`)."""

from __future__ import annotations

from typing import Any

from fakeservice.instance.control import machine_control
from fakeservice.storage_moves import models
from fakeservice.storage_moves.machines import MOVE_MACHINE
from fakeservice.storage_moves.router import api
from fakeservice.storage_moves.views import move_view
from fakeservice.web.context import Context


def _render(ctx: Context, move: models.StorageMove) -> dict[str, Any]:
    return {**move_view(ctx.store, move, ctx.base_url), "kind": move.kind}


machine_control(api, "storage_moves", models.TABLE, MOVE_MACHINE, models.fire, _render)
