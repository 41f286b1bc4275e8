"""Who may reach an epic: the group a request names (``404 Group Not Found`` when the
caller may not see it, ``403`` on a plan without epics) and the caller's role there."""

from __future__ import annotations

from fakeservice.groups.lookup import find_group_or_404
from fakeservice.groups.models import Namespace, namespaces
from fakeservice.instance.models import require_paid_plan
from fakeservice.members.access import group_role
from fakeservice.web.context import Context


def epic_group(ctx: Context) -> Namespace:
    """The group of ``ctx.params["id"]``, on a plan with epics."""
    group = find_group_or_404(ctx, ctx.params["id"])
    require_paid_plan(ctx.store)
    return group


def epic_role(ctx: Context, group_id: int) -> int:
    """The caller's role in the epic's group."""
    return group_role(ctx.store, ctx.user, namespaces(ctx.store).rows[group_id], ctx.now)
