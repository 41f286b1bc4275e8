"""What the collaboration areas do when a project goes: drop its issues, merge requests
(with their approval rules), notes, award emoji, labels, milestones and snippets (with
their repositories). Listens to ``PROJECT_DELETED`` from the notes area, which sees every noteable."""

from __future__ import annotations

from typing import Any

from fakeservice.approvals import models as approvals
from fakeservice.core.store import Store, Table
from fakeservice.issues import models as issues
from fakeservice.labels import models as labels
from fakeservice.merge_requests import models as merge_requests
from fakeservice.milestones import models as milestones
from fakeservice.notes import awards
from fakeservice.notes import models as notes
from fakeservice.projects.models import Project
from fakeservice.snippets import models as snippets


def _drop(table: Table[Any], records: list[Any]) -> None:
    for record in records:
        table.delete(record)


def _drop_notes(store: Store, kind: str, records: list[Any]) -> None:
    """Drop the records' notes and the award emoji on both."""
    for record in records:
        found = list(notes.of_noteable(store, kind, record.id, "created_at", False))
        for note in found:
            awards.forget(store, "Note", note.id)
            notes.delete(store, note)
        awards.forget(store, kind, record.id)


def forget_collaboration(store: Store, project: Project) -> None:
    found_issues = list(issues.issues(store).select("project_created_at", [project.id]))
    found_mrs = list(
        merge_requests.merge_requests(store).select("project_created_at", [project.id])
    )
    found_snippets = list(snippets.of_project(store, project.id))
    _drop_notes(store, "Issue", found_issues)
    _drop_notes(store, "MergeRequest", found_mrs)
    _drop_notes(store, "Snippet", found_snippets)
    for note in notes.on_commits(store, project.id):
        notes.delete(store, note)
    _drop(issues.issues(store), found_issues)
    _drop(merge_requests.merge_requests(store), found_mrs)
    for snippet in found_snippets:
        snippets.delete(store, snippet)
    _drop(approvals.rules(store), list(approvals.rules(store).select("project", [project.id])))
    owner = (labels.PROJECT, project.id)
    _drop(labels.labels(store), list(labels.of_owners(store, [owner])))
    _drop(milestones.milestones(store), list(milestones.of_owners(store, [owner])))
