"""What changed since the last incremental save, as a small picklable delta.

:func:`collect` reads the ``recent`` keys of the store's tracked maps (rows of every
table, iids, extras: see :mod:`fakeservice.core.tracking`), turns them into a delta
(the current value of each, or :data:`GONE`) and starts watching afresh. Its cost
follows what was touched since the last call, not the state's size. :func:`apply`
replays a delta onto a store whose tables are installed: records go in through the
table, so every index is rebuilt for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.core.tracking import TrackedMap, nested

if TYPE_CHECKING:
    from fakeservice.core.store import Store

GONE = "__fakeservice_gone__"  # a key removed (a string: pickles and compares simply)


def _recent(live: TrackedMap) -> dict[Any, Any]:
    keys = live.recent or set()
    return {key: dict.get(live, key, GONE) for key in keys}


def collect(store: Store) -> dict[str, Any]:
    """The delta since the last :func:`collect` (or :func:`watch`), and watch again."""
    with store.lock:
        rows = {}
        for name, table in store.tables.items():
            found = _recent(table.rows)
            if found:
                rows[name] = found
        extras: dict[Any, Any] = {}
        inner: dict[Any, Any] = {}
        top = store.extras.recent or set()
        renewed = store.extras.renewed or set()
        for key in set(dict.keys(store.extras)) | top:
            value = dict.get(store.extras, key, GONE)
            if key in renewed:
                extras[key] = dict(value) if isinstance(value, TrackedMap) else value
            elif isinstance(value, TrackedMap):
                found = _recent(value)
                if found:
                    inner[key] = found
            elif key in top:
                extras[key] = value
        delta = {
            "rows": rows,
            "sequences": dict(store.sequences),
            "iids": _recent(store.iids),
            "extras": extras,
            "inner": inner,
        }
        watch(store)
        return delta


def watch(store: Store) -> None:
    """Start noting changes for the next :func:`collect`."""
    for table in store.tables.values():
        table.rows.watch()
    store.iids.watch()
    store.extras.watch()


def apply(store: Store, delta: dict[str, Any]) -> None:
    """Replay ``delta`` (from :func:`collect`) onto ``store``."""
    with store.lock:
        for name, changed in delta["rows"].items():
            table = store.table(name)
            for rid, record in changed.items():
                if dict.__contains__(table.rows, rid):
                    table._unindex(rid)
                    dict.pop(table.rows, rid)
                if not gone(record):
                    table.insert(record)
        store.sequences = dict(delta["sequences"])
        for key, value in delta["iids"].items():
            _put(store.iids, key, value)
        for key, value in delta["extras"].items():
            _put(store.extras, key, nested(value))
        for key, changed in delta["inner"].items():
            target = dict.get(store.extras, key)
            if not isinstance(target, dict):
                target = nested({})
                dict.__setitem__(store.extras, key, target)
            for inner_key, value in changed.items():
                _put(target, inner_key, value)


def gone(value: Any) -> bool:
    return isinstance(value, str) and value == GONE


def _put(target: dict[Any, Any], key: Any, value: Any) -> None:
    if gone(value):
        dict.pop(target, key, None)
    else:
        dict.__setitem__(target, key, value)
