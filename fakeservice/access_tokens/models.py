"""Operations on access tokens: rotation (the old token revoked, a new secret with the same
name and scopes) and the bot user a project or group access token acts as."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from typing import Any

from fakeservice.core.errors import BadRequest, ValidationFailed
from fakeservice.core.store import Store
from fakeservice.members.models import NAMESPACE, PROJECT, add_member, find_member, members
from fakeservice.tokens.models import AccessToken, issue_token, tokens
from fakeservice.users.models import create_user

ROTATED_LIFETIME = dt.timedelta(days=7)  # a rotated token's expiry when none is asked for
RESOURCE_LIFETIME = dt.timedelta(days=365)  # a new resource token's when none is given
MEMBER_KIND = {"project": PROJECT, "group": NAMESPACE}


def install(store: Store) -> None:
    """Index project and group tokens by their resource, in id order."""
    tokens(store).add_sorted(
        "resource",
        lambda t: (t.kind, t.resource_id) if t.kind in MEMBER_KIND else None,
    )


def check_expiry(expires_at: dt.date | None, now: dt.datetime) -> None:
    """An expiry date must be in the future (400 with the model's message)."""
    if expires_at is not None and expires_at <= now.date():
        raise ValidationFailed({"expires_at": ["must be in the future"]})


def rotate(
    store: Store, now: dt.datetime, token: AccessToken, expires_at: dt.date | None
) -> AccessToken:
    """Revoke ``token`` and issue its successor (same owner, name, scopes, description and
    access level) expiring on ``expires_at`` or a week from today."""
    if token.revoked:
        raise BadRequest("token already revoked")
    check_expiry(expires_at, now)
    token.revoked = True
    return issue_token(
        store,
        now,
        kind=token.kind,
        user_id=token.user_id,
        name=token.name,
        scopes=list(token.scopes),
        expires_at=expires_at or (now + ROTATED_LIFETIME).date(),
        resource_id=token.resource_id,
        access_level=token.access_level,
        description=token.description,
    )


def bot_username(store: Store, kind: str, resource_id: int) -> str:
    """``project_<id>_bot_<32 hex>`` (or ``group_...``), the hex from a sequence."""
    number = store.next_id("bots")
    digest = hashlib.sha256(f"bot:{kind}:{resource_id}:{number}".encode()).hexdigest()[:32]
    return f"{kind}_{resource_id}_bot_{digest}"


def create_resource_token(
    store: Store,
    now: dt.datetime,
    *,
    kind: str,
    resource_id: int,
    name: str,
    scopes: list[str],
    access_level: int,
    expires_at: dt.date | None,
    description: str | None = None,
    secret: str | None = None,
) -> AccessToken:
    """A bot user, its membership of the project or group at ``access_level`` and its token."""
    username = bot_username(store, kind, resource_id)
    bot = create_user(
        store,
        now,
        username=username,
        name=name,
        email=f"{username}@noreply.example.com",
        user_type="project_bot",
    )
    add_member(
        store,
        now,
        kind=MEMBER_KIND[kind],
        source_id=resource_id,
        user_id=bot.id,
        access_level=access_level,
        expires_at=expires_at,
    )
    return issue_token(
        store,
        now,
        kind=kind,
        user_id=bot.id,
        name=name,
        scopes=scopes,
        token=secret,
        expires_at=expires_at,
        resource_id=resource_id,
        access_level=access_level,
        description=description,
    )


def forget_resource(kind: str) -> Callable[[Store, Any], None]:
    """A deletion listener revoking the tokens of a deleted project or group."""

    def forget(store: Store, resource: Any) -> None:
        for token in list(tokens(store).select("resource", [(kind, resource.id)])):
            revoke_resource_token(store, token)

    return forget


def revoke_resource_token(store: Store, token: AccessToken) -> None:
    """Revoke the token and take its bot's membership away."""
    token.revoked = True
    member = find_member(store, MEMBER_KIND[token.kind], token.resource_id or 0, token.user_id)
    if member is not None:
        members(store).delete(member)
