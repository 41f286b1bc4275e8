"""Invitation endpoints of projects and groups: ``/projects/:id/invitations`` and
``/groups/:id/invitations`` (list, invite, change, delete).

Rules (as the real service applies them):

* every call needs a signed-in Maintainer of the project or group (roles above
  Maintainer need an Owner, as for members); others get 403, or the source's 404 when
  they cannot see it;
* ``POST`` takes comma-separated ``email`` and/or ``user_id`` lists with one
  ``access_level`` and ``expires_at``: a user id, or the address of an existing user,
  makes (or changes) a direct member at once, any other address is invited; each entry
  that fails is reported under its address or id in ``{"status": "error", "message":
  {...}}`` (201 either way, as the service answers), the others take effect;
* ``PUT`` and ``DELETE`` find a pending invitation by its address (``404 Invitation Not
  Found`` otherwise).
"""

from __future__ import annotations

import re
from typing import Any

from fakeservice.core.clock import iso, iso_date
from fakeservice.core.errors import NotFound
from fakeservice.members.invites import (
    Invitation,
    add_invitation,
    find_invitation,
    invitations,
)
from fakeservice.members.routes import (
    EXPIRY,
    ID,
    SOURCES,
    Declarations,
    declare,
    put_member,
    require_manage,
    require_role_change,
    source_of,
    validate_role,
)
from fakeservice.users.models import find_by_email, live_user, users
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Array, AtLeastOne, Param

EMAIL_RE = re.compile(r"^[^@\s,]+@[^@\s,]+$")
EMAIL = Param("email", STR, required=True)
LIST = Array(STR, scalar=True, comma=True)  # "a,b", ["a", "b"] or one bare value


def invitation_view(ctx: Context, invitation: Invitation) -> dict[str, Any]:
    """``{id, invite_email, created_at, access_level, expires_at, user_name,
    created_by_name}`` (``user_name`` stays null until someone accepts)."""
    creator = users(ctx.store).get(invitation.created_by_id)
    return {
        "id": invitation.id,
        "invite_email": invitation.email,
        "created_at": iso(invitation.created_at),
        "access_level": invitation.access_level,
        "expires_at": iso_date(invitation.expires_at),
        "user_name": None,
        "created_by_name": creator.name if creator is not None else None,
    }


def _manage(ctx: Context, kind: str) -> tuple[Any, int]:
    """The source and the caller's role in it (Maintainer at least)."""
    record = source_of(ctx, kind)
    return record, require_manage(ctx, kind, record)


def _invitation_or_404(ctx: Context, kind: str, record: Any) -> Invitation:
    found = find_invitation(ctx.store, kind, record.id, ctx.params["email"])
    if found is None:
        raise NotFound("Invitation")
    return found


def _split(values: list[str] | None) -> list[str]:
    return [item.strip() for item in values or () if item.strip()]


def list_invitations(ctx: Context, kind: str) -> Any:
    """Pending invitations, oldest first (``query``: part of the address)."""
    record, _ = _manage(ctx, kind)
    query = (ctx.params.get("query") or "").strip().lower()
    selection = invitations(ctx.store).select("source", [(kind, record.id)])
    if query:
        selection = selection.filter(lambda invitation: query in invitation.email.lower())
    return ctx.paginate(selection, lambda invitation: invitation_view(ctx, invitation))


def _invite_email(ctx: Context, kind: str, record: Any, email: str, level: int) -> str | None:
    """Invite one address (or add its user); the entry's error, if any."""
    if not EMAIL_RE.match(email):
        return "Invite email is invalid"
    user = find_by_email(ctx.store, email)
    if user is not None and not user.deleted:
        put_member(ctx, kind, record, user, level)
        return None
    if find_invitation(ctx.store, kind, record.id, email) is not None:
        return "Invite email has already been taken"
    p = ctx.params
    add_invitation(
        ctx.store,
        ctx.now,
        kind=kind,
        source_id=record.id,
        email=email,
        access_level=p["access_level"],
        expires_at=p.get("expires_at"),
        created_by_id=ctx.user.id,
    )
    return None


def invite(ctx: Context, kind: str) -> Any:
    """Invite addresses and add users (201 with ``status`` and the entries' errors)."""
    record, level = _manage(ctx, kind)
    p = ctx.params
    validate_role(ctx, p["access_level"])
    require_role_change(level, None, p["access_level"])
    errors: dict[str, str] = {}
    for key in _split(p.get("user_id")):
        user = live_user(ctx.store, int(key)) if key.isascii() and key.isdigit() else None
        if user is None:
            errors[key] = "User not found"
        else:
            put_member(ctx, kind, record, user, level)
    for email in _split(p.get("email")):
        problem = _invite_email(ctx, kind, record, email, level)
        if problem is not None:
            errors[email] = problem
    if errors:
        return {"status": "error", "message": errors}
    return {"status": "success"}


def change(ctx: Context, kind: str) -> Any:
    """Change a pending invitation's role or expiry."""
    record, level = _manage(ctx, kind)
    invitation = _invitation_or_404(ctx, kind, record)
    p = ctx.params
    access = p.get("access_level", invitation.access_level)
    validate_role(ctx, access)
    require_role_change(level, invitation.access_level, access)
    changes: dict[str, Any] = {"access_level": access}
    if "expires_at" in p:
        changes["expires_at"] = p["expires_at"]
    invitations(ctx.store).update(invitation, **changes)
    return invitation_view(ctx, invitation)


def delete(ctx: Context, kind: str) -> Any:
    """Delete a pending invitation (204)."""
    record, level = _manage(ctx, kind)
    invitation = _invitation_or_404(ctx, kind, record)
    require_role_change(level, invitation.access_level, 0)
    invitations(ctx.store).delete(invitation)
    return None


def _register(source_type: str, kind: str) -> None:
    base = f"/{source_type}/:id/invitations"
    noun = "project" if kind == "project" else "group"
    expiry = Param("expires_at", EXPIRY)
    create_params = (
        ID,
        Param("access_level", INT, default=30),
        Param("email", LIST),
        Param("user_id", LIST),
        expiry,
        Param("invite_source", STR),
        Param("member_role_id", INT),
    )
    routes: Declarations = [
        ("GET", base, (ID, Param("query", STR)), {"paginated": True}, list_invitations, f"List the pending invitations of a {noun}."),
        ("POST", base, create_params, {"constraints": (AtLeastOne(("email", "user_id")),)}, invite, f"Invite people to a {noun} by email or user id."),
        ("PUT", f"{base}/:email", (ID, EMAIL, Param("access_level", INT), expiry), {}, change, f"Change an invitation to a {noun}."),
        ("DELETE", f"{base}/:email", (ID, EMAIL), {}, delete, f"Delete an invitation to a {noun}."),
    ]  # fmt: skip
    declare(routes, kind)


for _source_type, _kind in SOURCES.items():
    _register(_source_type, _kind)
