"""User records and the operations on them (create, modify, block, delete, statuses).

Every user owns a personal namespace (a :class:`~fakeservice.groups.models.Namespace`
of kind ``user``) so projects can live under ``<username>/<project>``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.sharing import EMPTY_MAP, NO_ITEMS, folded
from fakeservice.core.store import Store, Table, as_id
from fakeservice.core.validation import name_errors, too_long

USER_TYPES = ("human", "project_bot", "alert_bot", "support_bot", "ghost", "service_user")
INTERNAL_TYPES = frozenset({"alert_bot", "support_bot", "ghost"})
STATES = ("active", "blocked", "deactivated", "blocked_pending_approval")
RESERVED_USERNAMES = frozenset(
    {"api", "admin", "help", "users", "groups", "projects", "-", "root-"}
)
# Emitted with (store, user) just before a user is deleted; areas holding records of
# users listen (``setup.listen(USER_DELETED, hook)``, see fakeservice.areas).
USER_DELETED = "user.deleted"
MIN_PASSWORD_LENGTH = 8


@attrs.define(slots=True)
class UserStatus:
    emoji: str | None = None
    message: str | None = None
    availability: str = "not_set"
    clear_status_at: dt.datetime | None = None


# the status of users who never set one (shared; a new status replaces it whole)
NO_STATUS = UserStatus()


@attrs.define(slots=True)
class Identity:
    provider: str
    extern_uid: str
    saml_provider_id: int | None = None


@attrs.define(slots=True)
class User:
    id: int
    username: str
    name: str
    email: str
    created_at: dt.datetime
    updated_at: dt.datetime
    namespace_id: int = 0
    state: str = "active"
    admin: bool = False
    external: bool = False
    user_type: str = "human"
    password_digest: str | None = None
    password_expired: bool = False
    bio: str = ""
    location: str = ""
    public_email: str | None = None
    skype: str = ""
    linkedin: str = ""
    twitter: str = ""
    discord: str = ""
    website_url: str = ""
    organization: str = ""
    job_title: str = ""
    pronouns: str | None = None
    note: str | None = None
    projects_limit: int = 100000
    can_create_group: bool = True
    theme_id: int = 1
    color_scheme_id: int = 1
    private_profile: bool = False
    commit_email: str | None = None
    two_factor_enabled: bool = False
    confirmed_at: dt.datetime | None = None
    last_sign_in_at: dt.datetime | None = None
    current_sign_in_at: dt.datetime | None = None
    last_activity_on: dt.date | None = None
    sign_in_count: int = 0
    current_sign_in_ip: str | None = None
    last_sign_in_ip: str | None = None
    shared_runners_minutes_limit: int | None = None
    extra_shared_runners_minutes_limit: int | None = None
    view_diffs_file_by_file: bool = False
    # rarely set: shared empty defaults, replaced whole when written
    identities: Sequence[Identity] = NO_ITEMS
    custom_attributes: dict[str, str] = EMPTY_MAP
    status: UserStatus = NO_STATUS
    followers: int = 0
    following: int = 0
    secondary_emails: list[str] = attrs.field(factory=list)
    deleted: bool = False
    avatar_path: str | None = None  # under /uploads (fakeservice.avatars)

    @property
    def is_internal(self) -> bool:
        return self.user_type in INTERNAL_TYPES

    @property
    def is_bot(self) -> bool:
        return self.user_type != "human"

    @property
    def active(self) -> bool:
        return self.state == "active"


def users(store: Store) -> Table[User]:
    return store.tables["users"]


def install(store: Store) -> None:
    table = store.table("users")
    table.add_unique("username", lambda u: folded(u.username))
    table.add_unique("email", lambda u: folded(u.email))
    table.add_sorted("state", lambda u: u.state)
    table.add_sorted("admins", lambda u: True if u.admin else None)
    table.add_sorted("external", lambda u: True if u.external else None)
    table.add_sorted("by_name", lambda u: "all", lambda u: (folded(u.name),))
    table.add_sorted("by_username", lambda u: "all", lambda u: (folded(u.username),))
    table.add_sorted("by_created_at", lambda u: "all", lambda u: (u.created_at,))
    table.add_sorted("by_updated_at", lambda u: "all", lambda u: (u.updated_at,))
    table.add_sorted(
        "extern_uid",
        lambda u: [(i.provider, i.extern_uid) for i in u.identities] or None,
        multi=True,
    )


def hash_password(password: str) -> str:
    return hashlib.sha256(("fakeservice:" + password).encode()).hexdigest()


def live_user(store: Store, user_id: int) -> User | None:
    """The user with this id, unless there is none or it is deleted."""
    user = users(store).get(user_id)
    return None if user is None or user.deleted else user


def find_by_username(store: Store, username: str) -> User | None:
    return users(store).by("username", username.lower())


def find_by_email(store: Store, email: str) -> User | None:
    return users(store).by("email", email.lower())


def find_by_id_or_username(store: Store, key: str | int) -> User | None:
    record_id = as_id(key)
    if record_id is not None:
        return users(store).get(record_id)
    return find_by_username(store, str(key))


USERNAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")


def username_errors(store: Store, username: str | None, *, exclude: int | None = None) -> list[str]:
    errors = []
    if (
        not username
        or not set(username) <= USERNAME_CHARS
        or username[0] in "-."
        or username.endswith((".", ".git", ".atom"))
    ):
        errors.append(
            "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."
        )
    errors.extend(too_long(username))
    if username and username.lower() in RESERVED_USERNAMES:
        errors.append(f"{username} is a reserved name")
    taken = find_by_username(store, username) if username else None
    from fakeservice.groups.models import find_namespace

    namespace = find_namespace(store, username) if username else None
    own_namespace = (
        namespace is not None
        and namespace.kind == "user"
        and exclude is not None
        and namespace.owner_id == exclude
    )
    if (taken is not None and taken.id != exclude) or (namespace is not None and not own_namespace):
        errors.append("has already been taken")
    return errors


def validate_user_fields(
    store: Store, fields: dict[str, Any], *, exclude: int | None = None
) -> dict[str, list[str]]:
    """Model validation for create/modify; returns ``{field: [messages]}``."""
    errors: dict[str, list[str]] = {}
    if "username" in fields:
        found = username_errors(store, fields["username"], exclude=exclude)
        if found:
            errors["username"] = found
    if "email" in fields:
        email = fields["email"] or ""
        if "@" not in email or email.startswith("@") or email.endswith("@"):
            errors.setdefault("email", []).append("is invalid")
        else:
            other = find_by_email(store, email)
            if other is not None and other.id != exclude:
                errors.setdefault("email", []).append("has already been taken")
    found = name_errors(fields["name"]) if "name" in fields else []
    if found:
        errors.setdefault("name", []).extend(found)
    password = fields.get("password")
    if password is not None and len(password) < MIN_PASSWORD_LENGTH:
        errors.setdefault("password", []).append(
            f"is too short (minimum is {MIN_PASSWORD_LENGTH} characters)"
        )
    if "projects_limit" in fields and (fields["projects_limit"] or 0) < 0:
        errors.setdefault("projects_limit", []).append("must be greater than or equal to 0")
    return errors


# An external user cannot create groups or personal projects unless an administrator says so.
EXTERNAL_DEFAULTS = {"projects_limit": 0, "can_create_group": False}


def create_user(store: Store, now: dt.datetime, **fields: Any) -> User:
    """Validate and create a user and its personal namespace."""
    from fakeservice.groups.models import create_user_namespace

    errors = validate_user_fields(store, fields)
    if errors:
        raise ValidationFailed(errors)
    if fields.get("external"):
        fields = {**EXTERNAL_DEFAULTS, **fields}
    password = fields.pop("password", None)
    skip_confirmation = fields.pop("skip_confirmation", True)
    user = User(
        id=store.next_id("users"),
        created_at=now,
        updated_at=now,
        confirmed_at=now if skip_confirmation else None,
        password_digest=hash_password(password) if password else None,
        **fields,
    )
    users(store).insert(user)
    namespace = create_user_namespace(store, user, now)
    user.namespace_id = namespace.id
    return user


def modify_user(store: Store, user: User, now: dt.datetime, **fields: Any) -> User:
    from fakeservice.groups.models import namespaces, rename_user_namespace
    from fakeservice.projects.models import refresh_paths

    password = fields.pop("password", None)
    if password is not None:
        fields["password_digest"] = hash_password(password)
        fields["password_expired"] = True
    if fields.get("external") and not user.external:
        fields = {**EXTERNAL_DEFAULTS, **fields}
    old_username = user.username
    users(store).update(user, updated_at=now, **fields)
    if user.username != old_username or "name" in fields:
        rename_user_namespace(store, user)
        namespace = namespaces(store).get(user.namespace_id)
        if namespace is not None:
            refresh_paths(store, namespace)
    return user
