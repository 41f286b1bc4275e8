"""Key and email records of users: SSH keys (fingerprints computed from the key, unique
across the instance), GPG keys and secondary emails (confirmed or not), with their checks."""

from __future__ import annotations

import datetime as dt
import re

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import ALL, Store, Table
from fakeservice.keys import ssh
from fakeservice.users.models import User, find_by_email

USAGE_TYPES = ("auth", "signing", "auth_and_signing")
MAX_KEY_LENGTH = 5000
GPG_RE = re.compile(
    r"\A\s*-----BEGIN PGP PUBLIC KEY BLOCK-----.+-----END PGP PUBLIC KEY BLOCK-----\s*\Z", re.S
)
EMAIL_RE = re.compile(r"\A[^@\s]+@[^@\s]+\.[^@\s]+\Z")


@attrs.define(slots=True)
class SSHKey:
    """A user's SSH key, or a deploy key (``user_id`` None; see :mod:`fakeservice.keys.deploy`)."""

    id: int
    user_id: int | None
    title: str
    key: str
    fingerprint: str
    fingerprint_sha256: str
    created_at: dt.datetime
    expires_at: dt.datetime | None = None
    usage_type: str = "auth_and_signing"
    last_used_at: dt.datetime | None = None


@attrs.define(slots=True)
class GPGKey:
    id: int
    user_id: int
    key: str
    created_at: dt.datetime


@attrs.define(slots=True)
class Email:
    id: int
    user_id: int
    email: str
    created_at: dt.datetime
    confirmed_at: dt.datetime | None = None


def ssh_keys(store: Store) -> Table[SSHKey]:
    return store.tables["ssh_keys"]


def gpg_keys(store: Store) -> Table[GPGKey]:
    return store.tables["gpg_keys"]


def emails(store: Store) -> Table[Email]:
    return store.tables["emails"]


def install(store: Store) -> None:
    for name in ("ssh_keys", "gpg_keys", "emails"):
        store.table(name).add_sorted("user", lambda r: r.user_id)
    store.tables["ssh_keys"].add_unique("fingerprint", lambda k: k.fingerprint_sha256)
    store.tables["ssh_keys"].add_unique("md5", lambda k: k.fingerprint)
    store.tables["ssh_keys"].add_sorted("deploy", lambda k: ALL if k.user_id is None else None)
    store.tables["emails"].add_unique("email", lambda e: e.email.lower())


def forget_user(store: Store, user: User) -> None:
    """Delete a deleted user's SSH keys, GPG keys and emails (USER_DELETED listener)."""
    for table in (ssh_keys(store), gpg_keys(store), emails(store)):
        for record in list(table.select("user", [user.id])):
            table.delete(record)


def add_ssh_key(
    store: Store,
    now: dt.datetime,
    *,
    user_id: int | None,
    title: str | None,
    key: str | None,
    expires_at: dt.datetime | None = None,
    usage_type: str = "auth_and_signing",
) -> SSHKey:
    """Validate (the model's messages), then add."""
    errors: dict[str, list[str]] = {}
    title, key = title or "", key or ""
    if not title.strip():
        errors["title"] = ["can't be blank"]
    elif len(title) > 255:
        errors["title"] = ["is too long (maximum is 255 characters)"]
    parsed = ssh.parse(key) if len(key) <= MAX_KEY_LENGTH else None
    if parsed is None:
        errors["key"] = ["can't be blank"] if not key.strip() else ["is invalid"]
        errors["fingerprint_sha256"] = ["cannot be generated"]
    elif ssh_keys(store).by("fingerprint", parsed.fingerprint_sha256) is not None:
        errors["fingerprint_sha256"] = ["has already been taken"]
    if expires_at is not None and expires_at <= now:
        errors.setdefault("key", []).append("has expired")
    if errors or parsed is None:
        raise ValidationFailed(errors)
    record = SSHKey(
        id=store.next_id("ssh_keys"),
        user_id=user_id,
        title=title,
        key=" ".join(key.split()),
        fingerprint=parsed.fingerprint,
        fingerprint_sha256=parsed.fingerprint_sha256,
        created_at=now,
        expires_at=expires_at,
        usage_type=usage_type,
    )
    ssh_keys(store).insert(record)
    return record


def add_gpg_key(store: Store, now: dt.datetime, *, user_id: int, key: str | None) -> GPGKey:
    if not key or not GPG_RE.match(key):
        raise ValidationFailed({"key": ["is invalid"]})
    record = GPGKey(id=store.next_id("gpg_keys"), user_id=user_id, key=key, created_at=now)
    gpg_keys(store).insert(record)
    return record


def add_email(
    store: Store, now: dt.datetime, *, user_id: int, email: str | None, confirmed: bool
) -> Email:
    """A secondary email, confirmed now or waiting for confirmation; unique across the
    instance's primary and secondary emails."""
    if not email or not EMAIL_RE.match(email):
        raise ValidationFailed({"email": ["is invalid"]})
    if emails(store).by("email", email.lower()) is not None or find_by_email(store, email):
        raise ValidationFailed({"email": ["has already been taken"]})
    record = Email(
        id=store.next_id("emails"),
        user_id=user_id,
        email=email,
        created_at=now,
        confirmed_at=now if confirmed else None,
    )
    emails(store).insert(record)
    return record
