"""Runner records and the operations on them.

A runner is an instance runner (every project), a group runner (the projects under its
group) or a project runner (the projects it is assigned to; the first is its owner).
Authentication tokens are made from the store's sequence (``glrt-`` for runners created
by a user, plain hex for runners registered with a registration token). Status comes
from ``contacted_at`` on the service clock: online within two hours of the last contact,
stale after three months without one (or never contacted three months after creation),
``never_contacted`` before the first contact, offline otherwise.

Indexes: ``token`` (unique), ``by_type`` (``/runners/all?type=``), ``by_group`` (group
runners by group), ``by_project`` (project runners by each project they are assigned
to), and on jobs ``by_runner`` (``GET /runners/:id/jobs``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from fakeservice.ci.models import jobs
from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Store, Table

INSTANCE = "instance_type"
GROUP = "group_type"
PROJECT = "project_type"
RUNNER_TYPES = (INSTANCE, GROUP, PROJECT)
ACCESS_LEVELS = ("not_protected", "ref_protected")
STATUSES = ("online", "offline", "stale", "never_contacted")
ONLINE_WINDOW = dt.timedelta(hours=2)
STALE_AFTER = dt.timedelta(days=90)
MIN_TIMEOUT = 600
NOTE_LIMIT = 1024
INFO_FIELDS = ("name", "version", "revision", "platform", "architecture")
# the editable fields and their record attributes (``paused`` is ``not active``)
EDITABLE = (
    "description",
    "active",
    "tag_list",
    "run_untagged",
    "locked",
    "access_level",
    "maximum_timeout",
    "maintenance_note",
)


@attrs.define(slots=True)
class Runner:
    id: int
    runner_type: str
    token: str
    created_at: dt.datetime
    description: str = ""
    active: bool = True
    locked: bool = False
    run_untagged: bool = True
    tag_list: tuple[str, ...] = ()
    access_level: str = "not_protected"
    maximum_timeout: int | None = None
    maintenance_note: str | None = None
    group_id: int | None = None
    project_ids: tuple[int, ...] = ()  # project runners: the owner first
    contacted_at: dt.datetime | None = None
    name: str | None = None
    version: str | None = None
    revision: str | None = None
    platform: str | None = None
    architecture: str | None = None
    ip_address: str | None = None
    creator_id: int | None = None

    def status(self, now: dt.datetime) -> str:
        if self.contacted_at is None:
            return "stale" if now - self.created_at > STALE_AFTER else "never_contacted"
        if now - self.contacted_at <= ONLINE_WINDOW:
            return "online"
        return "stale" if now - self.contacted_at > STALE_AFTER else "offline"


def runners(store: Store) -> Table[Runner]:
    return store.tables["runners"]


def install(store: Store) -> None:
    table = store.table("runners")
    table.add_unique("token", lambda r: r.token)
    table.add_sorted("by_type", lambda r: r.runner_type)
    table.add_sorted("by_group", lambda r: r.group_id)
    table.add_sorted("by_project", lambda r: r.project_ids or None, multi=True)
    if "ci_jobs" in store.tables:  # a service made without the CI area runs no jobs
        jobs(store).add_sorted("by_runner", lambda j: j.runner_id if j.is_build else None)


def new_token(store: Store, prefix: str = "") -> str:
    """A fresh authentication token (deterministic: from the store's sequence)."""
    number = store.next_id("runner_tokens")
    return prefix + hashlib.sha256(f"runner-token:{number}".encode()).hexdigest()[:20]


def rotate_token(store: Store, runner: Runner) -> Runner:
    """A new authentication token of the same kind (the old one stops working)."""
    prefix = "glrt-" if runner.token.startswith("glrt-") else ""
    return runners(store).update(runner, token=new_token(store, prefix))


def model_errors(fields: Mapping[str, Any]) -> dict[str, list[str]]:
    """The model's validation messages for a runner with ``fields``."""
    errors: dict[str, list[str]] = {}
    timeout = fields.get("maximum_timeout")
    if timeout is not None and timeout < MIN_TIMEOUT:
        errors["maximum_timeout"] = ["needs to be at least 10 minutes"]
    note = fields.get("maintenance_note")
    if note is not None and len(note) > NOTE_LIMIT:
        errors["maintenance_note"] = [f"is too long (maximum is {NOTE_LIMIT} characters)"]
    if not fields.get("run_untagged", True) and not fields.get("tag_list"):
        errors["tags_list"] = ["can not be empty when runner is not allowed to pick untagged jobs"]
    return errors


def clean_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """Tags trimmed, without blanks or repeats, in the order given."""
    return tuple(dict.fromkeys(tag.strip() for tag in tags if tag.strip()))


def create_runner(
    store: Store,
    now: dt.datetime,
    *,
    runner_type: str,
    token: str,
    group_id: int | None = None,
    project_ids: tuple[int, ...] = (),
    fields: Mapping[str, Any] | None = None,
    info: Mapping[str, Any] | None = None,
    contacted_at: dt.datetime | None = None,
    creator_id: int | None = None,
) -> Runner:
    """Validate (400 with the model's messages), then create."""
    values = dict(fields or {})
    if "tag_list" in values:
        values["tag_list"] = clean_tags(values["tag_list"])
    errors = model_errors(values)
    if errors:
        raise ValidationFailed(errors)
    runner = Runner(
        id=store.next_id("runners"),
        runner_type=runner_type,
        token=token,
        created_at=now,
        group_id=group_id,
        project_ids=project_ids,
        contacted_at=contacted_at,
        creator_id=creator_id,
        **{name: values[name] for name in EDITABLE if name in values},
        **{name: str(info[name]) for name in INFO_FIELDS if info and info.get(name)},
    )
    runners(store).insert(runner)
    return runner


def update_runner(store: Store, runner: Runner, changes: Mapping[str, Any]) -> Runner:
    """Validate the runner as it would be after ``changes``, then apply them."""
    values = dict(changes)
    if "tag_list" in values:
        values["tag_list"] = clean_tags(values["tag_list"])
    after = {name: getattr(runner, name) for name in EDITABLE} | values
    errors = model_errors(after)
    if errors:
        raise ValidationFailed(errors)
    return runners(store).update(runner, **values)


def assign(store: Store, runner: Runner, project_id: int) -> None:
    runners(store).update(runner, project_ids=(*runner.project_ids, project_id))


def unassign(store: Store, runner: Runner, project_id: int) -> None:
    kept = tuple(pid for pid in runner.project_ids if pid != project_id)
    runners(store).update(runner, project_ids=kept)


def forget_project(store: Store, project: Any) -> None:
    """A project went: it leaves its runners; a project runner left with none goes too."""
    table = runners(store)
    for runner in list(table.select("by_project", [project.id])):
        unassign(store, runner, project.id)
        if not runner.project_ids:
            table.delete(runner)


def forget_group(store: Store, group: Any) -> None:
    """A group went: its runners go with it."""
    table = runners(store)
    for runner in list(table.select("by_group", [group.id])):
        table.delete(runner)
