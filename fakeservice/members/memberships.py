"""``GET /users/:id/memberships``: a user's direct memberships of projects and groups
(administrators), read from the members table's ``user`` index.

Each is ``{source_id, source_name, source_type, access_level}`` with ``source_type``
``Project`` or ``Namespace``; ``type`` keeps one kind.
"""

from __future__ import annotations

from typing import Any

from fakeservice.groups.models import namespaces
from fakeservice.members.models import NAMESPACE, PROJECT, Member, members
from fakeservice.members.routes import api
from fakeservice.projects.models import projects
from fakeservice.users.routes import find_user_or_404
from fakeservice.web.context import Context
from fakeservice.web.params import STR, Param
from fakeservice.web.routing import ADMIN

TYPES = {"Project": PROJECT, "Namespace": NAMESPACE}


def membership_view(ctx: Context, member: Member) -> dict[str, Any]:
    if member.source_kind == PROJECT:
        name, source_type = projects(ctx.store).rows[member.source_id].name, "Project"
    else:
        name, source_type = namespaces(ctx.store).rows[member.source_id].name, "Namespace"
    return {
        "source_id": member.source_id,
        "source_name": name,
        "source_type": source_type,
        "access_level": member.access_level,
    }


@api.route(
    "GET",
    "/users/:id/memberships",
    params=(Param("id", STR, required=True), Param("type", STR, values=tuple(TYPES))),
    auth=ADMIN,
    paginated=True,
    summary="List a user's project and group memberships.",
)
def list_memberships(ctx: Context) -> Any:
    """The user's direct memberships, oldest first (``type``: Project or Namespace)."""
    user = find_user_or_404(ctx, ctx.params["id"])
    selection = members(ctx.store).select("user", [user.id])
    kind = TYPES.get(ctx.params.get("type") or "")
    if kind is not None:
        selection = selection.filter(lambda member: member.source_kind == kind)
    return ctx.paginate(selection, lambda member: membership_view(ctx, member))
