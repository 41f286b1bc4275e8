"""Named snapshots kept in memory for the control plane (``POST /_fake/snapshot``).

A snapshot is the bytes of :meth:`FakeService.snapshot` (store and clock). Ids are
``snap-1``, ``snap-2``... unless the caller names one; saving under an existing name
replaces it. At most ``capacity`` snapshots are kept, the oldest dropped first.
"""

from __future__ import annotations

import re
import threading

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
DEFAULT_CAPACITY = 256


class SnapshotError(ValueError):
    """An unknown or badly named snapshot."""


class SnapshotShelf:
    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self._lock = threading.Lock()
        self._items: dict[str, bytes] = {}
        self._next = 0
        self.capacity = capacity

    def save(self, data: bytes, name: str | None = None) -> str:
        if name is not None and not NAME_RE.match(name):
            raise SnapshotError(
                "a snapshot name is 1 to 64 letters, digits, '.', '_' or '-', "
                "starting with a letter or digit"
            )
        with self._lock:
            if name is None:
                self._next += 1
                name = f"snap-{self._next}"
            self._items.pop(name, None)
            self._items[name] = data
            while len(self._items) > self.capacity:
                del self._items[next(iter(self._items))]
            return name

    def get(self, name: str) -> bytes:
        with self._lock:
            found = self._items.get(name)
        if found is None:
            raise SnapshotError(f"unknown snapshot {name!r}")
        return found

    def drop(self, name: str) -> None:
        with self._lock:
            if self._items.pop(name, None) is None:
                raise SnapshotError(f"unknown snapshot {name!r}")

    def ids(self) -> list[str]:
        with self._lock:
            return list(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
