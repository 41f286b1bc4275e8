"""``/broadcast_messages``: list (newest first) and get for anyone, signed in or not;
create, edit and delete for administrators. Deletes honour ``If-Unmodified-Since``."""

from __future__ import annotations

from typing import Any

from fakeservice.broadcasts import models
from fakeservice.broadcasts.models import (
    BROADCAST_TYPES,
    TARGET_ACCESS_LEVELS,
    THEMES,
    BroadcastMessage,
    broadcast_messages,
)
from fakeservice.broadcasts.views import broadcast_view
from fakeservice.core.errors import or_404
from fakeservice.web.conditional import require_unmodified_since
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, DATETIME, INT, NOTHING, STR, Array, Param
from fakeservice.web.routing import ADMIN, PUBLIC, AreaRouter

api = AreaRouter("broadcasts")
ID = Param("id", INT, required=True, description="The message's ID")


def fields(*, create: bool) -> tuple[Param, ...]:
    """The editable fields (``message`` is required on create)."""
    return (
        Param("message", STR, required=create, description="The message (Markdown)"),
        Param("starts_at", DATETIME, description="When it starts (default: now)"),
        Param("ends_at", DATETIME, description="When it ends (default: an hour after now)"),
        Param("color", STR, description="Background colour (deprecated: theme)"),
        Param("font", STR, description="Foreground colour (deprecated: theme)"),
        Param(
            "target_access_levels",
            Array(INT, comma=True, scalar=True),
            values=TARGET_ACCESS_LEVELS,
            description="The roles that see it (none: everyone)",
        ),
        Param("target_path", STR, description="Paths it shows on (`*` wildcards)"),
        Param(
            "broadcast_type",
            STR,
            values=BROADCAST_TYPES,
            default="banner" if create else NOTHING,
            description="banner or notification",
        ),
        Param("dismissable", BOOL, description="Whether users can dismiss it"),
        Param("theme", STR, values=THEMES, description="The banner's theme"),
    )


def find_or_404(ctx: Context) -> BroadcastMessage:
    return or_404(broadcast_messages(ctx.store).get(ctx.params["id"]))


@api.get("/broadcast_messages", auth=PUBLIC, paginated=True)
def list_messages(ctx: Context) -> Any:
    """Every broadcast message, newest first."""
    now = ctx.now
    return ctx.paginate(
        broadcast_messages(ctx.store).select(reverse=True), lambda m: broadcast_view(m, now)
    )


@api.get("/broadcast_messages/:id", params=(ID,), auth=PUBLIC)
def get_message(ctx: Context) -> Any:
    """A broadcast message."""
    return broadcast_view(find_or_404(ctx), ctx.now)


@api.post("/broadcast_messages", params=fields(create=True), auth=ADMIN)
def create_message(ctx: Context) -> Any:
    """Create a broadcast message (administrators)."""
    return broadcast_view(models.create(ctx.store, ctx.now, ctx.params), ctx.now)


@api.put("/broadcast_messages/:id", params=(ID, *fields(create=False)), auth=ADMIN)
def edit_message(ctx: Context) -> Any:
    """Change a broadcast message (administrators)."""
    changes = {k: v for k, v in ctx.params.items() if k != "id"}
    return broadcast_view(models.update(ctx.store, find_or_404(ctx), ctx.now, changes), ctx.now)


@api.delete("/broadcast_messages/:id", params=(ID,), auth=ADMIN)
def delete_message(ctx: Context) -> Any:
    """Delete a broadcast message (administrators)."""
    record = find_or_404(ctx)
    require_unmodified_since(ctx.request, record.updated_at)
    broadcast_messages(ctx.store).delete(record)
    return None
