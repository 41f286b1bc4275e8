"""Putting a store back to a pristine state by looking only at what was touched.

:func:`rollback_table` and :func:`rollback_extras` take the live structures and the
pristine state (an unpickled :meth:`Store.snapshot`, never modified here: values are
copied out of it). For every touched key the live value is compared with the pristine
one; only the ones that differ are copied back (a record is re-indexed, a repository
forked), keys that did not exist are removed. The cost follows the touched keys.

A value may define ``unchanged_from(pristine) -> bool`` to answer the comparison more
cheaply than ``==`` (a repository compares its refs and object count, not every object).
"""

from __future__ import annotations

import copy
from typing import Any

from fakeservice.core.tracking import TrackedExtras, TrackedMap, nested

_MISSING: Any = object()


def same(live: Any, pristine: Any) -> bool:
    """Whether ``live`` still equals ``pristine`` (so nothing needs restoring)."""
    if live is pristine:
        return True
    check = getattr(live, "unchanged_from", None)
    if check is not None:
        return bool(check(pristine))
    try:
        return bool(live == pristine)
    except Exception:  # an incomparable value is restored
        return False


def _changed(live: dict[Any, Any], pristine: dict[Any, Any], keys: set[Any]) -> list[Any]:
    found = []
    for key in keys:
        now = dict.get(live, key, _MISSING)
        was = dict.get(pristine, key, _MISSING)
        if now is _MISSING and was is _MISSING:
            continue
        if now is not _MISSING and was is not _MISSING and same(now, was):
            continue
        found.append(key)
    return found


def rollback_table(table: Any, pristine_rows: dict[int, Any]) -> int:
    """Put ``table``'s (a :class:`~fakeservice.core.store.Table`) touched rows (and their
    index entries) back; returns how many."""
    rows = table.rows
    touched = rows.touched
    if not touched:
        return 0
    changed = _changed(rows, pristine_rows, touched)
    for rid in changed:
        table._unindex(rid)
    for rid in changed:
        was = dict.get(pristine_rows, rid, _MISSING)
        if was is _MISSING:
            dict.pop(rows, rid, None)
            continue
        record = copy.deepcopy(was)
        dict.__setitem__(rows, rid, record)
        table._index(record)
    touched.clear()
    return len(changed)


def _rollback_map(live: TrackedMap, pristine: dict[Any, Any]) -> int:
    touched = live.touched
    if not touched:
        return 0
    changed = _changed(live, pristine, touched)
    for key in changed:
        was = dict.get(pristine, key, _MISSING)
        if was is _MISSING:
            dict.pop(live, key, None)
        else:
            dict.__setitem__(live, key, copy.deepcopy(was))
    touched.clear()
    return len(changed)


def rollback_extras(extras: TrackedExtras, pristine: dict[Any, Any]) -> int:
    """Put the touched extras back: per inner key for dict values, else whole values."""
    touched = extras.touched or set()
    replaced = extras.replaced or set()
    count = 0
    for key in set(dict.keys(extras)) | touched | replaced:
        now = dict.get(extras, key, _MISSING)
        was = dict.get(pristine, key, _MISSING)
        if key not in replaced and isinstance(now, TrackedMap) and isinstance(was, dict):
            count += _rollback_map(now, was)
            continue
        if now is _MISSING and was is _MISSING:
            continue
        if now is not _MISSING and was is not _MISSING and same(now, was):
            if isinstance(now, TrackedMap) and now.touched is not None:
                now.touched.clear()
            continue
        count += 1
        if was is _MISSING:
            dict.pop(extras, key, None)
            continue
        value = nested(copy.deepcopy(was))
        if isinstance(value, TrackedMap):
            value.arm()
        dict.__setitem__(extras, key, value)
    extras.arm()
    return count
