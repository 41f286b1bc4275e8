"""Access request endpoints of projects and groups: ``/projects/:id/access_requests`` and
``/groups/:id/access_requests`` (list, request, approve, deny or withdraw).

Rules (as the real service applies them):

* every call needs a signed-in caller who can see the project or group (else its 404);
* anyone who is not yet a member may ask, when the source has ``request_access_enabled``
  (a member, or a source with requests disabled, gets 403); asking twice is the model's
  400 ``{"user": ["already exists in source"]}``;
* Maintainers list, approve (``access_level``, Developer by default; roles above
  Maintainer need an Owner) and deny; the requester may withdraw their own request;
* approving makes the user a member through the members code and drops the request.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from fakeservice.members.models import DEVELOPER, GUEST, add_member
from fakeservice.members.requests import (
    AccessRequest,
    access_requests,
    add_request,
    find_request,
)
from fakeservice.members.routes import (
    ID,
    SOURCES,
    USER_ID,
    Declarations,
    caller_level,
    declare,
    is_member,
    require_manage,
    require_role_change,
    source_of,
    validate_role,
)
from fakeservice.members.views import member_view
from fakeservice.users.models import users
from fakeservice.users.views import user_ref
from fakeservice.web.context import Context
from fakeservice.web.params import INT, Param


def request_view(ctx: Context, request: AccessRequest) -> dict[str, Any]:
    """The requester's user reference with ``created_at`` and ``requested_at``."""
    out = user_ref(users(ctx.store).rows[request.user_id], ctx.base_url)
    assert out is not None
    out["created_at"] = iso(request.requested_at)
    out["requested_at"] = iso(request.requested_at)
    return out


def _request_or_404(ctx: Context, kind: str, record: Any) -> AccessRequest:
    found = find_request(ctx.store, kind, record.id, ctx.params["user_id"])
    if found is None:
        raise NotFound()
    return found


def list_requests(ctx: Context, kind: str) -> Any:
    """The source's pending access requests, oldest first (Maintainers)."""
    record = source_of(ctx, kind)
    require_manage(ctx, kind, record)
    selection = access_requests(ctx.store).select("source", [(kind, record.id)])
    return ctx.paginate(selection, lambda request: request_view(ctx, request))


def request_access(ctx: Context, kind: str) -> Any:
    """The caller asks to join (201 with the request)."""
    record = source_of(ctx, kind)
    member = is_member(ctx, kind, record, ctx.user.id) or (
        not ctx.user.admin and caller_level(ctx, kind, record) >= GUEST
    )
    if member or not record.request_access_enabled:
        raise Forbidden()
    if find_request(ctx.store, kind, record.id, ctx.user.id) is not None:
        raise ValidationFailed({"user": ["already exists in source"]})
    request = add_request(ctx.store, ctx.now, kind=kind, source_id=record.id, user_id=ctx.user.id)
    return request_view(ctx, request)


def approve(ctx: Context, kind: str) -> Any:
    """Make the requester a member at ``access_level`` (200 with the member)."""
    record = source_of(ctx, kind)
    request = _request_or_404(ctx, kind, record)
    level = require_manage(ctx, kind, record)
    access = ctx.params["access_level"]
    validate_role(ctx, access)
    require_role_change(level, None, access)
    if is_member(ctx, kind, record, request.user_id):
        raise Conflict("Member already exists")
    access_requests(ctx.store).delete(request)
    member = add_member(
        ctx.store,
        ctx.now,
        kind=kind,
        source_id=record.id,
        user_id=request.user_id,
        access_level=access,
        created_by_id=ctx.user.id,
    )
    return member_view(ctx.store, member, ctx.base_url)


def deny(ctx: Context, kind: str) -> Any:
    """Deny a request (Maintainers) or withdraw one's own (204)."""
    record = source_of(ctx, kind)
    request = _request_or_404(ctx, kind, record)
    if request.user_id != ctx.user.id:
        require_manage(ctx, kind, record)
    access_requests(ctx.store).delete(request)
    return None


def _register(source_type: str, kind: str) -> None:
    base = f"/{source_type}/:id/access_requests"
    noun = "project" if kind == "project" else "group"
    level = Param("access_level", INT, default=DEVELOPER)
    routes: Declarations = [
        ("GET", base, (ID,), {"paginated": True}, list_requests, f"List the access requests of a {noun}."),
        ("POST", base, (ID,), {}, request_access, f"Request access to a {noun}."),
        ("PUT", f"{base}/:user_id/approve", (ID, USER_ID, level), {}, approve, f"Approve an access request to a {noun}."),
        ("DELETE", f"{base}/:user_id", (ID, USER_ID), {}, deny, f"Deny or withdraw an access request to a {noun}."),
    ]  # fmt: skip
    declare(routes, kind)


for _source_type, _kind in SOURCES.items():
    _register(_source_type, _kind)
