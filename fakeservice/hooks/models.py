"""Hook records (project, group and system hooks), their validation and which hooks an
event of a project reaches.

A hook's event switches live in ``events`` (name → bool); the switches a kind of hook
has are :data:`PROJECT_FLAGS`, :data:`GROUP_FLAGS` and :data:`SYSTEM_FLAGS`. ``token``,
custom header values and URL variable values are write-only: views show their keys only.
Group hooks reach the projects of the group and of its subgroups (paid plans only).
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import re
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urlsplit

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Store, Table
from fakeservice.groups.models import namespaces, self_and_ancestor_ids
from fakeservice.instance.models import has_paid_plan
from fakeservice.projects.models import Project

PROJECT, GROUP, SYSTEM = "project", "group", "system"
URL_LIMIT = 5000
NAME_LIMIT = 255
STRATEGIES = ("wildcard", "regex", "all_branches")

# Event switches, in the order the service shows them, with their defaults.
PROJECT_FLAGS: dict[str, bool] = {
    "push_events": True,
    "issues_events": False,
    "confidential_issues_events": False,
    "merge_requests_events": False,
    "tag_push_events": False,
    "note_events": False,
    "confidential_note_events": False,
    "job_events": False,
    "pipeline_events": False,
    "wiki_page_events": False,
    "deployment_events": False,
    "releases_events": False,
    "milestone_events": False,
    "feature_flag_events": False,
    "emoji_events": False,
    "resource_access_token_events": False,
    "resource_deploy_token_events": False,
}
GROUP_FLAGS: dict[str, bool] = {
    **PROJECT_FLAGS,
    "subgroup_events": False,
    "member_events": False,
    "project_events": False,
}
SYSTEM_FLAGS: dict[str, bool] = {
    "push_events": True,
    "tag_push_events": False,
    "merge_requests_events": False,
    "repository_update_events": True,
}
FLAGS = {PROJECT: PROJECT_FLAGS, GROUP: GROUP_FLAGS, SYSTEM: SYSTEM_FLAGS}

# After this many failures in a row a hook is disabled for a while (backing off from one
# minute to a day); after PERMANENT_FAILURES it stays disabled until edited.
FAILURE_THRESHOLD = 4
PERMANENT_FAILURES = 40
MAX_BACKOFF = dt.timedelta(days=1)


@attrs.define(slots=True)
class Hook:
    id: int
    kind: str  # "project", "group" or "system"
    owner_id: int  # the project's or group's id (0 for system hooks)
    url: str
    created_at: dt.datetime
    events: dict[str, bool] = attrs.field(factory=dict)
    name: str | None = None
    description: str | None = None
    token: str | None = None
    push_events_branch_filter: str | None = None
    branch_filter_strategy: str = "wildcard"
    enable_ssl_verification: bool = True
    custom_webhook_template: str | None = None
    custom_headers: dict[str, str] = attrs.field(factory=dict)
    url_variables: dict[str, str] = attrs.field(factory=dict)
    recent_failures: int = 0
    backoff_count: int = 0
    disabled_until: dt.datetime | None = None
    permanently_disabled: bool = False

    def alert_status(self, now: dt.datetime) -> str:
        if self.permanently_disabled:
            return "disabled"
        if self.disabled_until is not None and self.disabled_until > now:
            return "temporarily_disabled"
        return "executable"

    def executable(self, now: dt.datetime) -> bool:
        return self.alert_status(now) == "executable"


def hooks(store: Store) -> Table[Hook]:
    return store.tables["hooks"]


def install(store: Store) -> None:
    store.table("hooks").add_sorted("owner", lambda h: (h.kind, h.owner_id))


def of_owner(store: Store, kind: str, owner_id: int) -> Any:
    """The hooks of one project, group or the instance, oldest first (a selection)."""
    return hooks(store).select("owner", [(kind, owner_id)])


_VARIABLE = re.compile(r"\{([A-Za-z0-9_]+)\}")


def interpolated(hook: Hook) -> str:
    """The hook's URL with its URL variables filled in."""
    return _VARIABLE.sub(lambda m: hook.url_variables.get(m.group(1), m.group(0)), hook.url)


def url_errors(url: str, variables: Mapping[str, str]) -> list[str]:
    """The service's messages for a hook URL (localhost is allowed: tests serve hooks)."""
    text = url.strip()
    if not text:
        return ["can't be blank", "is blocked: Only allowed schemes are http, https"]
    if len(url) > URL_LIMIT:
        return [f"is too long (maximum is {URL_LIMIT} characters)"]
    filled = _VARIABLE.sub(lambda m: variables.get(m.group(1), "x"), text)
    try:
        parts = urlsplit(filled)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        return ["is blocked: URI is invalid"]
    if parts.scheme.lower() not in ("http", "https"):
        return ["is blocked: Only allowed schemes are http, https"]
    if not parts.hostname or any(c.isspace() for c in filled):
        return ["is blocked: URI is invalid"]
    return []


def _check(fields: Mapping[str, Any], hook: Hook | None) -> None:
    errors: dict[str, list[str]] = {}
    url = fields.get("url", hook.url if hook else "")
    variables = fields.get("url_variables", hook.url_variables if hook else {})
    found = url_errors(str(url or ""), variables)
    if found:
        errors["url"] = found
    strategy = fields.get("branch_filter_strategy")
    branch_filter = fields.get("push_events_branch_filter")
    if strategy == "regex" and branch_filter:
        try:
            re.compile(branch_filter)
        except re.error:
            errors["push_events_branch_filter"] = ["not valid RE2 syntax"]
    name = fields.get("name")
    if isinstance(name, str) and len(name) > NAME_LIMIT:
        errors["name"] = [f"is too long (maximum is {NAME_LIMIT} characters)"]
    if errors:
        raise ValidationFailed(errors)


def _apply(hook: Hook, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The attribute changes ``fields`` make to ``hook`` (switches merged into ``events``)."""
    flags = FLAGS[hook.kind]
    changes: dict[str, Any] = {}
    events = dict(hook.events)
    for name, value in fields.items():
        if name in flags:
            events[name] = bool(value)
        elif name == "url":
            changes["url"] = str(value).strip()
        elif name in ("custom_headers", "url_variables"):
            changes[name] = dict(value)
        elif name in attrs.fields_dict(Hook) and name not in ("id", "kind", "owner_id"):
            changes[name] = value
    if events != hook.events:
        changes["events"] = events
    if ("url" in changes and changes["url"] != hook.url) or "token" in changes:
        # a new address or secret makes a disabled hook executable again
        changes.update(recent_failures=0, backoff_count=0, disabled_until=None)
        changes["permanently_disabled"] = False
    return changes


def add_hook(
    store: Store, kind: str, owner_id: int, now: dt.datetime, fields: Mapping[str, Any]
) -> Hook:
    _check(fields, None)
    hook = Hook(
        id=store.next_id("hooks"),
        kind=kind,
        owner_id=owner_id,
        url="",
        created_at=now,
        events=dict(FLAGS[kind]),
    )
    for name, value in _apply(hook, fields).items():
        setattr(hook, name, value)
    return hooks(store).insert(hook)


def edit_hook(store: Store, hook: Hook, fields: Mapping[str, Any]) -> Hook:
    _check(fields, hook)
    changes = _apply(hook, fields)
    return hooks(store).update(hook, **changes) if changes else hook


def record_result(store: Store, hook: Hook, ok: bool, now: dt.datetime) -> None:
    """Count a delivery's outcome: a success makes the hook executable again; repeated
    failures disable it for a while, then for good."""
    if ok:
        if hook.recent_failures or hook.disabled_until is not None or hook.backoff_count:
            hooks(store).update(hook, recent_failures=0, backoff_count=0, disabled_until=None)
        return
    failures = hook.recent_failures + 1
    changes: dict[str, Any] = {"recent_failures": failures}
    if failures >= PERMANENT_FAILURES:
        changes["permanently_disabled"] = True
    elif failures >= FAILURE_THRESHOLD:
        backoff = min(dt.timedelta(minutes=1) * 2**hook.backoff_count, MAX_BACKOFF)
        changes.update(backoff_count=hook.backoff_count + 1, disabled_until=now + backoff)
    hooks(store).update(hook, **changes)


def branch_matches(hook: Hook, branch: str | None) -> bool:
    """Whether a push to ``branch`` passes the hook's branch filter."""
    pattern = hook.push_events_branch_filter
    if branch is None or hook.branch_filter_strategy == "all_branches" or not pattern:
        return True
    if hook.branch_filter_strategy == "regex":
        try:
            return re.search(pattern, branch) is not None
        except re.error:
            return False
    return fnmatch.fnmatchcase(branch, pattern.replace("[", "[[]"))


def project_hooks(store: Store, project: Project) -> Iterator[Hook]:
    """The hooks an event of ``project`` reaches: its own, then its groups' (paid plans)."""
    yield from of_owner(store, PROJECT, project.id)
    ns = namespaces(store).rows.get(project.namespace_id)
    if ns is not None and ns.is_group and has_paid_plan(store):
        for group_id in self_and_ancestor_ids(store, ns):
            yield from of_owner(store, GROUP, group_id)
