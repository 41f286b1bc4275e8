"""Access token records (personal, project, group, impersonation, OAuth) and their checks.

Secrets are looked up through a unique index; expiry is judged on the service's clock.
"""

from __future__ import annotations

import datetime as dt
import hashlib

import attrs

from fakeservice.core.store import ALL, Store, Table

SCOPES = (
    "api",
    "read_api",
    "read_user",
    "read_repository",
    "write_repository",
    "read_registry",
    "write_registry",
    "sudo",
    "admin_mode",
    "create_runner",
    "ai_features",
    "k8s_proxy",
)
KINDS = ("personal", "project", "group", "impersonation", "oauth")


@attrs.define(slots=True)
class AccessToken:
    id: int
    kind: str
    user_id: int
    name: str
    token: str
    scopes: list[str]
    created_at: dt.datetime
    expires_at: dt.date | None = None  # personal/project/impersonation: a date
    expires_at_time: dt.datetime | None = None  # OAuth: an instant
    refresh_token: str | None = None
    revoked: bool = False
    last_used_at: dt.datetime | None = None
    description: str | None = None
    resource_id: int | None = None  # project/group for project and group tokens
    access_level: int | None = None

    def expired(self, now: dt.datetime) -> bool:
        if self.expires_at_time is not None:
            return now >= self.expires_at_time
        if self.expires_at is not None:
            return now.date() >= self.expires_at
        return False

    @property
    def impersonation(self) -> bool:
        return self.kind == "impersonation"

    def active(self, now: dt.datetime) -> bool:
        return not self.revoked and not self.expired(now)


def tokens(store: Store) -> Table[AccessToken]:
    return store.tables["tokens"]


def install(store: Store) -> None:
    table = store.table("tokens")
    table.add_unique("secret", lambda t: t.token)
    table.add_unique("refresh", lambda t: t.refresh_token)
    table.add_sorted("user", lambda t: t.user_id)
    # Every token but OAuth ones, by id: an administrator's GET /personal_access_tokens.
    table.add_sorted("listed", lambda t: None if t.kind == "oauth" else ALL)


def find_secret(store: Store, secret: str) -> AccessToken | None:
    return tokens(store).by("secret", secret)


def make_secret(store: Store, kind: str, seed: str) -> str:
    """A deterministic, unguessable-looking token derived from the sequence and a seed."""
    number = store.next_id("token_secrets")
    digest = hashlib.sha256(f"{kind}:{number}:{seed}".encode()).hexdigest()[:20]
    prefix = {
        "personal": "glpat-",
        "impersonation": "glpat-",
        "project": "glpat-",
        "group": "glpat-",
    }
    return prefix.get(kind, "") + digest


def issue_token(
    store: Store,
    now: dt.datetime,
    *,
    kind: str,
    user_id: int,
    name: str,
    scopes: list[str],
    token: str | None = None,
    expires_at: dt.date | None = None,
    expires_at_time: dt.datetime | None = None,
    resource_id: int | None = None,
    access_level: int | None = None,
    refresh_token: str | None = None,
    description: str | None = None,
) -> AccessToken:
    record = AccessToken(
        id=store.next_id("tokens"),
        kind=kind,
        user_id=user_id,
        name=name,
        token=token or make_secret(store, kind, f"{user_id}:{name}"),
        scopes=list(scopes),
        created_at=now,
        expires_at=expires_at,
        expires_at_time=expires_at_time,
        resource_id=resource_id,
        access_level=access_level,
        refresh_token=refresh_token,
        description=description,
    )
    tokens(store).insert(record)
    return record
