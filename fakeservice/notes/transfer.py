"""Issues and merge requests (with their notes) as export relations: an item is the
record's fields with its labels by name, its milestone by title and its notes nested;
an import creates missing project labels and milestones by those names (the labels and
milestones relations then give them their colours and dates, whichever loads first).
User references stay user ids."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from fakeservice.core.store import Store, Table
from fakeservice.issues import models as issues
from fakeservice.labels import models as labels
from fakeservice.merge_requests import models as merge_requests
from fakeservice.milestones import models as milestones
from fakeservice.notes import models as notes
from fakeservice.projects.models import Project
from fakeservice.transfer.records import decode, encode
from fakeservice.transfer.relations import register_relation

NOTE_SKIP = ("id", "noteable_type", "noteable_id", "noteable_iid", "project_id")
ISSUABLE_SKIP = ("id", "project_id", "label_ids", "milestone_id", "user_notes_count")


def _dump_notes(store: Store, kind: str, record: Any) -> list[dict[str, Any]]:
    found = notes.of_noteable(store, kind, record.id, "created_at", False)
    return [encode(note, NOTE_SKIP) for note in found]


def _load_notes(store: Store, kind: str, record: Any, items: Any) -> None:
    if not isinstance(items, list):
        raise TypeError("notes must be a list")
    table = notes.notes(store)
    threads: dict[str, notes.Discussion] = {}
    for item in items:
        fields = decode(notes.Note, item, NOTE_SKIP)
        old = str(fields.get("discussion_id") or "")
        when = fields.get("created_at")
        if not isinstance(when, dt.datetime):
            raise TypeError("created_at is missing")
        if old not in threads or not old:
            threads[old] = notes.open_discussion(
                store, kind, record.id, when, individual=fields.get("type") is None
            )
        fields["discussion_id"] = threads[old].sha
        table.insert(
            notes.Note(
                id=store.next_id("notes"),
                noteable_type=kind,
                noteable_id=record.id,
                noteable_iid=record.iid,
                project_id=record.project_id,
                **fields,
            )
        )


def _milestone_id(store: Store, project: Project, title: Any, now: dt.datetime) -> int | None:
    if title is None:
        return None
    owners = labels.owners_of_project(store, project)
    found = milestones.by_title(store, owners, str(title))
    if found:
        return found[0].id
    return milestones.create(store, (labels.PROJECT, project.id), now, title=str(title)).id


def _issuable(
    kind: str, cls: type, table: Callable[[Store], Table[Any]], skip: tuple[str, ...]
) -> tuple[Callable[..., list[dict[str, Any]]], Callable[..., None]]:
    def dump(store: Store, project: Project) -> list[dict[str, Any]]:
        out = []
        for record in table(store).select("project_created_at", [project.id]):
            item = encode(record, skip)
            item["labels"] = [label.name for label in labels.sorted_names(store, record.label_ids)]
            milestone = milestones.milestones(store).get(record.milestone_id)
            item["milestone"] = milestone.title if milestone is not None else None
            item["notes"] = _dump_notes(store, kind, record)
            out.append(item)
        return out

    def load(store: Store, project: Project, item: dict[str, Any], now: dt.datetime) -> None:
        fields = decode(cls, item, skip)
        if issues.field_errors(fields.get("title"), fields.get("description")):
            raise ValueError("invalid title or description")
        names = item.get("labels") or []
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise TypeError("labels must be a list of names")
        if "source_project_id" in skip:
            fields["source_project_id"] = project.id
        store.bump_iid(table(store).name, project.id, fields["iid"])
        record = table(store).insert(
            cls(
                id=store.next_id(table(store).name),
                project_id=project.id,
                label_ids=labels.find_or_create(store, project, names, now),
                milestone_id=_milestone_id(store, project, item.get("milestone"), now),
                **fields,
            )
        )
        _load_notes(store, kind, record, item.get("notes") or [])
        count = notes.user_notes_count(store, kind, record.id)
        table(store).update(record, user_notes_count=count)

    return dump, load


def register() -> None:
    """Carry issues and merge requests (with their notes) in exports and imports."""
    register_relation("issues", *_issuable("Issue", issues.Issue, issues.issues, ISSUABLE_SKIP))
    mr_skip = (*ISSUABLE_SKIP, "source_project_id", "head_pipeline_id")
    register_relation(
        "merge_requests",
        *_issuable(
            "MergeRequest", merge_requests.MergeRequest, merge_requests.merge_requests, mr_skip
        ),
    )
