"""Token endpoints: administrators issue personal and impersonation tokens; a caller reads
or revokes its own; ``POST /oauth/token`` issues OAuth tokens (password and refresh grants)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from fakeservice.core.errors import (
    ApiError,
    Forbidden,
    NotFound,
    Unauthorized,
    ValidationFailed,
    or_404,
)
from fakeservice.tokens.models import SCOPES, AccessToken, find_secret, issue_token, tokens
from fakeservice.tokens.router import api
from fakeservice.tokens.views import token_view
from fakeservice.users.models import find_by_username, hash_password, live_user, users
from fakeservice.web.context import Context
from fakeservice.web.http import json_response
from fakeservice.web.params import BOOL, DATE, DATETIME, INT, STR, Array, Param
from fakeservice.web.routing import ADMIN, PUBLIC, REQUIRED

OAUTH_LIFETIME = 7200

TOKEN_PARAMS = (
    Param("user_id", INT, required=True),
    Param("name", STR, required=True, allow_blank=False),
    Param("scopes", Array(STR, scalar=True), required=True, values=SCOPES),
    Param("expires_at", DATE),
    Param("description", STR),
)


def _issue(ctx: Context, kind: str) -> Any:
    p = ctx.params
    user = or_404(live_user(ctx.store, p["user_id"]), "User")
    if not p["scopes"]:
        raise ValidationFailed({"scopes": ["can't be blank"]})
    expires = p.get("expires_at")
    if expires is not None and expires < ctx.now.date():
        raise ValidationFailed({"expires_at": ["must be in the future"]})
    token = issue_token(
        ctx.store,
        ctx.now,
        kind=kind,
        user_id=user.id,
        name=p["name"],
        scopes=p["scopes"],
        expires_at=expires,
        description=p.get("description"),
    )
    return token_view(token, ctx.now, with_secret=True)


@api.post("/users/:user_id/personal_access_tokens", params=TOKEN_PARAMS, auth=ADMIN)
def create_personal_token(ctx: Context) -> Any:
    """Create a personal access token for a user (administrators)."""
    return _issue(ctx, "personal")


@api.post("/users/:user_id/impersonation_tokens", params=TOKEN_PARAMS, auth=ADMIN)
def create_impersonation_token(ctx: Context) -> Any:
    """Create an impersonation token for a user (administrators)."""
    return _issue(ctx, "impersonation")


@api.get("/personal_access_tokens/self", auth=REQUIRED)
def token_self(ctx: Context) -> Any:
    """The token used for this request."""
    token = ctx.caller.token
    if token is None or token.kind == "oauth":
        raise NotFound()
    return token_view(token, ctx.now)


@api.delete("/personal_access_tokens/self", auth=REQUIRED)
def revoke_self(ctx: Context) -> Any:
    """Revoke the token used for this request."""
    token = ctx.caller.token
    if token is None or token.kind == "oauth":
        raise Forbidden()
    token.revoked = True
    return None


LIST_PARAMS = (
    Param("user_id", INT),
    Param("state", STR, values=("active", "inactive")),
    Param("revoked", BOOL),
    Param("search", STR),
    Param("created_before", DATETIME),
    Param("created_after", DATETIME),
    Param("last_used_before", DATETIME),
    Param("last_used_after", DATETIME),
)


@api.get("/personal_access_tokens", params=LIST_PARAMS, auth=REQUIRED, paginated=True)
def list_tokens(ctx: Context) -> Any:
    """The caller's tokens; administrators see everyone's (one user's with ``user_id``).
    Filters: ``state``, ``revoked``, ``search`` (in the name), ``created_*``, ``last_used_*``."""
    p = ctx.params
    owner = p.get("user_id")
    if owner is not None and owner != ctx.user.id and not ctx.is_admin:
        raise Unauthorized()
    table = tokens(ctx.store)
    if owner is None and ctx.is_admin:
        selection = table.select("listed")
    else:
        owner = ctx.user.id if owner is None else owner
        selection = table.select("user", [owner]).filter(lambda t: t.kind != "oauth")
    return ctx.paginate(
        selection.filter(_list_filter(p, ctx.now)), lambda t: token_view(t, ctx.now)
    )


def _list_filter(p: dict[str, Any], now: dt.datetime) -> Callable[[AccessToken], bool] | None:
    """One predicate for the list filters given (None when there are none)."""
    tests: list[Callable[[AccessToken], bool]] = []
    if "state" in p:
        wanted = p["state"] == "active"
        tests.append(lambda t: t.active(now) == wanted)
    if "revoked" in p:
        tests.append(lambda t: t.revoked == p["revoked"])
    if p.get("search"):
        needle = p["search"].lower()
        tests.append(lambda t: needle in t.name.lower())
    if "created_before" in p:
        tests.append(lambda t: t.created_at <= p["created_before"])
    if "created_after" in p:
        tests.append(lambda t: t.created_at >= p["created_after"])
    if "last_used_before" in p:
        tests.append(
            lambda t: t.last_used_at is not None and t.last_used_at <= p["last_used_before"]
        )
    if "last_used_after" in p:
        tests.append(
            lambda t: t.last_used_at is not None and t.last_used_at >= p["last_used_after"]
        )
    if not tests:
        return None
    return lambda t: all(test(t) for test in tests)


@api.get(
    "/personal_access_tokens/:token_id",
    params=(Param("token_id", INT, required=True),),
    auth=REQUIRED,
)
def get_token(ctx: Context) -> Any:
    """One token by id (own, or anyone's for administrators)."""
    return token_view(visible_token(ctx), ctx.now)


def visible_token(ctx: Context) -> AccessToken:
    """The token of the ``token_id`` path parameter: own, or anyone's for administrators."""
    token = tokens(ctx.store).get(ctx.params["token_id"])
    if (
        token is None
        or token.kind == "oauth"
        or (token.user_id != ctx.user.id and not ctx.is_admin)
    ):
        raise NotFound()
    return token


@api.delete(
    "/personal_access_tokens/:token_id",
    params=(Param("token_id", INT, required=True),),
    auth=REQUIRED,
)
def revoke_token(ctx: Context) -> Any:
    """Revoke a token by id (own, or anyone's for administrators)."""
    visible_token(ctx).revoked = True
    return None


def _oauth_error(error: str, description: str, status: int = 400) -> ApiError:
    return ApiError({"error": error, "error_description": description}, status=status)


@api.post(
    "/oauth/token",
    params=(
        Param("grant_type", STR, required=True),
        Param("username", STR),
        Param("password", STR),
        Param("refresh_token", STR),
        Param("scope", STR, default="api"),
    ),
    auth=PUBLIC,
    prefix="",
)
def oauth_token(ctx: Context) -> Any:
    """Issue an OAuth token (``password`` and ``refresh_token`` grants)."""
    p = ctx.params
    if p["grant_type"] == "password":
        user = find_by_username(ctx.store, p.get("username") or "")
        if (
            user is None
            or user.state in ("blocked", "blocked_pending_approval")
            or user.password_digest != hash_password(p.get("password") or "")
        ):
            raise _oauth_error(
                "invalid_grant",
                "The provided authorization grant is invalid, expired, revoked, does not match "
                "the redirection URI used in the authorization request, or was issued to another client.",
            )
        scopes = [s for s in p["scope"].split() if s]
    elif p["grant_type"] == "refresh_token":
        old = tokens(ctx.store).by("refresh", p.get("refresh_token") or "")
        if old is None or old.revoked:
            raise _oauth_error(
                "invalid_grant",
                "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
            )
        old.revoked = True
        user = users(ctx.store).rows[old.user_id]
        scopes = list(old.scopes)
    else:
        raise _oauth_error(
            "unsupported_grant_type",
            "The authorization grant type is not supported by the authorization server.",
        )
    unknown = [s for s in scopes if s not in SCOPES]
    if unknown:
        raise _oauth_error(
            "invalid_scope", "The requested scope is invalid, unknown, or malformed."
        )
    count = ctx.store.next_id("oauth_grants")
    token = issue_token(
        ctx.store,
        ctx.now,
        kind="oauth",
        user_id=user.id,
        name="oauth",
        scopes=scopes,
        expires_at_time=ctx.now + dt.timedelta(seconds=OAUTH_LIFETIME),
        refresh_token=f"refresh-{count:08d}-{user.id}",
    )
    return json_response(
        {
            "access_token": token.token,
            "token_type": "Bearer",
            "expires_in": OAUTH_LIFETIME,
            "refresh_token": token.refresh_token,
            "scope": " ".join(scopes),
            "created_at": int(ctx.now.timestamp()),
        },
        200,
    )


@api.post("/oauth/revoke", params=(Param("token", STR, required=True),), auth=PUBLIC, prefix="")
def oauth_revoke(ctx: Context) -> Any:
    """Revoke an OAuth token (always answers 200, as RFC 7009 asks)."""
    token = find_secret(ctx.store, ctx.params["token"])
    if token is not None and token.kind == "oauth":
        token.revoked = True
    return json_response({}, 200)
