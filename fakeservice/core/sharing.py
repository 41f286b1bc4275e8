"""One object for equal immutable values that many records repeat.

Records made from the same input (the jobs of pipelines run from one CI file, users
whose names are already lower-case) would otherwise each hold their own copy of equal
strings, tuples and frozen specs. :func:`shared` hands back one canonical object per
value from a bounded pool (cleared when full, so it never grows without bound), and
:func:`folded` lower-cases a string without copying one that already is.

Sharing changes no value, only identity: records stay equal to what they were.
Records default rarely-set collections to one shared empty value (:data:`NO_ITEMS`,
:data:`EMPTY_MAP`) and replace it, never change it in place, when one is set.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, NoReturn, TypeVar

import attrs

T = TypeVar("T")

LIMIT = 1 << 16

_pool: dict[tuple[type, Hashable], object] = {}


def shared(value: T) -> T:
    """The pool's object equal to ``value`` (of the same type), ``value`` itself the
    first time. An attrs record holding an unhashable field (a spec with a mapping) is
    pooled by its ``repr``, so pass only records nobody changes in place; other
    unhashable values are handed back as they are."""
    if value is None:
        return value
    key: tuple[type, Hashable] = (type(value), value)  # type: ignore[assignment]
    try:
        found = _pool.get(key)
    except TypeError:
        if not attrs.has(type(value)):
            return value
        key = (type(value), repr(value))  # a frozen spec holding a mapping
        found = _pool.get(key)
    if found is not None:
        return found  # type: ignore[return-value]
    if len(_pool) >= LIMIT:
        _pool.clear()
    _pool[key] = value  # type: ignore[index]
    return value


def folded(text: str) -> str:
    """``text.lower()``, the very same object when ``text`` is lower-case already."""
    lowered = text.lower()
    return text if lowered == text else lowered


class FrozenEmpty(dict):  # type: ignore[type-arg]
    """An empty mapping refusing to be changed in place: the shared default of fields
    that are replaced whole when written (``record.field = {**record.field, k: v}``)."""

    __slots__ = ()

    def _refuse(self, *_args: Any, **_kw: Any) -> NoReturn:
        raise TypeError("a shared empty mapping: assign a new one instead")

    __setitem__ = __delitem__ = update = setdefault = pop = popitem = clear = _refuse
    __ior__ = _refuse


EMPTY_MAP: dict[Any, Any] = FrozenEmpty()
NO_ITEMS: tuple[Any, ...] = ()
