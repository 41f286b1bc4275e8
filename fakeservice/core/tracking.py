"""Maps that note which keys were handed out or written since they were armed.

The store keeps every table's rows and its area extras in these maps. While armed (the
``touched`` set is not None; ``recent`` works the same for incremental saves), every key read (``m[k]``, ``get``), written or removed is
added to ``touched``, and iterating values or items adds every key. What was never
touched cannot have changed, so putting the state back (:mod:`fakeservice.core.rollback`)
only looks at the touched keys: its cost follows what a test did, not the state's size.

Every write to any tracked map (a key set, removed, popped or cleared) also moves the
process-wide :attr:`TrackedMap.writes` counter, and so do a table's in-place record
changes (:meth:`fakeservice.core.store.Table.update` and ``reindex``): while it stands
still, no row, counter or extra changed through the store (see
:mod:`fakeservice.core.catchup`).

Pickling drops the bookkeeping: a snapshot holds plain contents only.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, ValuesView
from typing import Any

_MISSING: Any = object()


class TrackedMap(dict):  # type: ignore[type-arg]
    """A dict that records the keys it hands out (see the module docstring)."""

    __slots__ = ("recent", "touched")
    writes = 0  # writes to any tracked map of the process (a class attribute)

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.touched: set[Any] | None = None
        self.recent: set[Any] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))

    def arm(self) -> None:
        """Start (or restart) noting touched keys."""
        self.touched = set()

    def watch(self) -> None:
        """Start (or restart) noting recently touched keys (for an incremental save)."""
        self.recent = set()

    def _note(self, key: Any) -> None:
        touched, recent = self.touched, self.recent
        if touched is not None:
            touched.add(key)
        if recent is not None:
            recent.add(key)

    def __getitem__(self, key: Any) -> Any:
        self._note(key)
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._note(key)
        return dict.get(self, key, default)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._note(key)
        TrackedMap.writes += 1
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        self._note(key)
        TrackedMap.writes += 1
        dict.__delitem__(self, key)

    def pop(self, key: Any, default: Any = _MISSING) -> Any:
        self._note(key)
        TrackedMap.writes += 1
        if default is _MISSING:
            return dict.pop(self, key)
        return dict.pop(self, key, default)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self._note(key)
        TrackedMap.writes += 1
        return dict.setdefault(self, key, default)

    def _touch_all(self) -> None:
        if self.touched is not None:
            self.touched.update(dict.keys(self))
        if self.recent is not None:
            self.recent.update(dict.keys(self))

    def values(self) -> ValuesView[Any]:
        self._touch_all()
        return dict.values(self)

    def items(self) -> ItemsView[Any, Any]:
        self._touch_all()
        return dict.items(self)

    def popitem(self) -> tuple[Any, Any]:
        self._touch_all()
        TrackedMap.writes += 1
        return dict.popitem(self)

    def clear(self) -> None:
        self._touch_all()
        TrackedMap.writes += 1
        dict.clear(self)

    def update(self, *args: Any, **kw: Any) -> None:
        for key, value in dict(*args, **kw).items():
            self[key] = value

    def __ior__(self, other: Any) -> TrackedMap:  # type: ignore[override]
        self.update(other)
        return self


class TrackedExtras(TrackedMap):
    """The store's area extras: a :class:`TrackedMap` whose plain-dict values are kept as
    tracked maps too (``extras["repositories"][project_id]`` is followed per project).

    A value stored under a key (``extras[k] = v``, or ``setdefault`` adding one) marks
    the key as *replaced*: putting it back then restores the whole value.
    """

    __slots__ = ("renewed", "replaced")

    def __init__(self, items: Iterable[tuple[Any, Any]] | dict[Any, Any] = ()) -> None:
        super().__init__()
        self.replaced: set[Any] | None = None  # since arm(), for undo
        self.renewed: set[Any] | None = None  # since watch(), for incremental saves
        pairs = items.items() if isinstance(items, dict) else items
        for key, value in pairs:
            dict.__setitem__(self, key, nested(value))

    def arm(self) -> None:
        super().arm()
        self.replaced = set()
        for value in dict.values(self):
            if isinstance(value, TrackedMap):
                value.arm()

    def watch(self) -> None:
        super().watch()
        self.renewed = set()
        for value in dict.values(self):
            if isinstance(value, TrackedMap):
                value.watch()

    def _store(self, key: Any, value: Any) -> Any:
        value = nested(value)
        if self.touched is not None and isinstance(value, TrackedMap):
            value.arm()
        if self.recent is not None and isinstance(value, TrackedMap):
            value.watch()
        self._replace(key)
        return value

    def _replace(self, key: Any) -> None:
        if self.replaced is not None:
            self.replaced.add(key)
        if self.renewed is not None:
            self.renewed.add(key)

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, self._store(key, value))

    def __delitem__(self, key: Any) -> None:
        self._replace(key)
        super().__delitem__(key)

    def pop(self, key: Any, default: Any = _MISSING) -> Any:
        self._replace(key)
        return super().pop(key, default)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            return self[key]
        self[key] = default
        return dict.__getitem__(self, key)

    def popitem(self) -> tuple[Any, Any]:
        for key in list(dict.keys(self)):
            self._replace(key)
        return super().popitem()

    def clear(self) -> None:
        for key in list(dict.keys(self)):
            self._replace(key)
        super().clear()


def nested(value: Any) -> Any:
    """A plain dict becomes a :class:`TrackedMap` with the same contents (others as is)."""
    if type(value) is dict:
        return TrackedMap(value)
    return value


def rows_map(rows: dict[Any, Any]) -> TrackedMap:
    """``rows`` as a :class:`TrackedMap` (itself when it already is one)."""
    return rows if isinstance(rows, TrackedMap) else TrackedMap(rows)
