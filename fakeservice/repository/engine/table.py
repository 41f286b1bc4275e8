"""The object table: hex id -> (type number, raw bytes), with large trees kept chunked.

It reads like the plain ``dict`` it replaces (``table[sha]`` is ``(type, raw bytes)``),
so smart HTTP, bundles and fetches use it unchanged, but a tree is stored as
:mod:`~fakeservice.repository.engine.chunks` data: a large tree's raw bytes are made
when read through the mapping and not kept. Trees written in raw form (pushes,
bundles) are cut into chunks as they are stored; the engine stores the trees it makes
with :meth:`ObjectTable.add` as they are. Objects are content-addressed, so two tables
with the same ids hold the same objects.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

from fakeservice.repository.engine.chunks import TreeData, pack, raw_of
from fakeservice.repository.engine.constants import TYPE_TREE

Stored = tuple[int, Any]  # (type number, bytes or, for a tree, TreeData)


class ObjectTable(MutableMapping[bytes, tuple[int, bytes]]):
    """Every object of a repository by hex id (insertion order kept)."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[bytes, tuple[int, Any]] | None = None) -> None:
        if isinstance(items, ObjectTable):
            self._items: dict[bytes, Stored] = dict(items._items)
        else:
            self._items = dict(items) if items is not None else {}

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self._items,))

    # -- the mapping (raw bytes) ---------------------------------------------------------
    def __getitem__(self, sha: bytes) -> tuple[int, bytes]:
        kind, data = self._items[sha]
        return (kind, raw_of(data)) if kind == TYPE_TREE else (kind, data)

    def get(self, sha: bytes, default: Any = None) -> Any:
        item = self._items.get(sha)
        if item is None:
            return default
        return (TYPE_TREE, raw_of(item[1])) if item[0] == TYPE_TREE else item

    def __setitem__(self, sha: bytes, item: tuple[int, bytes]) -> None:
        kind, data = item
        self._items[sha] = (kind, pack(data)) if kind == TYPE_TREE else (kind, data)

    def __delitem__(self, sha: bytes) -> None:
        del self._items[sha]

    def __contains__(self, sha: object) -> bool:
        return sha in self._items

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._items)

    def __reversed__(self) -> Iterator[bytes]:
        return reversed(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ObjectTable):
            return self._items.keys() == other._items.keys()
        if isinstance(other, Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    # -- the engine's access (no raw bytes made) -----------------------------------------
    def kind(self, sha: bytes) -> int | None:
        item = self._items.get(sha)
        return None if item is None else item[0]

    def kinds(self) -> Iterator[tuple[bytes, int]]:
        """(id, type number) of every object."""
        return ((sha, item[0]) for sha, item in self._items.items())

    def tree(self, sha: bytes) -> TreeData:
        """A tree as stored (raw bytes or chunks); ValueError if ``sha`` is not a tree."""
        item = self._items.get(sha)
        if item is None or item[0] != TYPE_TREE:
            raise ValueError(f"{sha!r} is not a tree")
        return item[1]  # type: ignore[no-any-return]

    def add(self, sha: bytes, kind: int, data: Any) -> None:
        """Store an object as made by the engine (a tree as its TreeData), if missing."""
        self._items.setdefault(sha, (kind, data))

    def adopt(self, other: ObjectTable, sha: bytes) -> None:
        """Copy one object from ``other`` as it is stored there (chunks stay shared)."""
        self._items.setdefault(sha, other._items[sha])


def _restore(items: dict[bytes, Stored]) -> ObjectTable:
    table = ObjectTable()
    table._items = items
    return table
