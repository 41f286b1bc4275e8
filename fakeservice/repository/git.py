"""The in-memory git repository engine: real git objects, refs, file commits and reads.

A :class:`Repository` keeps every object as git would (blob, tree, commit and tag ids are
the SHA-1s git computes), so ids shown by the API match a real clone. Objects live in an
object table of raw bytes by id (:class:`~fakeservice.repository.engine.table.ObjectTable`)
wrapped as a dulwich object store (see :class:`ObjectStore`), which pickles fast and lets
the smart HTTP module serve clones and pushes from the very same objects. A large tree
is kept as chunks shared between its versions (:mod:`~fakeservice.repository.engine.chunks`),
so a file commit costs the changed paths' depth, not their directories' width. Parsed
small trees, commits and path histories are cached by object id; objects never change,
so the caches never need invalidating and are left out of snapshots.

This module is the facade: :class:`Repository` is composed of the engine's modules
(:mod:`fakeservice.repository.engine`: object store, cached reads, refs, history, file
reads, blame, diffs, the tree editor and file commits), and every name other modules
import from here is re-exported.

Conventions and choices (the real service is silent or only described loosely):

* ``commit()`` applies file actions atomically: every action is checked against the
  state left by the actions before it, and nothing is stored unless all succeed.
* A commit whose tree equals its parent's tree fails with :data:`NO_CHANGES`
  (``You are attempting to update a file with identical content``).
* A path is normalised like the real service: leading and repeated ``/`` and ``.``
  segments are dropped; a ``..`` segment is refused; an empty result is refused. A path
  whose parent is a file counts as an existing file (:data:`FILE_EXISTS`).
* ``last_commit_id`` and path-filtered history use git's default history simplification:
  a commit is skipped when the path is unchanged against one of its parents, and the walk
  follows that parent. Blame follows the same line of history and, at a merge that
  changed the file against every parent, diffs against the first parent. Lines are
  matched with :mod:`difflib`; renames are not followed.
* Tree listings put trees first, then blobs, then submodules, each group in git's
  tree order (the order the real service's API uses).
* Commit history is newest first by committer date; equal dates keep discovery order
  (git's default ``log`` order).
* A repository with no branches is empty. The first branch it gets becomes the default
  branch when the configured default does not exist (as the real service does).
"""

from __future__ import annotations

from typing import Any

from dulwich.refs import DictRefsContainer

from fakeservice.repository.engine.blame import Blame
from fakeservice.repository.engine.constants import (
    ACTIONS,
    BRANCH_EXISTS,
    BRANCH_INVALID,
    DEFAULT_BRANCH_DELETE,
    DIR_EXISTS,
    EMPTY_PATH,
    EMPTY_TREE,
    FILE_EXISTS,
    FILE_MISSING,
    HEAD,
    HEADS,
    MODE_DIR,
    MODE_EXEC,
    MODE_FILE,
    MODE_LINK,
    MODE_SUBMODULE,
    NO_CHANGES,
    NOT_ON_BRANCH,
    NUL_IN_PATH,
    STALE_DELETE,
    STALE_UPDATE,
    SYMREF,
    TAG_INVALID,
    TAGS,
    TRAVERSAL,
    TYPE_BLOB,
    TYPE_COMMIT,
    TYPE_TAG,
    TYPE_TREE,
    ZERO_SHA,
    ActionKind,
    ApiFlavour,
    Entry,
    Path,
)
from fakeservice.repository.engine.diffs import Diffs, unified_diff
from fakeservice.repository.engine.objects import ObjectStore, blob_id
from fakeservice.repository.engine.paths import enc, normalize_path, valid_branch_name
from fakeservice.repository.engine.records import (
    Action,
    BlameRange,
    Branch,
    CommitInfo,
    CommitStats,
    DiffEntry,
    FileInfo,
    RefUpdate,
    Tag,
    TreeEntry,
)
from fakeservice.repository.engine.table import ObjectTable
from fakeservice.repository.engine.text import commit_title, split_lines
from fakeservice.repository.engine.writes import FileCommits

__all__ = [
    "ACTIONS",
    "BRANCH_EXISTS",
    "BRANCH_INVALID",
    "DEFAULT_BRANCH_DELETE",
    "DIR_EXISTS",
    "EMPTY_PATH",
    "EMPTY_TREE",
    "FILE_EXISTS",
    "FILE_MISSING",
    "HEAD",
    "HEADS",
    "MODE_DIR",
    "MODE_EXEC",
    "MODE_FILE",
    "MODE_LINK",
    "MODE_SUBMODULE",
    "NO_CHANGES",
    "NOT_ON_BRANCH",
    "NUL_IN_PATH",
    "STALE_DELETE",
    "STALE_UPDATE",
    "SYMREF",
    "TAGS",
    "TAG_INVALID",
    "TRAVERSAL",
    "TYPE_BLOB",
    "TYPE_COMMIT",
    "TYPE_TAG",
    "TYPE_TREE",
    "ZERO_SHA",
    "Action",
    "ActionKind",
    "ApiFlavour",
    "BlameRange",
    "Branch",
    "CommitInfo",
    "CommitStats",
    "DiffEntry",
    "Entry",
    "FileInfo",
    "ObjectStore",
    "Path",
    "RefUpdate",
    "Repository",
    "Tag",
    "TreeEntry",
    "blob_id",
    "commit_title",
    "normalize_path",
    "split_lines",
    "unified_diff",
    "valid_branch_name",
]


class Repository(FileCommits, Blame, Diffs):
    """One project's git repository, kept in memory. Picklable (objects, refs, HEAD).

    The public facade: refs, history, reads, blame, diffs and file commits come from the
    engine modules it is made of (:mod:`fakeservice.repository.engine`)."""

    def __init__(self, default_branch: str = "main") -> None:
        self._store = ObjectStore()
        self._refs: dict[bytes, bytes] = {}
        self._default_branch = default_branch
        self._refs[HEAD] = SYMREF + HEADS + enc(default_branch)
        self._init_caches()

    # -- persistence ---------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        """Objects, refs, default branch, and the commits' change trees (an index: kept so
        that a restored repository reads in time independent of its history)."""
        return {
            "objects": self._store.raw,
            "refs": self._refs,
            "default_branch": self._default_branch,
            "marks": self._marks,
        }

    def __eq__(self, other: object) -> bool:
        """Two repositories are equal when their objects, refs and default branch are."""
        if not isinstance(other, Repository):
            return NotImplemented
        return (self._store.raw, self._refs, self._default_branch) == (
            other._store.raw,
            other._refs,
            other._default_branch,
        )

    __hash__ = None  # type: ignore[assignment]

    def unchanged_from(self, pristine: object) -> bool:
        """Whether nothing was written since this repository was copied from ``pristine``:
        objects are only ever added, so equal refs and object counts (and the same newest
        object) mean equal repositories, without comparing every object."""
        if not isinstance(pristine, Repository):
            return False
        mine, theirs = self._store.raw, pristine._store.raw
        if len(mine) != len(theirs) or self._refs != pristine._refs:
            return False
        if self._default_branch != pristine._default_branch:
            return False
        return not mine or next(reversed(mine)) == next(reversed(theirs))

    def __deepcopy__(self, memo: dict[int, Any]) -> Repository:
        """A fork: its own object and ref tables (objects are immutable bytes, shared)."""
        fork = Repository.__new__(Repository)
        fork.__setstate__(self.__getstate__())  # change trees: facts about immutable commits
        return fork

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._store = ObjectStore(ObjectTable(state["objects"]))  # a copy, chunks shared
        self._refs = dict(state["refs"])
        self._default_branch = state["default_branch"]
        self._init_caches()
        self._marks = dict(state.get("marks", {}))

    # -- dulwich access (used by smart HTTP) ---------------------------------------------
    @property
    def object_store(self) -> ObjectStore:
        return self._store

    def refs_container(self) -> DictRefsContainer:
        """A dulwich refs container writing straight into this repository's refs."""
        return DictRefsContainer(self._refs)
