"""The editable tree a file commit works on: only the changes, written out at the end.

Each directory the actions reach is a :class:`_Dir`: its stored tree (if any) and the
names changed in it. Reads fall through to the stored tree one entry at a time, and
:meth:`TreeEditor.write` edits only the chunks of the stored trees where the changed
names sort (:func:`fakeservice.repository.engine.chunks.edit`), so a commit's cost is
the changed paths' depth, not the width of their directories.
"""

from __future__ import annotations

from typing import Any, Protocol

from dulwich.objects import Blob

from fakeservice.repository.engine.chunks import TreeData, edit, tree_id
from fakeservice.repository.engine.constants import (
    FILE_EXISTS,
    MODE_DIR,
    TYPE_BLOB,
    TYPE_TREE,
    Entry,
    Path,
)
from fakeservice.repository.engine.paths import bad


class TreeSource(Protocol):
    """Where the editor reads stored trees (the repository's cached reads)."""

    def _tree_get(self, sha: bytes, name: bytes) -> Entry | None: ...

    def _tree_data(self, sha: bytes) -> TreeData: ...


_DIR_MARK: Entry = (MODE_DIR, b"")


class _Dir:
    """A directory being edited: its stored tree (None when new) and its changed names
    (an entry, a :class:`_Dir` reached by the actions, or None for a removed name)."""

    __slots__ = ("base", "changes")

    def __init__(self, base: bytes | None) -> None:
        self.base = base
        self.changes: dict[bytes, Any] = {}


class TreeEditor:
    """An editable view of a tree. Nothing is stored until :meth:`write`."""

    def __init__(self, source: TreeSource, root: bytes | None) -> None:
        self._source = source
        self._root = _Dir(root)
        self.objects: dict[bytes, tuple[int, Any]] = {}

    def _current(self, node: _Dir, name: bytes) -> Any:
        if name in node.changes:
            return node.changes[name]
        return self._source._tree_get(node.base, name) if node.base is not None else None

    def _dir(self, parts: Path, *, create: bool) -> _Dir | None:
        node = self._root
        for name in parts:
            entry = self._current(node, name)
            if isinstance(entry, _Dir):
                child = entry
            elif entry is None:
                if not create:
                    return None
                node.changes[name] = child = _Dir(None)
            elif entry[0] == MODE_DIR:
                node.changes[name] = child = _Dir(entry[1])
            elif create:
                raise bad(FILE_EXISTS)
            else:
                return None
            node = child
        return node

    def get(self, parts: Path) -> Entry | None:
        """The entry at ``parts``: ``(mode, sha)``; a directory has mode :data:`MODE_DIR`."""
        parent = self._dir(parts[:-1], create=False)
        entry = None if parent is None else self._current(parent, parts[-1])
        return _DIR_MARK if isinstance(entry, _Dir) else entry

    def put(self, parts: Path, mode: int, sha: bytes) -> None:
        parent = self._dir(parts[:-1], create=True)
        assert parent is not None
        parent.changes[parts[-1]] = (mode, sha)

    def remove(self, parts: Path) -> None:
        parent = self._dir(parts[:-1], create=False)
        if parent is not None:
            parent.changes[parts[-1]] = None

    def add_blob(self, content: bytes) -> bytes:
        blob = Blob.from_string(content)
        self.objects[blob.id] = (TYPE_BLOB, content)
        return blob.id

    def write(self) -> bytes:
        """Store the changed directories; returns the root tree id."""
        root = self._write(self._root)
        if root is None:
            return self._store(b"")
        return root

    def _write(self, node: _Dir) -> bytes | None:
        removed: list[bytes] = []
        put: dict[bytes, Entry] = {}
        for name, entry in node.changes.items():
            if isinstance(entry, _Dir):
                entry = self._write(entry)
                entry = None if entry is None else (MODE_DIR, entry)
            if entry is None:
                removed.append(name)
            else:
                put[name] = entry
        base = self._source._tree_data(node.base) if node.base is not None else b""
        if not removed and not put and base:
            return node.base
        data = edit(base, removed, put)
        return self._store(data) if data else None

    def _store(self, data: TreeData) -> bytes:
        sha = tree_id(data)
        self.objects[sha] = (TYPE_TREE, data)
        return sha
