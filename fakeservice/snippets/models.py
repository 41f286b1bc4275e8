"""Snippet records, their git repositories and the operations on them.

Every snippet owns a real :class:`~fakeservice.repository.git.Repository` (kept in
``store.extras["snippet_repositories"]`` so snapshots carry it): creating a snippet
commits its files on ``main``, and each update with ``files[]`` actions (create, update,
delete, move) is one more commit, so ``files/:ref/:file_path/raw`` reads any ref.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Selection, Store, Table
from fakeservice.repository.git import Action, Repository
from fakeservice.repository.models import commit_email
from fakeservice.users.models import User

VISIBILITIES = ("private", "internal", "public")
BRANCH = "main"
_KEY = "snippet_repositories"


@attrs.define(slots=True)
class Snippet:
    id: int
    project_id: int | None
    author_id: int
    title: str
    description: str | None
    visibility: str
    created_at: dt.datetime
    updated_at: dt.datetime
    user_agent: str = ""
    ip_address: str = ""
    user_notes_count: int = 0
    iid: None = None  # snippets have no iid (notes show ``noteable_iid: null``)


def snippets(store: Store) -> Table[Snippet]:
    return store.tables["snippets"]


def install(store: Store) -> None:
    table = store.table("snippets")
    table.add_sorted("project", lambda r: r.project_id if r.project_id is not None else None)
    table.add_sorted("personal", lambda r: r.author_id if r.project_id is None else None)
    table.add_sorted(
        "public_personal",
        lambda r: "public" if r.project_id is None and r.visibility == "public" else None,
    )


def of_project(store: Store, project_id: int) -> Selection[Snippet]:
    """A project's snippets, newest first."""
    return snippets(store).select("project", [project_id], reverse=True)


def personal_of(store: Store, user_id: int) -> Selection[Snippet]:
    return snippets(store).select("personal", [user_id], reverse=True)


def repository(store: Store, snippet: Snippet) -> Repository:
    return store.extras.setdefault(_KEY, {})[snippet.id]


def files(store: Store, snippet: Snippet) -> list[str]:
    """The snippet's file paths at the head of its repository, in tree order."""
    repo = repository(store, snippet)
    if repo.is_empty:
        return []
    return [entry.path for entry in repo.tree(BRANCH, recursive=True) if entry.type == "blob"]


def field_errors(title: Any, visibility: Any) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    if not isinstance(title, str) or not title.strip():
        errors["title"] = ["can't be blank"]
    elif len(title) > 255:
        errors["title"] = ["is too long (maximum is 255 characters)"]
    if visibility is not None and visibility not in VISIBILITIES:
        errors["visibility_level"] = ["is not included in the list"]
    return errors


def _commit(
    repo: Repository, actions: Sequence[Action], user: User, now: dt.datetime, message: str
) -> None:
    repo.commit(
        BRANCH,
        actions,
        message=message,
        author_name=user.name,
        author_email=commit_email(user),
        when=now,
    )


def create(
    store: Store,
    user: User,
    now: dt.datetime,
    *,
    project_id: int | None,
    title: str,
    description: str | None,
    visibility: str,
    actions: Sequence[Action],
    user_agent: str = "",
    ip_address: str = "",
) -> Snippet:
    """A snippet with its files committed (the repository is checked before saving)."""
    errors = field_errors(title, visibility)
    if not actions:
        errors["files"] = ["can't be blank"]
    if errors:
        raise ValidationFailed(errors)
    repo = Repository(BRANCH)
    _commit(repo, actions, user, now, "Initial commit")
    record = Snippet(
        id=store.next_id("snippets"),
        project_id=project_id,
        author_id=user.id,
        title=title,
        description=description,
        visibility=visibility,
        created_at=now,
        updated_at=now,
        user_agent=user_agent,
        ip_address=ip_address,
    )
    store.extras.setdefault(_KEY, {})[record.id] = repo
    return snippets(store).insert(record)


def update(
    store: Store,
    snippet: Snippet,
    user: User,
    now: dt.datetime,
    fields: dict[str, Any],
    actions: Sequence[Action],
) -> Snippet:
    """Change fields and commit ``actions`` (all or nothing; the commit is tried first)."""
    errors = field_errors(fields.get("title", snippet.title), fields.get("visibility"))
    if errors:
        raise ValidationFailed(errors)
    if actions:
        _commit(repository(store, snippet), actions, user, now, "Update snippet")
    changes = {k: v for k, v in fields.items() if k in ("title", "description", "visibility")}
    return snippets(store).update(snippet, updated_at=now, **changes)


def delete(store: Store, snippet: Snippet) -> None:
    store.extras.setdefault(_KEY, {}).pop(snippet.id, None)
    snippets(store).delete(snippet)
