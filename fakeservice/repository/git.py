"""The in-memory git repository engine: real git objects, refs, file commits and reads.

A :class:`Repository` keeps every object as git would (blob, tree, commit and tag ids are
the SHA-1s git computes), so ids shown by the API match a real clone. Objects live in a
plain ``dict`` of raw bytes wrapped as a dulwich object store (see :class:`ObjectStore`),
which pickles fast and lets the smart HTTP module serve clones and pushes from the very
same objects. Parsed trees, commits and path histories are cached by object id; objects
never change, so the caches never need invalidating and are left out of snapshots.

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

import base64
import datetime as dt
import difflib
import hashlib
import heapq
import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Literal

import attrs
from dulwich.object_store import MemoryObjectStore
from dulwich.objects import Blob, Commit, ShaFile, Tree, parse_tree
from dulwich.objects import Tag as TagObject
from dulwich.refs import DictRefsContainer, check_ref_format

from fakeservice.core.errors import ApiError, BadRequest, Conflict, NotFound, ParamError, or_404
from fakeservice.repository import lastchange

# -- constants ---------------------------------------------------------------------------

ZERO_SHA = "0" * 40
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

MODE_FILE = 0o100644
MODE_EXEC = 0o100755
MODE_LINK = 0o120000
MODE_DIR = 0o040000
MODE_SUBMODULE = 0o160000

TYPE_COMMIT, TYPE_TREE, TYPE_BLOB, TYPE_TAG = 1, 2, 3, 4

HEADS = b"refs/heads/"
TAGS = b"refs/tags/"
HEAD = b"HEAD"
SYMREF = b"ref: "

FILE_EXISTS = "A file with this name already exists"
FILE_MISSING = "A file with this name doesn't exist"
DIR_EXISTS = "A directory with this name already exists"
EMPTY_PATH = "You must provide a file path"
TRAVERSAL = "Path cannot include directory traversal"
NUL_IN_PATH = "Path cannot include null bytes"
NOT_ON_BRANCH = "You can only create or edit files when you are on a branch"
STALE_UPDATE = "You are attempting to update a file that has changed since you started editing it."
STALE_DELETE = "You are attempting to delete a file that has been previously updated."
NO_CHANGES = "You are attempting to update a file with identical content"
BRANCH_EXISTS = "Branch already exists"
BRANCH_INVALID = "Branch name is invalid"
TAG_INVALID = "Tag name invalid"
DEFAULT_BRANCH_DELETE = "The default branch of a project cannot be deleted."

ACTIONS = ("create", "update", "delete", "move", "chmod")
ActionKind = Literal["create", "update", "delete", "move", "chmod"]
ApiFlavour = Literal["files", "commits"]

_CACHE_LIMIT = 200_000

Entry = tuple[int, bytes]  # (mode, hex sha) of one tree entry
Path = tuple[bytes, ...]


# -- records -----------------------------------------------------------------------------


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


# -- the object store --------------------------------------------------------------------


class ObjectStore(MemoryObjectStore):
    """A dulwich object store over ``raw``: hex sha -> (type number, raw bytes).

    Objects are parsed on demand, so reading is cheap, and pickling copies only bytes.
    """

    def __init__(self, raw: dict[bytes, tuple[int, bytes]] | None = None) -> None:
        super().__init__()
        self.raw: dict[bytes, tuple[int, bytes]] = raw if raw is not None else {}

    def __reduce__(self) -> tuple[Any, ...]:
        return (ObjectStore, (self.raw,))

    def contains_loose(self, sha: Any) -> bool:
        return self._to_hexsha(sha) in self.raw

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self.raw))

    def get_raw(self, name: Any) -> tuple[int, bytes]:
        return self.raw[self._to_hexsha(name)]

    def __getitem__(self, name: Any) -> ShaFile:
        hexsha = self._to_hexsha(name)
        type_num, data = self.raw[hexsha]
        return ShaFile.from_raw_string(type_num, data, sha=hexsha)

    def __delitem__(self, name: Any) -> None:
        del self.raw[self._to_hexsha(name)]
        self._invalidate_peel_cache()

    def add_object(self, obj: ShaFile) -> None:
        self.raw[obj.id] = (obj.type_num, obj.as_raw_string())


# -- helpers -----------------------------------------------------------------------------


def blob_id(content: bytes) -> str:
    """The id git gives a blob with this content (``git hash-object``)."""
    header = b"blob %d\0" % len(content)
    return hashlib.sha1(header + content, usedforsecurity=False).hexdigest()


def commit_title(message: str) -> str:
    """The API's commit ``title``: the first line, shortened as the real service does."""
    if not message.strip():
        return "No commit message"
    full = message.replace("\r", "\n").split("\n", 1)[0]
    if len(full) < 100:
        return full
    room = 80
    stop = full.rfind(" ", 0, room + 1)
    return full[: stop if stop != -1 else room] + "…"


def split_lines(content: bytes) -> list[str]:
    """Lines of a file as blame shows them: split on ``\\n``, no terminators."""
    if not content:
        return []
    lines = content.decode("utf-8", "replace").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def normalize_path(path: str | None) -> Path:
    """Validate and split a file path for writing (errors as the real service words them)."""
    segments = [s for s in (path or "").split("/") if s not in ("", ".")]
    if ".." in segments:
        raise BadRequest(TRAVERSAL, raw=True)
    if not segments:
        raise BadRequest(EMPTY_PATH, raw=True)
    if any("\0" in s for s in segments):
        raise BadRequest(NUL_IN_PATH, raw=True)
    if (path or "").startswith("/") or any(s.lower() == ".git" for s in segments):
        raise BadRequest(f"invalid path: '{path}'", raw=True)  # git's own path check
    return tuple(_enc(s) for s in segments)


def _enc(text: str) -> bytes:
    """UTF-8 bytes of any ``str`` (lone surrogates from URL decoding included)."""
    return text.encode("utf-8", "surrogatepass")


def _read_path(path: str | None) -> Path:
    return tuple(_enc(s) for s in (path or "").split("/") if s not in ("", "."))


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)


def _valid_ref_name(prefix: bytes, name: str) -> bool:
    if not name or name.startswith("-"):
        return False
    try:
        return check_ref_format(prefix + name.encode("utf-8"))
    except UnicodeEncodeError:
        return False


def valid_branch_name(name: str) -> bool:
    """Whether ``name`` may name a branch (git's ref rules, not ``HEAD``, no leading ``-``)."""
    return name != "HEAD" and _valid_ref_name(HEADS, name)


def _valid_tag_name(name: str) -> bool:
    return _valid_ref_name(TAGS, name)


def _ident(name: str, email: str) -> bytes:
    def clean(text: str) -> str:
        return "".join(c for c in text if c not in "<>\n").strip()

    return _enc(f"{clean(name)} <{clean(email)}>")


def _parse_ident(raw: bytes) -> tuple[str, str]:
    text = raw.decode("utf-8", "replace")
    name, sep, rest = text.rpartition(" <")
    if not sep:
        return text.strip(), ""
    return name.strip(), rest.rstrip(">").strip()


def _when(timestamp: int, offset: int) -> dt.datetime:
    zone = dt.timezone(dt.timedelta(seconds=offset))
    return dt.datetime.fromtimestamp(timestamp, tz=zone)


def _mode_text(mode: int | None) -> str:
    return "0" if mode is None else f"{mode:06o}"


def _entry_type(mode: int) -> str:
    if mode == MODE_DIR:
        return "tree"
    if mode == MODE_SUBMODULE:
        return "commit"
    return "blob"


def _join(prefix: bytes, name: bytes) -> bytes:
    return prefix + b"/" + name if prefix else name


def _bad(message: str) -> BadRequest:
    return BadRequest(message, raw=True)


# -- the editable tree used by commit() --------------------------------------------------

_DIR_MARK: Entry = (MODE_DIR, b"")


class _TreeEditor:
    """A lazily loaded, editable copy of a tree. Nothing is stored until :meth:`write`."""

    def __init__(self, repo: Repository, root: bytes | None) -> None:
        self._repo = repo
        self._root: dict[bytes, Any] = dict(repo._tree(root)) if root else {}
        self.objects: dict[bytes, tuple[int, bytes]] = {}

    def _dir(self, parts: Path, *, create: bool) -> dict[bytes, Any] | None:
        node = self._root
        for name in parts:
            entry = node.get(name)
            if entry is None:
                if not create:
                    return None
                node[name] = child = {}
            elif isinstance(entry, dict):
                child = entry
            elif entry[0] == MODE_DIR:
                node[name] = child = dict(self._repo._tree(entry[1]))
            elif create:
                raise _bad(FILE_EXISTS)
            else:
                return None
            node = child
        return node

    def get(self, parts: Path) -> Entry | None:
        """The entry at ``parts``: ``(mode, sha)``; a directory has mode :data:`MODE_DIR`."""
        parent = self._dir(parts[:-1], create=False)
        entry = None if parent is None else parent.get(parts[-1])
        return _DIR_MARK if isinstance(entry, dict) else entry

    def put(self, parts: Path, mode: int, sha: bytes) -> None:
        parent = self._dir(parts[:-1], create=True)
        assert parent is not None
        parent[parts[-1]] = (mode, sha)

    def remove(self, parts: Path) -> None:
        parent = self._dir(parts[:-1], create=False)
        if parent is not None:
            parent.pop(parts[-1], None)

    def add_blob(self, content: bytes) -> bytes:
        blob = Blob.from_string(content)
        self.objects[blob.id] = (TYPE_BLOB, content)
        return blob.id

    def write(self) -> bytes:
        """Serialise the changed directories; returns the root tree id."""
        root = self._write(self._root)
        if root is None:
            empty = Tree()
            self.objects[empty.id] = (TYPE_TREE, empty.as_raw_string())
            return empty.id
        return root

    def _write(self, node: dict[bytes, Any]) -> bytes | None:
        tree = Tree()
        for name, entry in node.items():
            if isinstance(entry, dict):
                sha = self._write(entry)
                if sha is not None:
                    tree.add(name, MODE_DIR, sha)
            else:
                tree.add(name, entry[0], entry[1])
        if not len(tree):
            return None
        self.objects[tree.id] = (TYPE_TREE, tree.as_raw_string())
        return tree.id


# -- the repository ----------------------------------------------------------------------


class Repository:
    """One project's git repository, kept in memory. Picklable (objects, refs, HEAD)."""

    def __init__(self, default_branch: str = "main") -> None:
        self._store = ObjectStore()
        self._refs: dict[bytes, bytes] = {}
        self._default_branch = default_branch
        self._refs[HEAD] = SYMREF + HEADS + _enc(default_branch)
        self._init_caches()

    def _init_caches(self) -> None:
        self._trees: dict[bytes, dict[bytes, Entry]] = {}
        self._commits: dict[bytes, CommitInfo] = {}
        self._links: dict[bytes, tuple[bytes, tuple[bytes, ...]]] = {}
        self._marks: dict[bytes, lastchange.Node] = {}  # commit -> its change tree

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
        self._store = ObjectStore(dict(state["objects"]))
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

    # -- default branch and emptiness ----------------------------------------------------
    @property
    def default_branch(self) -> str:
        return self._default_branch

    @default_branch.setter
    def default_branch(self, name: str) -> None:
        self._default_branch = name
        self._refs[HEAD] = SYMREF + HEADS + _enc(name)

    @property
    def is_empty(self) -> bool:
        return not any(name.startswith(HEADS) for name in self._refs)

    def adopt_default_branch(self, candidates: Iterable[str]) -> None:
        """Make the first existing candidate the default branch if the default is missing."""
        if self.branch(self._default_branch) is not None:
            return
        for name in candidates:
            if self.branch(name) is not None:
                self.default_branch = name
                return

    # -- refs ----------------------------------------------------------------------------
    def refs(self) -> dict[str, str]:
        """Every ref (full name) and the sha it points at; symbolic refs are left out."""
        return {
            name.decode(): value.decode()
            for name, value in self._refs.items()
            if not value.startswith(SYMREF)
        }

    def branches(self) -> list[Branch]:
        found = [
            Branch(name[len(HEADS) :].decode(), sha.decode())
            for name, sha in self._refs.items()
            if name.startswith(HEADS)
        ]
        return sorted(found, key=lambda b: b.name)

    def branch(self, name: str) -> Branch | None:
        sha = self._refs.get(HEADS + _enc(name))
        return Branch(name, sha.decode()) if sha is not None else None

    def create_branch(self, name: str, ref: str) -> Branch:
        """Create ``name`` at ``ref``. 400 for a bad name, an existing branch or a bad ref."""
        if not valid_branch_name(name):
            raise _bad(BRANCH_INVALID)
        if self.branch(name) is not None:
            raise _bad(BRANCH_EXISTS)
        sha = self.resolve(ref)
        if sha is None:
            raise _bad(f"Invalid reference name: {ref}")
        self._refs[HEADS + _enc(name)] = sha.encode()
        self.adopt_default_branch([name])
        return Branch(name, sha)

    def set_branch(self, name: str, commit_id: str) -> None:
        """Point a branch at a commit unconditionally (force update), creating it if needed."""
        if self._commit(_enc(commit_id)) is None:
            raise NotFound("Commit")
        self._refs[HEADS + _enc(name)] = _enc(commit_id)
        self.adopt_default_branch([name])

    def delete_branch(self, name: str) -> None:
        """404 ``Branch Not Found``; 405 for the default branch."""
        key = HEADS + _enc(name)
        if key not in self._refs:
            raise NotFound("Branch")
        if name == self._default_branch:
            raise ApiError({"message": DEFAULT_BRANCH_DELETE}, status=405)
        del self._refs[key]

    def tags(self) -> list[Tag]:
        names = sorted(n[len(TAGS) :].decode() for n in self._refs if n.startswith(TAGS))
        return [tag for tag in (self.tag(name) for name in names) if tag is not None]

    def tag(self, name: str) -> Tag | None:
        target = self._refs.get(TAGS + _enc(name))
        if target is None:
            return None
        commit = self._peel(target)
        if self._store.raw.get(target, (0, b""))[0] != TYPE_TAG:
            return Tag(name, target.decode(), (commit or target).decode())
        obj = self._store[target]
        assert isinstance(obj, TagObject)
        tagger_name, tagger_email = _parse_ident(obj.tagger or b"")
        return Tag(
            name=name,
            target=target.decode(),
            commit_id=(commit or target).decode(),
            message=obj.message.decode("utf-8", "replace").rstrip("\n"),
            tagger_name=tagger_name,
            tagger_email=tagger_email,
            created_at=_when(obj.tag_time, obj.tag_timezone),
        )

    def create_tag(
        self,
        name: str,
        ref: str,
        message: str | None = None,
        *,
        tagger_name: str = "",
        tagger_email: str = "",
        when: dt.datetime,
    ) -> Tag:
        """Lightweight tag, or annotated (tagger, ``when``) when ``message`` is non-empty.

        400 ``Tag name invalid``; 409 ``Tag <name> already exists``; 400
        ``Target <ref> is invalid``.
        """
        if not _valid_tag_name(name):
            raise _bad(TAG_INVALID)
        if self.tag(name) is not None:
            raise Conflict(f"Tag {name} already exists")
        sha = self.resolve(ref)
        if sha is None:
            raise _bad(f"Target {ref} is invalid")
        target = sha.encode()
        if message:
            target = self._write_tag_object(name, target, message, tagger_name, tagger_email, when)
        self._refs[TAGS + _enc(name)] = target
        tag = self.tag(name)
        assert tag is not None
        return tag

    def _write_tag_object(
        self,
        name: str,
        target: bytes,
        message: str,
        tagger_name: str,
        tagger_email: str,
        when: dt.datetime,
    ) -> bytes:
        obj = TagObject()
        obj.object = (Commit, target)
        obj.name = _enc(name)
        obj.tagger = _ident(tagger_name, tagger_email)
        obj.tag_time = int(when.timestamp())
        obj.tag_timezone = 0
        obj.message = _enc(message)
        self._store.add_object(obj)
        return obj.id

    def delete_tag(self, name: str) -> None:
        """404 ``Tag Not Found``."""
        key = TAGS + _enc(name)
        if key not in self._refs:
            raise NotFound("Tag")
        del self._refs[key]

    # -- resolving -----------------------------------------------------------------------
    def resolve(self, ref: str | None) -> str | None:
        """The commit a ref names, or None.

        Accepts ``HEAD``, a full sha, a full ref name, a tag then a branch name (git's
        order), then a unique abbreviated commit sha of at least 7 hex digits.
        """
        found = self._resolve(ref)
        return found.decode() if found is not None else None

    def _resolve(self, ref: str | None) -> bytes | None:
        if not ref:
            return None
        if ref == "HEAD":
            return self._peel(self._refs.get(HEADS + _enc(self._default_branch), b""))
        lowered = ref.lower()
        if len(ref) == 40 and _is_hex(lowered):
            return self._peel(lowered.encode())
        name = _enc(ref)
        for candidate in (name, b"refs/" + name, TAGS + name, HEADS + name):
            target = self._refs.get(candidate)
            if target is not None and not target.startswith(SYMREF):
                return self._peel(target)
        if 7 <= len(ref) < 40 and _is_hex(lowered):
            return self._abbreviated(lowered.encode())
        return None

    def _abbreviated(self, prefix: bytes) -> bytes | None:
        matches = [
            sha
            for sha, (kind, _) in self._store.raw.items()
            if kind == TYPE_COMMIT and sha.startswith(prefix)
        ]
        return matches[0] if len(matches) == 1 else None

    def _peel(self, sha: bytes) -> bytes | None:
        """Follow tag objects to a commit; None if ``sha`` is missing or not a commit."""
        for _ in range(32):
            item = self._store.raw.get(sha)
            if item is None:
                return None
            if item[0] == TYPE_COMMIT:
                return sha
            if item[0] != TYPE_TAG:
                return None
            obj = self._store[sha]
            assert isinstance(obj, TagObject)
            sha = obj.object[1]
        return None

    def _resolve_or_404(self, ref: str | None, kind: str = "Commit") -> bytes:
        return or_404(self._resolve(ref), kind)

    # -- cached object access ------------------------------------------------------------
    def _tree(self, sha: bytes) -> dict[bytes, Entry]:
        cached = self._trees.get(sha)
        if cached is None:
            kind, data = self._store.raw[sha]
            if kind != TYPE_TREE:
                raise ValueError(f"{sha!r} is not a tree")
            cached = {name: (mode, hexsha) for name, mode, hexsha in parse_tree(data, 20)}
            if len(self._trees) > _CACHE_LIMIT:
                self._trees.clear()
            self._trees[sha] = cached
        return cached

    def _commit(self, sha: bytes) -> CommitInfo | None:
        cached = self._commits.get(sha)
        if cached is None:
            item = self._store.raw.get(sha)
            if item is None or item[0] != TYPE_COMMIT:
                return None
            cached = self._parse_commit(sha)
            if len(self._commits) > _CACHE_LIMIT:
                self._commits.clear()
            self._commits[sha] = cached
        return cached

    def _parse_commit(self, sha: bytes) -> CommitInfo:
        obj = self._store[sha]
        assert isinstance(obj, Commit)
        author_name, author_email = _parse_ident(obj.author)
        committer_name, committer_email = _parse_ident(obj.committer)
        return CommitInfo(
            id=sha.decode(),
            tree_id=obj.tree.decode(),
            parent_ids=tuple(p.decode() for p in obj.parents),
            message=obj.message.decode("utf-8", "replace"),
            author_name=author_name,
            author_email=author_email,
            authored_date=_when(obj.author_time, obj.author_timezone),
            committer_name=committer_name,
            committer_email=committer_email,
            committed_date=_when(obj.commit_time, obj.commit_timezone),
        )

    def _graph(self, sha: bytes) -> tuple[bytes, tuple[bytes, ...]]:
        """(tree id, parent ids) of a commit, read from the raw header without full parsing."""
        cached = self._links.get(sha)
        if cached is None:
            item = self._store.raw.get(sha)
            if item is None or item[0] != TYPE_COMMIT:
                raise NotFound("Commit")
            tree, parents = b"", []
            for line in item[1].split(b"\n"):
                if line.startswith(b"tree "):
                    tree = line[5:]
                elif line.startswith(b"parent "):
                    parents.append(line[7:])
                else:
                    break
            cached = (tree, tuple(parents))
            if len(self._links) > _CACHE_LIMIT:
                self._links.clear()
            self._links[sha] = cached
        return cached

    def _info(self, sha: bytes) -> CommitInfo:
        return or_404(self._commit(sha), "Commit")

    def _lookup(self, tree: bytes, parts: Path) -> Entry | None:
        """The entry at ``parts`` under ``tree`` (the tree itself for an empty path)."""
        entry: Entry = (MODE_DIR, tree)
        for name in parts:
            if entry[0] != MODE_DIR:
                return None
            found = self._tree(entry[1]).get(name)
            if found is None:
                return None
            entry = found
        return entry

    def _entry(self, commit: bytes, parts: Path) -> Entry | None:
        return self._lookup(self._graph(commit)[0], parts)

    def _blob(self, sha: bytes) -> bytes:
        return self._store.raw[sha][1]

    # -- history -------------------------------------------------------------------------
    def _same_parent(self, commit: bytes, parts: Path, entry: Entry | None) -> bytes | None:
        """The first parent in which ``parts`` is unchanged (git's TREESAME), or None."""
        tree, parents = self._graph(commit)
        for parent in parents:
            parent_tree = self._graph(parent)[0]
            if parent_tree == tree or self._lookup(parent_tree, parts) == entry:
                return parent
        return None

    def _last_commit(self, start: bytes, parts: Path) -> bytes | None:
        """The last commit at or before ``start`` that changed ``parts`` (None if absent).

        Read from the commits' change trees (:mod:`fakeservice.repository.lastchange`):
        the cost is the path's depth, not the history's length."""
        return lastchange.last_commit(self._mark(start), parts)

    def _mark(self, sha: bytes) -> lastchange.Node:
        """The change tree of commit ``sha``, built (with any unbuilt ancestors', oldest
        first) when missing: after a push, or once after a repository was unpickled."""
        marks = self._marks
        found = marks.get(sha)
        if found is not None:
            return found
        pending = [(sha, False)]
        while pending:
            current, ready = pending.pop()
            if current in marks:
                continue
            parents = [p for p in self._graph(current)[1] if p in self._store.raw]
            if ready:
                marks[current] = self._build_mark(current, parents)
                continue
            pending.append((current, True))
            pending.extend((p, False) for p in parents if p not in marks)
        return marks[sha]

    def _build_mark(self, sha: bytes, parents: list[bytes]) -> lastchange.Node:
        root = (MODE_DIR, self._graph(sha)[0])
        below = [((MODE_DIR, self._graph(p)[0]), self._marks[p]) for p in parents]
        return lastchange.build(sha, root, below, self._tree)

    def _walk(
        self, starts: Iterable[bytes], parts: Path | None, first_parent: bool
    ) -> Iterator[CommitInfo]:
        """Commits reachable from ``starts``, newest first by committer date."""
        order = itertools.count()
        heap: list[tuple[float, int, bytes]] = []
        seen: set[bytes] = set()

        def push(sha: bytes) -> None:
            if sha not in seen:
                seen.add(sha)
                stamp = self._info(sha).committed_date.timestamp()
                heapq.heappush(heap, (-stamp, next(order), sha))

        for start in starts:
            push(start)
        while heap:
            sha = heapq.heappop(heap)[2]
            info = self._info(sha)
            parents = [p.encode() for p in info.parent_ids]
            if first_parent:
                parents = parents[:1]
            if parts is not None:
                entry = self._lookup(info.tree_id.encode(), parts)
                same = next((p for p in parents if self._entry(p, parts) == entry), None)
                if same is not None:
                    # straight to the commit that last changed the path (same result as
                    # skipping each unchanged commit, without walking them)
                    jump = self._last_commit(same, parts) if entry is not None else None
                    push(jump or same)
                    continue
                if entry is None and not parents:
                    continue
            yield info
            for parent in parents:
                push(parent)

    def commits(
        self,
        ref: str | None = None,
        *,
        path: str | None = None,
        since: dt.datetime | None = None,
        until: dt.datetime | None = None,
        first_parent: bool = False,
        all_refs: bool = False,
    ) -> list[CommitInfo]:
        """History newest first. ``ref`` defaults to HEAD; unknown ref: 404 ``Commit``.

        ``path`` keeps the commits that changed it; ``since``/``until`` bound the
        committer date (inclusive); ``all_refs`` walks every branch and tag instead.
        """
        if all_refs:
            starts = [s for s in (self._peel(v) for v in self._refs.values()) if s is not None]
        else:
            starts = [self._resolve_or_404(ref or "HEAD")]
        parts = _read_path(path) if path else None
        found = []
        for info in self._walk(starts, parts, first_parent):
            if since is not None and info.committed_date < since:
                continue
            if until is not None and info.committed_date > until:
                continue
            found.append(info)
        return found

    def get_commit(self, ref: str) -> CommitInfo:
        """The commit a ref names; 404 ``Commit Not Found`` otherwise."""
        return self._info(self._resolve_or_404(ref))

    def find_commit(self, ref: str | None) -> CommitInfo | None:
        found = self._resolve(ref)
        return self._commit(found) if found is not None else None

    def last_commit_id(self, ref: str, path: str) -> str | None:
        """The last commit (at or before ``ref``) that changed ``path``; None if absent."""
        found = self._last_commit(self._resolve_or_404(ref), _read_path(path))
        return found.decode() if found is not None else None

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        """True when ``ancestor`` is reachable from ``descendant`` (or equal to it)."""
        target = self._resolve_or_404(ancestor)
        return target in self._ancestors([self._resolve_or_404(descendant)])

    def _ancestors(self, starts: Iterable[bytes]) -> set[bytes]:
        """``starts`` and every commit reachable from them."""
        seen = set(starts)
        stack = list(seen)
        while stack:
            for parent in self._graph(stack.pop())[1]:
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        return seen

    def merge_base(self, first: str, second: str) -> str | None:
        """The best common ancestor of two refs (the newest if several), or None."""
        ours = self._ancestors([self._resolve_or_404(first)])
        common = [c for c in self._ancestors([self._resolve_or_404(second)]) if c in ours]
        if not common:
            return None
        parents = [p for c in common for p in self._graph(c)[1]]
        redundant = self._ancestors(parents)
        best = [c for c in common if c not in redundant] or common
        best.sort(key=lambda c: (self._info(c).committed_date.timestamp(), c), reverse=True)
        return best[0].decode()

    # -- reading files -------------------------------------------------------------------
    def _file_entry(self, commit: bytes, path: str) -> Entry:
        parts = _read_path(path)
        entry = self._entry(commit, parts) if parts else None
        if entry is None or entry[0] in (MODE_DIR, MODE_SUBMODULE):
            raise NotFound("File")
        return entry

    def read_file(self, ref: str, path: str) -> FileInfo:
        """The file at ``path`` in ``ref``. 404 ``Commit`` for an unknown ref, 404 ``File``."""
        commit = self._resolve_or_404(ref)
        mode, sha = self._file_entry(commit, path)
        content = self._blob(sha)
        last = self._last_commit(commit, _read_path(path))
        return FileInfo(
            file_name=[s for s in path.split("/") if s not in ("", ".")][-1],
            file_path=path,
            size=len(content),
            encoding="base64",
            content=base64.b64encode(content).decode("ascii"),
            content_sha256=hashlib.sha256(content).hexdigest(),
            ref=ref,
            blob_id=sha.decode(),
            commit_id=commit.decode(),
            last_commit_id=(last or commit).decode(),
            execute_filemode=mode == MODE_EXEC,
        )

    def raw(self, ref: str | None, path: str) -> bytes:
        """Raw content; ``ref`` defaults to HEAD. 404 ``Commit`` or 404 ``File``."""
        commit = self._resolve_or_404(ref or "HEAD")
        return self._blob(self._file_entry(commit, path)[1])

    def exists(self, ref: str | None, path: str) -> bool:
        """Whether a file (not a directory) exists at ``path`` in ``ref``."""
        commit = self._resolve(ref or "HEAD")
        if commit is None:
            return False
        entry = self._entry(commit, _read_path(path)) if _read_path(path) else None
        return entry is not None and entry[0] not in (MODE_DIR, MODE_SUBMODULE)

    def tree(
        self, ref: str | None = None, path: str = "", recursive: bool = False
    ) -> list[TreeEntry]:
        """Entries under ``path``: trees, then blobs, then submodules. 404 ``Tree``."""
        commit = self._resolve_or_404(ref or "HEAD", "Tree")
        parts = _read_path(path)
        entry = self._entry(commit, parts)
        if entry is None or entry[0] != MODE_DIR:
            raise NotFound("Tree")
        found = list(self._list_tree(entry[1], b"/".join(parts), recursive))
        rank = {"tree": 0, "blob": 1, "commit": 2}
        return sorted(found, key=lambda e: rank[e.type])

    def _list_tree(self, tree: bytes, prefix: bytes, recursive: bool) -> Iterator[TreeEntry]:
        for name, (mode, sha) in self._tree(tree).items():
            full = _join(prefix, name)
            yield TreeEntry(
                id=sha.decode(),
                name=name.decode("utf-8", "replace"),
                type=_entry_type(mode),
                path=full.decode("utf-8", "replace"),
                mode=_mode_text(mode),
            )
            if recursive and mode == MODE_DIR:
                yield from self._list_tree(sha, full, recursive)

    # -- blame ---------------------------------------------------------------------------
    def blame(
        self,
        ref: str,
        path: str,
        range_start: int | None = None,
        range_end: int | None = None,
    ) -> list[BlameRange]:
        """Line attribution of ``path`` at ``ref``, grouped into ranges of one commit.

        Bounds are 1-based and inclusive; each given bound must be > 0 (400
        ``range[start] does not have a valid value``), ``range_end`` must not be smaller
        than ``range_start`` (400), and an end past the last line is clamped.
        """
        start, end = _check_range(range_start, range_end)
        commit = self._resolve_or_404(ref)
        self._file_entry(commit, path)
        parts = _read_path(path)
        history = self._path_history(commit, parts)
        lines = split_lines(self._blob(history[0][1]))
        owners = self._attribute(history, lines)
        stop = len(lines) if end is None else min(end, len(lines))
        return _group(owners, lines, start - 1, stop, self._info)

    def _path_history(self, commit: bytes, parts: Path) -> list[tuple[bytes, bytes]]:
        """(commit that wrote the version, blob id) of each version of a file, newest first."""
        history: list[tuple[bytes, bytes]] = []
        current: bytes | None = commit
        while current is not None:
            entry = self._entry(current, parts)
            if entry is None or entry[0] in (MODE_DIR, MODE_SUBMODULE):
                break
            writer = self._last_commit(current, parts)
            assert writer is not None
            history.append((writer, entry[1]))
            parents = self._graph(writer)[1]
            current = parents[0] if parents else None
        return history

    def _attribute(self, history: list[tuple[bytes, bytes]], lines: list[str]) -> list[bytes]:
        """For each final line, the commit that introduced it."""
        owners: list[bytes | None] = [None] * len(lines)
        pending: list[int | None] = list(range(len(lines)))
        current = lines
        for index, (writer, _blob) in enumerate(history):
            if index + 1 == len(history):
                older: list[str] = []
            else:
                older = split_lines(self._blob(history[index + 1][1]))
            passed: list[int | None] = [None] * len(older)
            kept = set()
            matcher = difflib.SequenceMatcher(None, older, current, autojunk=False)
            for a, b, size in matcher.get_matching_blocks():
                for k in range(size):
                    passed[a + k] = pending[b + k]
                    kept.add(b + k)
            for position, final in enumerate(pending):
                if final is not None and position not in kept:
                    owners[final] = writer
            pending, current = passed, older
            if all(p is None for p in pending):
                break
        return [owner or history[-1][0] for owner in owners]

    # -- diffs ---------------------------------------------------------------------------
    def diff(self, ref: str) -> list[DiffEntry]:
        """Changes a commit made against its first parent (all files for a root commit)."""
        info = self.get_commit(ref)
        parent = self._info(info.parent_ids[0].encode()).tree_id if info.parent_ids else None
        return self._diff_trees(parent, info.tree_id)

    def compare(self, from_ref: str, to_ref: str) -> list[DiffEntry]:
        """Changes between two refs' trees (``from`` -> ``to``). 404 ``Commit``."""
        old = self.get_commit(from_ref).tree_id
        new = self.get_commit(to_ref).tree_id
        return self._diff_trees(old, new)

    def commit_stats(self, ref: str) -> CommitStats:
        """Lines added and removed by a commit against its first parent."""
        additions = deletions = 0
        for entry in self.diff(ref):
            for line in entry.diff.splitlines():
                if line.startswith("+"):
                    additions += 1
                elif line.startswith("-"):
                    deletions += 1
        return CommitStats(additions, deletions)

    def _diff_trees(self, old: str | None, new: str | None) -> list[DiffEntry]:
        changes = list(
            self._tree_changes(old.encode() if old else None, new.encode() if new else None, b"")
        )
        added: dict[bytes, list[bytes]] = {}
        for path, before, after in changes:
            if before is None and after is not None:
                added.setdefault(after[1], []).append(path)
        renames: dict[bytes, tuple[bytes, Entry]] = {}
        for path, before, after in changes:
            if after is None and before is not None and added.get(before[1]):
                renames[added[before[1]].pop(0)] = (path, before)
        renamed_from = {source for source, _ in renames.values()}
        result = []
        for path, before, after in changes:
            if path in renamed_from:
                continue
            source, before = renames.get(path, (path, before))
            result.append(self._diff_entry(source, path, before, after))
        return result

    def _diff_entry(
        self, old_path: bytes, new_path: bytes, before: Entry | None, after: Entry | None
    ) -> DiffEntry:
        old = self._blob(before[1]) if before else b""
        new = self._blob(after[1]) if after else b""
        return DiffEntry(
            old_path=old_path.decode("utf-8", "replace"),
            new_path=new_path.decode("utf-8", "replace"),
            a_mode=_mode_text(before[0] if before else None),
            b_mode=_mode_text(after[0] if after else None),
            new_file=before is None,
            renamed_file=before is not None and after is not None and old_path != new_path,
            deleted_file=after is None,
            diff=unified_diff(old, new, old_path, new_path),
        )

    def _tree_changes(
        self, old: bytes | None, new: bytes | None, prefix: bytes
    ) -> Iterator[tuple[bytes, Entry | None, Entry | None]]:
        """(path, old entry, new entry) for each changed file, in path order."""
        if old == new:
            return
        before = self._tree(old) if old else {}
        after = self._tree(new) if new else {}
        for name in sorted(set(before) | set(after)):
            a, b = before.get(name), after.get(name)
            if a == b:
                continue
            path = _join(prefix, name)
            a_dir = a is not None and a[0] == MODE_DIR
            b_dir = b is not None and b[0] == MODE_DIR
            if a_dir or b_dir:
                yield from self._tree_changes(
                    a[1] if a_dir else None, b[1] if b_dir else None, path
                )
            if (a is not None and not a_dir) or (b is not None and not b_dir):
                yield path, None if a_dir else a, None if b_dir else b

    # -- writing -------------------------------------------------------------------------
    def commit(
        self,
        branch: str,
        actions: Sequence[Action],
        *,
        message: str,
        author_name: str,
        author_email: str,
        when: dt.datetime,
        committer_name: str | None = None,
        committer_email: str | None = None,
        start_branch: str | None = None,
        force: bool = False,
        api: ApiFlavour = "files",
    ) -> str:
        """Apply ``actions`` as one commit on ``branch``; all or nothing. Returns the sha.

        Errors are 400 ``{"message": <text>}`` with the real service's texts (see the
        module constants). ``api="commits"`` words a stale ``last_commit_id`` as the
        commits API does (``The file has changed since you started editing it: <path>``).
        """
        parent = self._commit_parent(branch, start_branch, force)
        base = self._info(parent).tree_id.encode() if parent is not None else None
        editor = _TreeEditor(self, base)
        for action in actions:
            self._apply(editor, action, parent, api)
        tree = editor.write()
        if not actions or (parent is not None and tree == base):
            raise _bad(NO_CHANGES)
        for sha, item in editor.objects.items():
            self._store.raw.setdefault(sha, item)
        parents = [parent.decode()] if parent is not None else []
        sha = self.create_commit(
            tree.decode(),
            parents,
            message=message,
            author_name=author_name,
            author_email=author_email,
            when=when,
            committer_name=committer_name,
            committer_email=committer_email,
        )
        self._refs[HEADS + _enc(branch)] = sha.encode()
        self.adopt_default_branch([branch])
        if parent is None or parent in self._marks:
            self._mark(sha.encode())  # keep the change trees current (cheap: one step)
        return sha

    def create_commit(
        self,
        tree_id: str,
        parent_ids: Sequence[str],
        *,
        message: str,
        author_name: str,
        author_email: str,
        when: dt.datetime,
        committer_name: str | None = None,
        committer_email: str | None = None,
    ) -> str:
        """Store a commit object (no ref moves); dates are ``when`` in UTC."""
        obj = Commit()
        obj.tree = tree_id.encode()
        obj.parents = [p.encode() for p in parent_ids]
        obj.author = _ident(author_name, author_email)
        obj.committer = _ident(committer_name or author_name, committer_email or author_email)
        obj.author_time = obj.commit_time = int(when.timestamp())
        obj.author_timezone = obj.commit_timezone = 0
        obj.message = _enc(message)
        self._store.add_object(obj)
        return obj.id.decode()

    def _commit_parent(self, branch: str, start_branch: str | None, force: bool) -> bytes | None:
        """The commit a new commit on ``branch`` builds on (None for an empty repository)."""
        if self.is_empty:
            if not valid_branch_name(branch):
                raise _bad(BRANCH_INVALID)
            return None
        source = self.branch(start_branch or branch)
        if source is None:
            raise _bad(NOT_ON_BRANCH)
        if start_branch and start_branch != branch:
            if self.branch(branch) is not None and not force:
                raise _bad(
                    f"A branch called '{branch}' already exists. "
                    "Switch to that branch in order to make changes"
                )
            if not valid_branch_name(branch):
                raise _bad(
                    f"Something went wrong when we tried to create '{branch}' for you: "
                    f"{BRANCH_INVALID}"
                )
        return source.commit_id.encode()

    def _apply(
        self, editor: _TreeEditor, action: Action, parent: bytes | None, api: ApiFlavour
    ) -> None:
        if action.action not in ACTIONS:
            raise ParamError("actions[action] does not have a valid value")
        parts = normalize_path(action.file_path)
        current = editor.get(parts)
        kind = action.action
        if kind == "create":
            self._apply_create(editor, action, parts, current)
            return
        if kind == "move":
            self._apply_move(editor, action, parts, current)
            return
        if current is None or current[0] == MODE_DIR:
            raise _bad(FILE_MISSING)
        self._check_fresh(parent, parts, action, api)
        if kind == "delete":
            editor.remove(parts)
            return
        mode = _new_mode(current[0], action.execute_filemode)
        if kind == "chmod":
            editor.put(parts, mode, current[1])
            return
        editor.put(parts, mode, editor.add_blob(action.content or b""))

    def _apply_create(
        self, editor: _TreeEditor, action: Action, parts: Path, current: Entry | None
    ) -> None:
        if current is not None:
            raise _bad(DIR_EXISTS if current[0] == MODE_DIR else FILE_EXISTS)
        mode = MODE_EXEC if action.execute_filemode else MODE_FILE
        editor.put(parts, mode, editor.add_blob(action.content or b""))

    def _apply_move(
        self, editor: _TreeEditor, action: Action, parts: Path, current: Entry | None
    ) -> None:
        source_parts = normalize_path(action.previous_path)
        source = editor.get(source_parts)
        if source is None or source[0] == MODE_DIR:
            raise _bad(FILE_MISSING)
        if current is not None:
            raise _bad(DIR_EXISTS if current[0] == MODE_DIR else FILE_EXISTS)
        editor.remove(source_parts)
        sha = source[1] if action.content is None else editor.add_blob(action.content)
        editor.put(parts, _new_mode(source[0], action.execute_filemode), sha)

    def _check_fresh(
        self, parent: bytes | None, parts: Path, action: Action, api: ApiFlavour
    ) -> None:
        if not action.last_commit_id or parent is None:
            return
        last = self._last_commit(parent, parts)
        if last is None or last.decode() == action.last_commit_id:
            return
        if api == "commits":
            raise _bad(f"The file has changed since you started editing it: {action.file_path}")
        raise _bad(STALE_DELETE if action.action == "delete" else STALE_UPDATE)


def _new_mode(mode: int, execute: bool | None) -> int:
    if execute is None or mode not in (MODE_FILE, MODE_EXEC):
        return mode
    return MODE_EXEC if execute else MODE_FILE


def _check_range(start: int | None, end: int | None) -> tuple[int, int | None]:
    if start is not None and start < 1:
        raise ParamError("range[start] does not have a valid value")
    if end is not None and end < 1:
        raise ParamError("range[end] does not have a valid value")
    if start is not None and end is not None and end < start:
        raise BadRequest("range[end] must be greater than or equal to range[start]")
    return start or 1, end


def _group(
    owners: Sequence[bytes],
    lines: Sequence[str],
    first: int,
    stop: int,
    info: Any,
) -> list[BlameRange]:
    ranges: list[BlameRange] = []
    index = first
    while index < stop:
        owner = owners[index]
        end = index
        while end < stop and owners[end] == owner:
            end += 1
        ranges.append(BlameRange(info(owner), tuple(lines[index:end])))
        index = end
    return ranges


def unified_diff(old: bytes, new: bytes, old_path: bytes = b"", new_path: bytes = b"") -> str:
    """Unified diff hunks (no ``---``/``+++`` header) the way git prints them."""
    if b"\0" in old or b"\0" in new:
        if old == new:
            return ""
        a, b = old_path.decode("utf-8", "replace"), new_path.decode("utf-8", "replace")
        return f"Binary files a/{a} and b/{b} differ\n"
    before = _keep_ends(old.decode("utf-8", "replace"))
    after = _keep_ends(new.decode("utf-8", "replace"))
    out = []
    for line in itertools.islice(difflib.unified_diff(before, after, n=3), 2, None):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _keep_ends(text: str) -> list[str]:
    """Split on ``\\n`` only (as git does), keeping the terminators."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines
