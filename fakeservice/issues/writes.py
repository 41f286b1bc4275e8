"""Turning the write parameters issues and merge requests share (labels, add/remove
labels, assignees, milestone) into attribute changes, validated before anything is saved.

Label names that do not exist yet are created as project labels when the write is applied
(as the real service does); unknown assignees and milestones outside the project's
hierarchy are dropped.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Store
from fakeservice.labels import models as labels
from fakeservice.members.access import can_read_project
from fakeservice.milestones import models as milestones
from fakeservice.projects.models import Project
from fakeservice.users.models import users
from fakeservice.web.params import INT, STR, Array, Param

LABEL_PARAMS = (
    Param("labels", Array(STR, scalar=True, comma=True)),
    Param("add_labels", Array(STR, scalar=True, comma=True)),
    Param("remove_labels", Array(STR, scalar=True, comma=True)),
)
PEOPLE_PARAMS = (
    Param("assignee_id", INT),
    Param("assignee_ids", Array(INT, scalar=True, comma=True)),
    Param("milestone_id", INT),
)


def _label_names(value: Any) -> list[str]:
    return [str(name).strip() for name in (value or []) if str(name).strip()]


def check_labels(params: dict[str, Any]) -> None:
    names = [
        *_label_names(params.get("labels")),
        *_label_names(params.get("add_labels")),
    ]
    if any(len(name) > 255 for name in names):
        raise ValidationFailed({"labels": ["is invalid"]})


def label_ids(
    store: Store, project: Project, params: dict[str, Any], current: list[int], now: dt.datetime
) -> list[int] | None:
    """The new label ids, or None when no label parameter was given."""
    if not any(name in params for name in ("labels", "add_labels", "remove_labels")):
        return None
    ids = list(current)
    if "labels" in params:
        ids = labels.find_or_create(store, project, _label_names(params["labels"]), now)
    if params.get("add_labels"):
        for label_id in labels.find_or_create(
            store, project, _label_names(params["add_labels"]), now
        ):
            if label_id not in ids:
                ids.append(label_id)
    if params.get("remove_labels"):
        owners = labels.owners_of_project(store, project)
        for name in _label_names(params["remove_labels"]):
            label = labels.find_by_name(store, owners, name)
            if label is not None and label.id in ids:
                ids.remove(label.id)
    return ids


def people_ids(store: Store, project: Project, ids: list[int], now: dt.datetime) -> list[int]:
    """Users of ``ids`` who exist and may see the project, in order, once each."""
    table = users(store)
    out: list[int] = []
    for user_id in ids:
        user = table.get(user_id)
        if user is None or user_id in out or user_id == 0:
            continue
        if can_read_project(store, user, project, now):
            out.append(user_id)
    return out


def assignee_ids(
    store: Store, project: Project, params: dict[str, Any], now: dt.datetime
) -> list[int] | None:
    """The new assignees (``assignee_ids`` wins over ``assignee_id``), None when not given."""
    if "assignee_ids" in params:
        return people_ids(store, project, params["assignee_ids"] or [], now)
    if "assignee_id" in params:
        given = params["assignee_id"]
        return people_ids(store, project, [given] if given else [], now)
    return None


def milestone_id(store: Store, project: Project, params: dict[str, Any]) -> int | bool | None:
    """The new milestone id (None clears it); False when not given."""
    if "milestone_id" not in params:
        return False
    given = params["milestone_id"]
    owners = milestones.owners_of_project(store, project)
    found = milestones.visible(store, owners, given) if given else None
    return found.id if found is not None else None


def shared_changes(
    store: Store,
    project: Project,
    params: dict[str, Any],
    now: dt.datetime,
    current_labels: list[int],
) -> dict[str, Any]:
    """Attribute changes of the shared write parameters (labels are created here)."""
    changes: dict[str, Any] = {}
    check_labels(params)
    found_assignees = assignee_ids(store, project, params, now)
    if found_assignees is not None:
        changes["assignee_ids"] = found_assignees
    found_milestone = milestone_id(store, project, params)
    if found_milestone is not False:
        changes["milestone_id"] = found_milestone
    found_labels = label_ids(store, project, params, current_labels, now)
    if found_labels is not None:
        changes["label_ids"] = found_labels
    return changes
