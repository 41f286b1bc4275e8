"""The editable tree a file commit works on: lazily loaded, written out at the end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dulwich.objects import Blob, Tree

from fakeservice.repository.engine.constants import (
    FILE_EXISTS,
    MODE_DIR,
    TYPE_BLOB,
    TYPE_TREE,
    Entry,
    Path,
)
from fakeservice.repository.engine.paths import bad

ReadTree = Callable[[bytes], dict[bytes, Entry]]


_DIR_MARK: Entry = (MODE_DIR, b"")


class TreeEditor:
    """A lazily loaded, editable copy of a tree. Nothing is stored until :meth:`write`."""

    def __init__(self, read_tree: ReadTree, root: bytes | None) -> None:
        self._read_tree = read_tree
        self._root: dict[bytes, Any] = dict(read_tree(root)) if root else {}
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
                node[name] = child = dict(self._read_tree(entry[1]))
            elif create:
                raise bad(FILE_EXISTS)
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
