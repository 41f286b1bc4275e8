"""SSH keys, GPG keys and emails of users, declared once per family for both paths:
``/user/<family>`` (the caller's own: list, get, add, delete) and ``/users/:id/<family>``
(anyone may list a user's SSH and GPG keys; administrators add and delete, and manage
emails). ``/keys/:id`` and ``/keys?fingerprint=`` find an SSH key and its owner
(administrators)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.errors import NotFound, or_404
from fakeservice.core.store import Table
from fakeservice.keys import models
from fakeservice.keys.router import api
from fakeservice.keys.views import email_view, gpg_key_view, ssh_key_view
from fakeservice.users.models import User, find_by_id_or_username, users
from fakeservice.users.views import user_basic
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, DATETIME, INT, STR, Param
from fakeservice.web.routing import ADMIN, PUBLIC, REQUIRED, Handler


@attrs.frozen
class Family:
    path: str  # "keys", "gpg_keys", "emails"
    item: str  # the path parameter of one record
    kind: str  # for "404 <kind> Not Found"
    table: Callable[[Any], Table[Any]]
    view: Callable[[Any], dict[str, Any]]
    params: tuple[Param, ...]
    add: Callable[[Context, User, bool], Any]  # (ctx, owner, by an administrator)
    public: bool  # may anyone list /users/:id/<family>?


def _add_ssh(ctx: Context, owner: User, _admin: bool) -> Any:
    p = ctx.params
    return models.add_ssh_key(
        ctx.store,
        ctx.now,
        user_id=owner.id,
        title=p["title"],
        key=p["key"],
        expires_at=p.get("expires_at"),
        usage_type=p["usage_type"],
    )


def _add_gpg(ctx: Context, owner: User, _admin: bool) -> Any:
    return models.add_gpg_key(ctx.store, ctx.now, user_id=owner.id, key=ctx.params["key"])


def _add_email(ctx: Context, owner: User, admin: bool) -> Any:
    confirmed = admin and bool(ctx.params.get("skip_confirmation"))
    return models.add_email(
        ctx.store, ctx.now, user_id=owner.id, email=ctx.params["email"], confirmed=confirmed
    )


FAMILIES = (
    Family(
        "keys",
        "key_id",
        "Key",
        models.ssh_keys,
        ssh_key_view,
        (
            Param("title", STR, required=True),
            Param("key", STR, required=True),
            Param("expires_at", DATETIME),
            Param("usage_type", STR, default="auth_and_signing", values=models.USAGE_TYPES),
        ),
        _add_ssh,
        True,
    ),
    Family(
        "gpg_keys",
        "key_id",
        "GPG Key",
        models.gpg_keys,
        gpg_key_view,
        (Param("key", STR, required=True),),
        _add_gpg,
        True,
    ),
    Family(
        "emails",
        "email_id",
        "Email",
        models.emails,
        email_view,
        (Param("email", STR, required=True), Param("skip_confirmation", BOOL, default=False)),
        _add_email,
        False,
    ),
)


def _owner(ctx: Context) -> User:
    user = find_by_id_or_username(ctx.store, ctx.path_params["id"])
    return or_404(user if user is not None and user.state != "deleted" else None, "User")


def _declare(family: Family) -> None:
    item = Param(family.item, INT, required=True)

    def record_of(ctx: Context, owner: User) -> Any:
        found = family.table(ctx.store).get(ctx.params[family.item])
        if found is None or found.user_id != owner.id:
            raise NotFound(family.kind)
        return found

    def listed(ctx: Context, owner: User) -> Any:
        return ctx.paginate(family.table(ctx.store).select("user", [owner.id]), family.view)

    def added(ctx: Context, owner: User, admin: bool) -> Any:
        return family.view(family.add(ctx, owner, admin))

    def deleted(ctx: Context, owner: User) -> None:
        family.table(ctx.store).delete(record_of(ctx, owner))

    own, other = f"/user/{family.path}", f"/users/:id/{family.path}"
    noun = family.path.replace("_", " ")

    def declare(method: str, path: str, name: str, handler: Handler, **kw: Any) -> None:
        handler.__name__ = handler.__qualname__ = f"{name}_{family.path}"
        api.route(method, path, **kw)(handler)

    one = f"/:{family.item}"
    declare(
        "GET",
        own,
        "list_own",
        lambda ctx: listed(ctx, ctx.user),
        auth=REQUIRED,
        paginated=True,
        summary=f"The caller's {noun}",
    )
    declare(
        "GET",
        own + one,
        "get_own",
        lambda ctx: family.view(record_of(ctx, ctx.user)),
        params=(item,),
        auth=REQUIRED,
        summary=f"One of the caller's {noun}",
    )
    declare(
        "POST",
        own,
        "add_own",
        lambda ctx: added(ctx, ctx.user, False),
        params=family.params,
        auth=REQUIRED,
        summary=f"Add to the caller's {noun}",
    )
    declare(
        "DELETE",
        own + one,
        "delete_own",
        lambda ctx: deleted(ctx, ctx.user),
        params=(item,),
        auth=REQUIRED,
        summary=f"Delete one of the caller's {noun}",
    )
    declare(
        "GET",
        other,
        "list_user",
        lambda ctx: listed(ctx, _owner(ctx)),
        auth=PUBLIC if family.public else ADMIN,
        paginated=True,
        summary=f"A user's {noun}",
    )
    if family.public:
        declare(
            "GET",
            other + one,
            "get_user",
            lambda ctx: family.view(record_of(ctx, _owner(ctx))),
            params=(item,),
            summary=f"One of a user's {noun}",
        )
    declare(
        "POST",
        other,
        "add_user",
        lambda ctx: added(ctx, _owner(ctx), True),
        params=family.params,
        auth=ADMIN,
        summary=f"Add to a user's {noun}",
    )
    declare("DELETE", other + one, "delete_user", lambda ctx: deleted(ctx, _owner(ctx)),
            params=(item,), auth=ADMIN, summary=f"Delete one of a user's {noun}")  # fmt: skip


for _family in FAMILIES:
    _declare(_family)


def _with_user(ctx: Context, key: models.SSHKey) -> dict[str, Any]:
    owner = users(ctx.store).get(key.user_id)
    return {**ssh_key_view(key), "user": user_basic(owner, ctx.base_url) if owner else None}


@api.get("/keys/:key_id", params=(Param("key_id", INT, required=True),), auth=ADMIN)
def get_key(ctx: Context) -> Any:
    """An SSH key by id, with its owner (administrators)."""
    return _with_user(ctx, or_404(models.ssh_keys(ctx.store).get(ctx.params["key_id"]), "Key"))


@api.get("/keys", params=(Param("fingerprint", STR, required=True),), auth=ADMIN)
def find_key(ctx: Context) -> Any:
    """An SSH key by its MD5 or ``SHA256:`` fingerprint, with its owner (administrators)."""
    fingerprint = ctx.params["fingerprint"]
    index = "fingerprint" if fingerprint.startswith("SHA256:") else "md5"
    found = models.ssh_keys(ctx.store).by(index, fingerprint)
    return _with_user(ctx, or_404(found, "Key"))
