"""Cached reads of stored objects: parsed trees, commits and commit links, path lookups.

Objects never change, so the caches are keyed by object id, never invalidated, only
cleared when they grow past a bound, and left out of snapshots."""

from __future__ import annotations

from collections.abc import Mapping

from dulwich.objects import Commit, parse_tree

from fakeservice.core.errors import NotFound, or_404
from fakeservice.repository.engine.chunks import ChunkedTree, TreeData, chunks_of, parsed
from fakeservice.repository.engine.constants import (
    CACHE_LIMIT,
    MODE_DIR,
    TREE_CACHE_LIMIT,
    TYPE_COMMIT,
    Entry,
    Path,
)
from fakeservice.repository.engine.objects import ObjectStore
from fakeservice.repository.engine.records import CommitInfo
from fakeservice.repository.engine.text import at_time, parse_ident


class ObjectReader:
    """The base of :class:`~fakeservice.repository.git.Repository`: its object store,
    refs and default branch, and cached reads of the objects."""

    _store: ObjectStore
    _refs: dict[bytes, bytes]
    _default_branch: str

    def _init_caches(self) -> None:
        self._trees: dict[bytes, dict[bytes, Entry]] = {}  # small trees only
        self._commits: dict[bytes, CommitInfo] = {}
        self._links: dict[bytes, tuple[bytes, tuple[bytes, ...]]] = {}

    def _tree(self, sha: bytes) -> Mapping[bytes, Entry]:
        """Every entry of a tree by name. A small tree's parse is cached (by id, bounded);
        a chunked (large) tree is parsed afresh, never kept whole per version."""
        cached = self._trees.get(sha)
        if cached is not None:
            return cached
        data = self._store.raw.tree(sha)
        if isinstance(data, ChunkedTree):
            return parsed(data)
        cached = {name: (mode, hexsha) for name, mode, hexsha in parse_tree(data, 20)}
        if len(self._trees) > TREE_CACHE_LIMIT:
            self._trees.clear()
        self._trees[sha] = cached
        return cached

    def _tree_data(self, sha: bytes) -> TreeData:
        """A tree as stored: raw bytes, or chunks for a large one."""
        return self._store.raw.tree(sha)

    def _tree_get(self, sha: bytes, name: bytes) -> Entry | None:
        """One entry of a tree (a chunked tree reads the chunk where ``name`` sorts)."""
        cached = self._trees.get(sha)
        if cached is not None:
            return cached.get(name)
        data = self._store.raw.tree(sha)
        if isinstance(data, ChunkedTree):
            return data.lookup(name)
        return self._tree(sha).get(name)

    def _tree_diff(
        self, old: bytes | None, new: bytes | None
    ) -> dict[bytes, tuple[Entry | None, Entry | None]]:
        """The names whose entries differ between two trees (None: no tree), with the
        old and new entry; chunks the two trees share are skipped unread."""
        if old == new:
            return {}
        before = self._store.raw.tree(old) if old else b""
        after = self._store.raw.tree(new) if new else b""
        shared = set(chunks_of(before)) & set(chunks_of(after))
        a = self._tree_rest(old, before, shared)
        b = self._tree_rest(new, after, shared)
        return {
            name: (a.get(name), b.get(name))
            for name in a.keys() | b.keys()
            if a.get(name) != b.get(name)
        }

    def _tree_rest(
        self, sha: bytes | None, data: TreeData, shared: set[bytes]
    ) -> Mapping[bytes, Entry]:
        if sha is None or not data:
            return {}
        if isinstance(data, bytes):
            return {} if data in shared else self._tree(sha)
        return {
            name: (mode, hexsha)
            for chunk in data.chunks
            if chunk not in shared
            for name, mode, hexsha in parse_tree(chunk, 20)
        }

    def _commit(self, sha: bytes) -> CommitInfo | None:
        cached = self._commits.get(sha)
        if cached is None:
            item = self._store.raw.get(sha)
            if item is None or item[0] != TYPE_COMMIT:
                return None
            cached = self._parse_commit(sha)
            if len(self._commits) > CACHE_LIMIT:
                self._commits.clear()
            self._commits[sha] = cached
        return cached

    def _parse_commit(self, sha: bytes) -> CommitInfo:
        obj = self._store[sha]
        assert isinstance(obj, Commit)
        author_name, author_email = parse_ident(obj.author)
        committer_name, committer_email = parse_ident(obj.committer)
        return CommitInfo(
            id=sha.decode(),
            tree_id=obj.tree.decode(),
            parent_ids=tuple(p.decode() for p in obj.parents),
            message=obj.message.decode("utf-8", "replace"),
            author_name=author_name,
            author_email=author_email,
            authored_date=at_time(obj.author_time, obj.author_timezone),
            committer_name=committer_name,
            committer_email=committer_email,
            committed_date=at_time(obj.commit_time, obj.commit_timezone),
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
            if len(self._links) > CACHE_LIMIT:
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
            found = self._tree_get(entry[1], name)
            if found is None:
                return None
            entry = found
        return entry

    def _entry(self, commit: bytes, parts: Path) -> Entry | None:
        return self._lookup(self._graph(commit)[0], parts)

    def _blob(self, sha: bytes) -> bytes:
        return self._store.raw[sha][1]
