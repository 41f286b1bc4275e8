"""Listeners of one service, reachable from its store.

Areas react to what happens in other areas (a project is deleted, refs moved, a CI job
token is presented) without importing each other: the area that owns the event names it
(``PROJECT_DELETED = "project.deleted"`` in ``projects/models.py``) and calls
:func:`listeners` with the store it works on; the areas that react register a listener
with their service's composition (``setup.listen(PROJECT_DELETED, hook)``, see
:mod:`fakeservice.areas`). The service binds its :class:`Events` to its store once, so
two services in one process can listen differently, and a bare store has no listeners.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from fakeservice.core.store import Store

Listener = Callable[..., Any]


class Events:
    """Listeners by event name, each list in registration order (no duplicates)."""

    def __init__(self) -> None:
        self._by_name: dict[str, list[Listener]] = {}

    def add(self, name: str, listener: Listener) -> None:
        found = self._by_name.setdefault(name, [])
        if listener not in found:
            found.append(listener)

    def of(self, name: str) -> tuple[Listener, ...]:
        return tuple(self._by_name.get(name, ()))


_NONE = Events()
_bound: WeakKeyDictionary[Store, Events] = WeakKeyDictionary()


def bind(store: Store, events: Events) -> None:
    """Make ``events`` the listeners of everything done on ``store``."""
    _bound[store] = events


def listeners(store: Store, name: str) -> tuple[Listener, ...]:
    """The listeners of ``name`` registered for the service that owns ``store``."""
    return _bound.get(store, _NONE).of(name)


# ``listener(store, kind, record, action, user_id, now)``: a record of ``kind`` ("Issue",
# "Note", "Release") was created or changed state (``action``: open, close, reopen,
# create, update); the hooks area turns them into webhook deliveries.
RECORD_EVENT = "record.event"


def announce(
    store: Store, kind: str, record: Any, action: str, user_id: int | None, now: Any
) -> Any:
    """Tell the :data:`RECORD_EVENT` listeners about ``record``; returns it."""
    for listener in listeners(store, RECORD_EVENT):
        listener(store, kind, record, action, user_id, now)
    return record
