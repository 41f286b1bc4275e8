"""Deploy token records: a secret with a username (``gitlab+deploy-token-<id>`` unless
chosen) and scopes, owned by a project or a group, revocable and expiring on the clock.

A group's token reaches every project under the group; ``read_repository`` lets git clone
over HTTP with the username and the token (see :func:`git_scopes`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Store, Table
from fakeservice.groups.models import self_and_ancestor_ids
from fakeservice.projects.models import Project, namespace_of

SCOPES = (
    "read_repository",
    "read_registry",
    "write_registry",
    "read_package_registry",
    "write_package_registry",
    "read_virtual_registry",
    "write_virtual_registry",
)
PROJECT = "project"
GROUP = "group"
USERNAME_RE = re.compile(r"^[a-zA-Z0-9_.+-]+$")
USERNAME_MESSAGE = "can contain only letters, digits, '_', '-', '+', and '.'"


@attrs.define(slots=True)
class DeployToken:
    id: int
    owner_kind: str  # "project" or "group"
    owner_id: int
    name: str
    username: str
    token: str
    scopes: list[str]
    created_at: dt.datetime
    expires_at: dt.datetime | None = None
    revoked: bool = False

    def expired(self, now: dt.datetime) -> bool:
        return self.expires_at is not None and now >= self.expires_at

    def active(self, now: dt.datetime) -> bool:
        return not self.revoked and not self.expired(now)


def deploy_tokens(store: Store) -> Table[DeployToken]:
    return store.tables["deploy_tokens"]


def install(store: Store) -> None:
    table = store.table("deploy_tokens")
    table.add_unique("secret", lambda t: t.token)
    table.add_sorted("owner", lambda t: (t.owner_kind, t.owner_id))


def create_deploy_token(
    store: Store,
    now: dt.datetime,
    *,
    owner_kind: str,
    owner_id: int,
    name: str,
    scopes: list[str],
    username: str | None = None,
    expires_at: dt.datetime | None = None,
    secret: str | None = None,
) -> DeployToken:
    """Validate, then create (400 with the model's messages)."""
    errors: dict[str, list[str]] = {}
    if not scopes:
        errors["scopes"] = ["can't be blank"]
    if username is not None and not USERNAME_RE.match(username):
        errors["username"] = [USERNAME_MESSAGE]
    if errors:
        raise ValidationFailed(errors)
    number = store.next_id("deploy_tokens")
    digest = hashlib.sha256(f"deploy:{number}:{name}".encode()).hexdigest()[:20]
    token = DeployToken(
        id=number,
        owner_kind=owner_kind,
        owner_id=owner_id,
        name=name,
        username=username or f"gitlab+deploy-token-{number}",
        token=secret or f"gldt-{digest}",
        scopes=list(scopes),
        created_at=now,
        expires_at=expires_at,
    )
    deploy_tokens(store).insert(token)
    return token


def forget_owner(kind: str) -> Callable[[Store, Any], None]:
    """A deletion listener removing the deploy tokens of a deleted project or group."""

    def forget(store: Store, owner: Any) -> None:
        table = deploy_tokens(store)
        for token in list(table.select("owner", [(kind, owner.id)])):
            table.delete(token)

    return forget


def git_scopes(
    store: Store, username: str, secret: str, now: dt.datetime
) -> Callable[[Project], frozenset[str]] | None:
    """For the git endpoints: the scopes an active deploy token with this username grants,
    per project (a function of the project), or None when the credentials are not one."""
    token = deploy_tokens(store).by("secret", secret) if secret else None
    if token is None or token.username != username or not token.active(now):
        return None

    def scopes_for(project: Project) -> frozenset[str]:
        if token.owner_kind == PROJECT:
            reached = token.owner_id == project.id
        else:
            reached = token.owner_id in self_and_ancestor_ids(store, namespace_of(store, project))
        return frozenset(token.scopes) if reached else frozenset()

    return scopes_for
