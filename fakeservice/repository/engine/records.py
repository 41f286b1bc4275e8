"""The value records the engine hands out (commits, branches, tags, files, diffs...)."""

from __future__ import annotations

import datetime as dt

import attrs

from fakeservice.repository.engine.constants import HEADS, TAGS, ZERO_SHA
from fakeservice.repository.engine.text import commit_title


@attrs.define(slots=True, frozen=True)
class Action:
    """One file change of a commit (an ``actions[]`` item of the commits API).

    ``content`` is raw bytes (the caller decodes ``encoding``). For ``move``, a ``None``
    content keeps the moved file's content. ``execute_filemode`` applies to ``create``,
    ``update`` and ``chmod`` (``None`` keeps the current mode).
    """

    action: str
    file_path: str
    content: bytes | None = None
    previous_path: str | None = None
    execute_filemode: bool | None = None
    last_commit_id: str | None = None


@attrs.define(slots=True, frozen=True)
class CommitInfo:
    """A parsed commit, in the units the API shows."""

    id: str
    tree_id: str
    parent_ids: tuple[str, ...]
    message: str
    author_name: str
    author_email: str
    authored_date: dt.datetime
    committer_name: str
    committer_email: str
    committed_date: dt.datetime

    @property
    def short_id(self) -> str:
        return self.id[:8]

    @property
    def title(self) -> str:
        return commit_title(self.message)

    @property
    def created_at(self) -> dt.datetime:
        return self.committed_date


@attrs.define(slots=True, frozen=True)
class Branch:
    name: str
    commit_id: str


@attrs.define(slots=True, frozen=True)
class Tag:
    """A tag: ``target`` is what the ref points at (the tag object for an annotated tag),
    ``commit_id`` the commit it peels to; tagger fields are ``None`` for a lightweight tag."""

    name: str
    target: str
    commit_id: str
    message: str | None = None
    tagger_name: str | None = None
    tagger_email: str | None = None
    created_at: dt.datetime | None = None


@attrs.define(slots=True, frozen=True)
class FileInfo:
    """The repository file resource (``GET /repository/files/:file_path``)."""

    file_name: str
    file_path: str
    size: int
    encoding: str
    content: str
    content_sha256: str
    ref: str
    blob_id: str
    commit_id: str
    last_commit_id: str
    execute_filemode: bool


@attrs.define(slots=True, frozen=True)
class TreeEntry:
    id: str
    name: str
    type: str
    path: str
    mode: str


@attrs.define(slots=True, frozen=True)
class BlameRange:
    commit: CommitInfo
    lines: tuple[str, ...]


@attrs.define(slots=True, frozen=True)
class DiffEntry:
    """One changed path between two trees; ``diff`` is the unified diff body (hunks only)."""

    old_path: str
    new_path: str
    a_mode: str
    b_mode: str
    new_file: bool
    renamed_file: bool
    deleted_file: bool
    diff: str


@attrs.define(slots=True, frozen=True)
class CommitStats:
    additions: int
    deletions: int

    @property
    def total(self) -> int:
        return self.additions + self.deletions


@attrs.define(slots=True, frozen=True)
class RefUpdate:
    """A ref moved from ``old`` to ``new`` (:data:`ZERO_SHA` for created/deleted refs)."""

    ref: str
    old: str
    new: str

    @property
    def created(self) -> bool:
        return self.old == ZERO_SHA

    @property
    def deleted(self) -> bool:
        return self.new == ZERO_SHA

    @property
    def branch(self) -> str | None:
        prefix = HEADS.decode()
        return self.ref[len(prefix) :] if self.ref.startswith(prefix) else None

    @property
    def tag(self) -> str | None:
        prefix = TAGS.decode()
        return self.ref[len(prefix) :] if self.ref.startswith(prefix) else None
