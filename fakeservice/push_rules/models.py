"""Push rule records: one per project or group (``source_kind``, ``source_id``), every
field of the service's API, validated as its model does (regular expressions must
compile, ``max_file_size`` is a whole number of MiB, 0 for no limit).

A group's rule is copied to each project created in the group afterwards, as the service
does; a project's own rule is what pushes to it are checked against.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Store, Table

PROJECT, GROUP = "project", "group"
REGEXES = (
    "commit_message_regex",
    "commit_message_negative_regex",
    "branch_name_regex",
    "author_email_regex",
    "file_name_regex",
)
FLAGS = (
    "deny_delete_tag",
    "member_check",
    "prevent_secrets",
    "commit_committer_check",
    "commit_committer_name_check",
    "reject_unsigned_commits",
    "reject_non_dco_commits",
)
FIELDS = (*FLAGS[:3], *REGEXES, "max_file_size", *FLAGS[3:])


@attrs.define(slots=True)
class PushRule:
    id: int
    source_kind: str
    source_id: int
    created_at: dt.datetime
    commit_message_regex: str | None = None
    commit_message_negative_regex: str | None = None
    branch_name_regex: str | None = None
    author_email_regex: str | None = None
    file_name_regex: str | None = None
    deny_delete_tag: bool = False
    member_check: bool = False
    prevent_secrets: bool = False
    max_file_size: int = 0
    commit_committer_check: bool = False
    commit_committer_name_check: bool = False
    reject_unsigned_commits: bool = False
    reject_non_dco_commits: bool = False


def push_rules(store: Store) -> Table[PushRule]:
    return store.tables["push_rules"]


def install(store: Store) -> None:
    store.table("push_rules").add_unique("source", lambda r: (r.source_kind, r.source_id))


def find(store: Store, kind: str, source_id: int) -> PushRule | None:
    return push_rules(store).by("source", (kind, source_id))


def compiled(pattern: str | None) -> re.Pattern[str] | None:
    return re.compile(pattern) if pattern else None


def errors_of(changes: dict[str, Any]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name in REGEXES:
        value = changes.get(name)
        if not value:
            continue
        try:
            re.compile(value)
        except re.error as error:
            found[name] = [f"not valid RE2 syntax: {error}"]
        if len(value) > 511:
            found.setdefault(name, []).append("is too long (maximum is 511 characters)")
    size = changes.get("max_file_size")
    if size is not None and size < 0:
        found["max_file_size"] = ["must be greater than or equal to 0"]
    return found


def create(
    store: Store, now: dt.datetime, kind: str, source_id: int, changes: dict[str, Any]
) -> PushRule:
    """Validate and insert a rule (400 with the model's messages)."""
    errors = errors_of(changes)
    if errors:
        raise ValidationFailed(errors)
    rule = PushRule(store.next_id("push_rules"), kind, source_id, now, **_clean(changes))
    return push_rules(store).insert(rule)


def update(store: Store, rule: PushRule, changes: dict[str, Any]) -> PushRule:
    errors = errors_of(changes)
    if errors:
        raise ValidationFailed(errors)
    return push_rules(store).update(rule, **_clean(changes))


def _clean(changes: dict[str, Any]) -> dict[str, Any]:
    out = {name: changes[name] for name in FIELDS if name in changes}
    if "max_file_size" in out and out["max_file_size"] is None:
        out["max_file_size"] = 0
    return out


def forget_project(store: Store, project: Any) -> None:
    """``PROJECT_DELETED``: the project's rule goes with it."""
    rule = find(store, PROJECT, project.id)
    if rule is not None:
        push_rules(store).delete(rule)


def forget_group(store: Store, group: Any) -> None:
    """``NAMESPACE_DELETED``: the group's rule goes with it."""
    rule = find(store, GROUP, group.id)
    if rule is not None:
        push_rules(store).delete(rule)


def inherit(ctx: Any, project: Any, params: Any) -> None:
    """``PROJECT_CREATED``: a project created in a group takes a copy of the nearest
    group rule."""
    from fakeservice.groups.models import namespaces, self_and_ancestor_ids

    ns = namespaces(ctx.store).rows[project.namespace_id]
    if not ns.is_group or find(ctx.store, PROJECT, project.id) is not None:
        return
    for group_id in self_and_ancestor_ids(ctx.store, ns):
        rule = find(ctx.store, GROUP, group_id)
        if rule is not None:
            values = {name: getattr(rule, name) for name in FIELDS}
            create(ctx.store, ctx.now, PROJECT, project.id, values)
            return
