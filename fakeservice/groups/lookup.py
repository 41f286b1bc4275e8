"""Finding a group for a request: by id or encoded full path, 404 for callers who may not
see it, and the role checks group endpoints need."""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import NotFound
from fakeservice.groups.models import Namespace, find_group
from fakeservice.members.access import can_read_group, group_role, require_role
from fakeservice.web.context import Context


def find_group_or_404(ctx: Context, key: Any) -> Namespace:
    group = find_group(ctx.store, key)
    if group is None or not can_read_group(ctx.store, ctx.user, group, ctx.now):
        raise NotFound("Group")
    return group


def group_access_level(ctx: Context, group: Namespace) -> int:
    return group_role(ctx.store, ctx.user, group, ctx.now)


def require_group_access(
    ctx: Context, group: Namespace, level: int, reason: str | None = None
) -> int:
    return require_role(group_access_level(ctx, group), level, reason)
