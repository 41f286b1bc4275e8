"""Members endpoints of projects and groups: direct and inherited member lists, one member,
adding one or several users, changing a role and removing a member.

Rules (as the real service applies them):

* every call needs a signed-in caller; reading needs read access to the project or group
  (others get its 404);
* changes need Maintainer; giving, changing or removing the Owner role needs Owner
  (so group Maintainers manage members up to Maintainer); members may remove themselves;
* a group's last Owner (counting Owners inherited from ancestor groups) can be neither
  demoted nor removed: 403;
* the owner of a personal project is listed as its Owner and cannot be changed or removed;
* ``/members/all`` merges direct members, members of the ancestor groups and members of
  groups the project is shared with (capped at the share's role); the highest role wins.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.clock import parse_iso
from fakeservice.core.errors import Conflict, Forbidden, NotFound, ValidationFailed
from fakeservice.groups.lookup import find_group_or_404, group_access_level
from fakeservice.groups.models import (
    Namespace,
    descendants,
    namespaces,
    self_and_ancestor_ids,
)
from fakeservice.members.access import share_active
from fakeservice.members.models import (
    MAINTAINER,
    NAMESPACE,
    OWNER,
    PROJECT,
    Member,
    add_member,
    find_member,
    members,
    of_source,
)
from fakeservice.members.views import member_view
from fakeservice.projects.lookup import access_level, find_project_or_404
from fakeservice.projects.models import projects
from fakeservice.users.models import User, find_by_username, live_user, users
from fakeservice.web.context import Context
from fakeservice.web.http import json_response
from fakeservice.web.params import (
    BOOL,
    INT,
    STR,
    Array,
    AtLeastOne,
    Invalid,
    MutuallyExclusive,
    Param,
    ParamType,
)
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("members")
# (method, pattern, params, extra route options, action of (ctx, kind), summary) rows
Declarations = list[tuple[str, str, tuple[Any, ...], dict[str, Any], Callable[..., Any], str]]

MEMBER_LEVELS = (10, 15, 20, 30, 40, 50)
SOURCES = {"projects": PROJECT, "groups": NAMESPACE}
SYNTHETIC_ID = 0  # the personal project owner's membership has no stored record


class _Expiry(ParamType):
    """``expires_at``: a date, or a date-time whose date is taken; blank clears it."""

    name = "string"

    def coerce(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise Invalid
        text = value.strip()
        if not text:
            return None
        try:
            return dt.date.fromisoformat(text)
        except ValueError:
            pass
        try:
            return parse_iso(text).date()
        except ValueError as exc:
            raise Invalid from exc

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "format": "date"}


EXPIRY = _Expiry()
ID = Param("id", STR, required=True)
USER_ID = Param("user_id", INT, required=True)
LIST_FILTERS = (
    Param("query", STR),
    Param("user_ids", Array(INT, scalar=True, comma=True)),
    Param("show_seat_info", BOOL),
)


# -- lookups -------------------------------------------------------------------------------
def source_of(ctx: Context, kind: str) -> Any:
    """The project or group of the ``:id`` path parameter (404 when the caller may not see it)."""
    if kind == PROJECT:
        return find_project_or_404(ctx, ctx.params["id"])
    return find_group_or_404(ctx, ctx.params["id"])


def caller_level(ctx: Context, kind: str, record: Any) -> int:
    return access_level(ctx, record) if kind == PROJECT else group_access_level(ctx, record)


def _personal_owner(ctx: Context, kind: str, record: Any) -> Member | None:
    """The implicit Owner membership of a personal project's namespace owner."""
    if kind != PROJECT:
        return None
    ns = namespaces(ctx.store).rows[record.namespace_id]
    owner = users(ctx.store).get(ns.owner_id) if ns.kind == "user" else None
    if owner is None or owner.deleted or find_member(ctx.store, PROJECT, record.id, owner.id):
        return None
    return Member(
        id=SYNTHETIC_ID,
        source_kind=PROJECT,
        source_id=record.id,
        user_id=owner.id,
        access_level=OWNER,
        created_at=record.created_at,
    )


def _direct_member(ctx: Context, kind: str, record: Any, user_id: int) -> Member:
    """A direct member by user id, else ``404 Not found``."""
    member = find_member(ctx.store, kind, record.id, user_id)
    if member is None:
        member = _personal_owner(ctx, kind, record)
    if member is None or member.user_id != user_id or live_user(ctx.store, user_id) is None:
        raise NotFound()
    return member


def all_members(ctx: Context, kind: str, record: Any) -> list[Member]:
    """Direct, inherited and shared-in members, one per user with the highest role."""
    store, now = ctx.store, ctx.now
    best: dict[int, Member] = {}

    def offer(member: Member, cap: int | None = None) -> None:
        if not member.active(now) or live_user(ctx.store, member.user_id) is None:
            return
        if cap is not None and member.access_level > cap:
            member = attrs.evolve(member, access_level=cap)
        current = best.get(member.user_id)
        if current is None or member.access_level > current.access_level:
            best[member.user_id] = member

    def offer_groups(group: Namespace, cap: int | None = None) -> None:
        for group_id in self_and_ancestor_ids(store, group):
            for member in of_source(store, NAMESPACE, group_id):
                offer(member, cap)

    if kind == NAMESPACE:
        offer_groups(record)
    else:
        for member in of_source(store, PROJECT, record.id):
            offer(member)
        owner = _personal_owner(ctx, kind, record)
        if owner is not None:
            offer(owner)
        ns = namespaces(store).rows[record.namespace_id]
        if ns.is_group:
            offer_groups(ns)
        for share in record.shared_with_groups:
            group = namespaces(store).get(share["group_id"])
            if group is not None and share_active(share, now):
                offer_groups(group, share["group_access_level"])
    return sorted(best.values(), key=lambda m: m.id)


# -- filters and rendering -----------------------------------------------------------------
def user_matches(user: User, query: str) -> bool:
    """Every word of the query in the name or in the username, or the exact public email."""
    text = query.removeprefix("@").strip().lower()
    words = text.split()
    for value in (user.name, user.username):
        if all(word in value.lower() for word in words):
            return True
    return (user.public_email or "").lower() == text


def _member_filter(ctx: Context) -> Callable[[Member], bool] | None:
    """The ``query`` / ``user_ids`` / ``skip_users`` filter; None when none is given."""
    p = ctx.params
    table = users(ctx.store)
    wanted = set(p["user_ids"]) if p.get("user_ids") else None
    skipped = set(p.get("skip_users") or ())
    query = (p.get("query") or "").strip()
    if wanted is None and not skipped and not query:
        return None

    def check(member: Member) -> bool:
        if wanted is not None and member.user_id not in wanted:
            return False
        if member.user_id in skipped:
            return False
        return not query or user_matches(table.rows[member.user_id], query)

    return check


def _filtered(listed: list[Member], check: Callable[[Member], bool] | None) -> list[Member]:
    return listed if check is None else [m for m in listed if check(m)]


def _renderer(ctx: Context) -> Callable[[Member], dict[str, Any]]:
    return lambda member: member_view(ctx.store, member, ctx.base_url)


# -- permissions and validation ------------------------------------------------------------
def require_manage(ctx: Context, kind: str, record: Any) -> int:
    """The caller's role, which must be at least Maintainer (else 403)."""
    level = caller_level(ctx, kind, record)
    if level < MAINTAINER:
        raise Forbidden()
    return level


def require_role_change(level: int, old: int | None, new: int) -> None:
    """Roles above Maintainer (given, changed or removed) need an Owner."""
    if max(old or 0, new) > MAINTAINER and level < OWNER:
        raise Forbidden()


def validate_role(ctx: Context, access: int) -> None:
    errors: dict[str, list[str]] = {}
    if access not in MEMBER_LEVELS:
        errors["access_level"] = ["is not included in the list"]
    expires = ctx.params.get("expires_at")
    if expires is not None and expires < ctx.now.date():
        errors["expires_at"] = ["cannot be a date in the past"]
    if errors:
        raise ValidationFailed(errors)


def _last_owner(ctx: Context, group: Namespace, member: Member) -> bool:
    """Whether ``member`` is the only Owner of the group, counting inherited Owners."""
    if member.access_level < OWNER:
        return False
    owners = {
        m.user_id
        for group_id in self_and_ancestor_ids(ctx.store, group)
        for m in of_source(ctx.store, NAMESPACE, group_id)
        if m.access_level >= OWNER and m.active(ctx.now)
    }
    return owners <= {member.user_id}


# -- adding --------------------------------------------------------------------------------
def _is_digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _resolve(ctx: Context, key: str, *, by_id: bool) -> User | None:
    key = key.strip()
    if by_id:
        return live_user(ctx.store, int(key)) if _is_digits(key) else None
    user = find_by_username(ctx.store, key)
    return None if user is None or user.deleted else user


def is_member(ctx: Context, kind: str, record: Any, user_id: int) -> bool:
    if find_member(ctx.store, kind, record.id, user_id) is not None:
        return True
    owner = _personal_owner(ctx, kind, record)
    return owner is not None and owner.user_id == user_id


def _add(ctx: Context, kind: str, record: Any, user: User) -> Member:
    return add_member(
        ctx.store,
        ctx.now,
        kind=kind,
        source_id=record.id,
        user_id=user.id,
        access_level=ctx.params["access_level"],
        expires_at=ctx.params.get("expires_at"),
        created_by_id=ctx.user.id,
    )


def _add_one(ctx: Context, kind: str, record: Any) -> Any:
    p = ctx.params
    by_id = p.get("user_id") is not None
    user = _resolve(ctx, p["user_id"] if by_id else p["username"], by_id=by_id)
    if user is None:
        raise NotFound("User")
    if is_member(ctx, kind, record, user.id):
        raise Conflict("Member already exists")
    level = require_manage(ctx, kind, record)
    validate_role(ctx, p["access_level"])
    require_role_change(level, None, p["access_level"])
    return member_view(ctx.store, _add(ctx, kind, record, user), ctx.base_url)


def _add_many(ctx: Context, kind: str, record: Any) -> Any:
    """Several comma-separated users: unknown ones are skipped, existing members updated."""
    p = ctx.params
    level = require_manage(ctx, kind, record)
    validate_role(ctx, p["access_level"])
    require_role_change(level, None, p["access_level"])
    by_id = p.get("user_id") is not None
    keys = (p["user_id"] if by_id else p["username"]).split(",")
    found = [_resolve(ctx, key, by_id=by_id) for key in keys if key.strip()]
    unique = {u.id: u for u in found if u is not None}
    for user in unique.values():
        put_member(ctx, kind, record, user, level)
    return json_response({"status": "success"}, 201)


def put_member(ctx: Context, kind: str, record: Any, user: User, level: int) -> None:
    """Add ``user`` at the ``access_level`` and ``expires_at`` parameters, or change a
    direct member's role to them; left alone when the caller (of role ``level``) may not
    change it (an Owner by a non-Owner, a group's last Owner)."""
    p = ctx.params
    existing = find_member(ctx.store, kind, record.id, user.id)
    if existing is None:
        if not is_member(ctx, kind, record, user.id):
            _add(ctx, kind, record, user)
        return
    if existing.access_level > MAINTAINER and level < OWNER:
        return
    if kind == NAMESPACE and p["access_level"] < OWNER and _last_owner(ctx, record, existing):
        return
    members(ctx.store).update(
        existing, access_level=p["access_level"], expires_at=p.get("expires_at")
    )


# -- removing ------------------------------------------------------------------------------
def _remove_below(ctx: Context, group: Namespace, user_id: int) -> None:
    """Remove the user's direct memberships in the group's subgroups and projects."""
    table = members(ctx.store)
    project_table = projects(ctx.store)
    below = list(descendants(ctx.store, group))
    for ns in below:
        found = find_member(ctx.store, NAMESPACE, ns.id, user_id)
        if found is not None:
            table.delete(found)
    for ns in [group, *below]:
        for entry in project_table.sorted["ns_by_id"].part(ns.id):
            found = find_member(ctx.store, PROJECT, entry[-1], user_id)
            if found is not None:
                table.delete(found)


# -- endpoints -----------------------------------------------------------------------------
def list_direct(ctx: Context, kind: str) -> Any:
    """Direct members, by membership age (the personal project owner first)."""
    record = source_of(ctx, kind)
    check = _member_filter(ctx)
    owner = _personal_owner(ctx, kind, record)
    if owner is None:
        selection = members(ctx.store).select("source", [(kind, record.id)]).filter(check)
        return ctx.paginate(selection, _renderer(ctx))
    listed = _filtered([owner, *of_source(ctx.store, kind, record.id)], check)
    return ctx.paginate_list(listed, _renderer(ctx))


def list_all(ctx: Context, kind: str) -> Any:
    """Direct, inherited and shared-in members, one per user with the highest role."""
    record = source_of(ctx, kind)
    check = _member_filter(ctx)
    listed = _filtered(all_members(ctx, kind, record), check)
    return ctx.paginate_list(listed, _renderer(ctx))


def get_direct(ctx: Context, kind: str) -> Any:
    """One direct member by user id."""
    record = source_of(ctx, kind)
    member = _direct_member(ctx, kind, record, ctx.params["user_id"])
    return member_view(ctx.store, member, ctx.base_url)


def get_any(ctx: Context, kind: str) -> Any:
    """One member by user id, inherited and shared-in roles included."""
    record = source_of(ctx, kind)
    user_id = ctx.params["user_id"]
    for member in all_members(ctx, kind, record):
        if member.user_id == user_id:
            return member_view(ctx.store, member, ctx.base_url)
    raise NotFound()


def create(ctx: Context, kind: str) -> Any:
    """Add a user (201 with the member) or several comma-separated ones (201 status)."""
    record = source_of(ctx, kind)
    p = ctx.params
    if "," in (p.get("user_id") or "") or "," in (p.get("username") or ""):
        return _add_many(ctx, kind, record)
    return _add_one(ctx, kind, record)


def edit(ctx: Context, kind: str) -> Any:
    """Change a direct member's role and expiry."""
    record = source_of(ctx, kind)
    p = ctx.params
    member = _direct_member(ctx, kind, record, p["user_id"])
    if member.id == SYNTHETIC_ID:
        raise Forbidden()
    level = require_manage(ctx, kind, record)
    require_role_change(level, member.access_level, p["access_level"])
    if kind == NAMESPACE and p["access_level"] < OWNER and _last_owner(ctx, record, member):
        raise Forbidden()
    validate_role(ctx, p["access_level"])
    changes: dict[str, Any] = {"access_level": p["access_level"]}
    if "expires_at" in p:
        changes["expires_at"] = p["expires_at"]
    members(ctx.store).update(member, **changes)
    return member_view(ctx.store, member, ctx.base_url)


def remove(ctx: Context, kind: str) -> Any:
    """Remove a direct member (204); from a group, also from its subgroups and projects."""
    record = source_of(ctx, kind)
    member = _direct_member(ctx, kind, record, ctx.params["user_id"])
    if member.id == SYNTHETIC_ID:
        raise Forbidden()
    if member.user_id != ctx.user.id:
        level = require_manage(ctx, kind, record)
        require_role_change(level, member.access_level, 0)
    if kind == NAMESPACE and _last_owner(ctx, record, member):
        raise Forbidden()
    members(ctx.store).delete(member)
    if kind == NAMESPACE and not ctx.params["skip_subresources"]:
        _remove_below(ctx, record, member.user_id)
    return None


def _register(source_type: str, kind: str) -> None:
    """Declare the member endpoints under ``/<source_type>/:id/members``."""
    base = f"/{source_type}/:id/members"
    noun = "project" if kind == PROJECT else "group"
    routes: Declarations = [
        ("GET", base, (ID, *LIST_FILTERS, Param("skip_users", Array(INT, scalar=True, comma=True))), {"paginated": True}, list_direct, f"List the direct members of a {noun}."),
        ("GET", f"{base}/all", (ID, *LIST_FILTERS), {"paginated": True}, list_all, f"List the direct, inherited and invited members of a {noun}."),
        ("GET", f"{base}/all/:user_id", (ID, USER_ID), {}, get_any, f"Get a direct, inherited or invited member of a {noun}."),
        ("GET", f"{base}/:user_id", (ID, USER_ID), {}, get_direct, f"Get a direct member of a {noun}."),
        ("POST", base, (ID, Param("access_level", INT, required=True), Param("user_id", STR), Param("username", STR), Param("expires_at", EXPIRY), Param("invite_source", STR, default="members-api")), {"constraints": (MutuallyExclusive(("user_id", "username")), AtLeastOne(("user_id", "username")))}, create, f"Add one or several users to a {noun}."),
        ("PUT", f"{base}/:user_id", (ID, USER_ID, Param("access_level", INT, required=True), Param("expires_at", EXPIRY)), {}, edit, f"Change a {noun} member's role or expiry."),
        ("DELETE", f"{base}/:user_id", (ID, USER_ID, Param("skip_subresources", BOOL, default=False), Param("unassign_issuables", BOOL, default=False)), {}, remove, f"Remove a member from a {noun}."),
    ]  # fmt: skip
    declare(routes, kind)


def declare(routes: Declarations, kind: str) -> None:
    """Declare ``(method, pattern, params, extra, action, summary)`` rows for one source
    kind: signed-in callers, each action bound to ``kind``."""
    for method, pattern, params, extra, action, summary in routes:
        api.route(method, pattern, params=params, auth=REQUIRED, summary=summary, **extra)(
            bind(action, kind)
        )


def bind(action: Callable[[Context, str], Any], kind: str) -> Callable[[Context], Any]:
    def handler(ctx: Context) -> Any:
        return action(ctx, kind)

    handler.__doc__ = action.__doc__
    return handler


for _source_type, _kind in SOURCES.items():
    _register(_source_type, _kind)
