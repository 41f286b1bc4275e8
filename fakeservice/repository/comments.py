"""Commit comments: notes on a commit, optionally on a line of a file (``path``, ``line``,
``line_type`` ``new`` or ``old``), kept per project and commit, oldest first."""

from __future__ import annotations

import datetime as dt

import attrs

from fakeservice.core.store import Selection, Store, Table
from fakeservice.projects.models import Project


@attrs.define(slots=True)
class CommitComment:
    id: int
    project_id: int
    sha: str
    note: str
    author_id: int
    created_at: dt.datetime
    path: str | None = None
    line: int | None = None
    line_type: str | None = None


def comments(store: Store) -> Table[CommitComment]:
    return store.tables["commit_comments"]


def install(store: Store) -> None:
    table = store.table("commit_comments")
    table.add_sorted("commit", lambda c: (c.project_id, c.sha))
    table.add_sorted("project", lambda c: c.project_id)


def of_commit(store: Store, project_id: int, sha: str) -> Selection[CommitComment]:
    return comments(store).select("commit", [(project_id, sha)])


def add(store: Store, **fields: object) -> CommitComment:
    comment = CommitComment(id=store.next_id("commit_comments"), **fields)  # type: ignore[arg-type]
    return comments(store).insert(comment)


def forget_project(store: Store, project: Project) -> None:
    table = comments(store)
    for comment in list(table.select("project", [project.id])):
        table.delete(comment)
