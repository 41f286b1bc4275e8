"""The partitions of a sorted index: small ones as plain sorted lists, big ones as
:class:`~sortedcontainers.SortedList`.

Most partitions hold a handful of entries (the jobs of one pipeline, the members of one
group), where a ``SortedList`` (an object with a ``__dict__`` and three inner lists)
costs several times the entries it holds. :class:`SmallPart` is a list kept in order
with the subset of the ``SortedList`` API the store and the areas use (``add``,
``discard``, ``bisect_left``, ``bisect_right``, ``irange``, ``islice``); an index swaps
it for a :class:`BigPart` once it grows past :data:`SMALL_LIMIT`, where inserting
into one flat list would cost its length. Both carry their partition's key (``pkey``), the one
key object the index stores for every record of the partition.
"""

from __future__ import annotations

import bisect
from collections.abc import Hashable, Iterator
from typing import Any

from sortedcontainers import SortedList

SMALL_LIMIT = 256


class SmallPart(list):  # type: ignore[type-arg]
    """A short partition: a list kept sorted (see the module docstring)."""

    __slots__ = ("pkey",)

    def __init__(self, pkey: Hashable = None, entries: Any = ()) -> None:
        super().__init__(entries)
        self.pkey = pkey

    def add(self, entry: Any) -> None:
        bisect.insort(self, entry)

    def discard(self, entry: Any) -> None:
        at = bisect.bisect_left(self, entry)
        if at < len(self) and self[at] == entry:
            del self[at]

    def __contains__(self, entry: object) -> bool:
        at = bisect.bisect_left(self, entry)
        return at < len(self) and self[at] == entry

    def bisect_left(self, entry: Any) -> int:
        return bisect.bisect_left(self, entry)

    def bisect_right(self, entry: Any) -> int:
        return bisect.bisect_right(self, entry)

    def islice(
        self, start: int | None = None, stop: int | None = None, reverse: bool = False
    ) -> Iterator[Any]:
        chunk = list.__getitem__(self, slice(start, stop))
        return reversed(chunk) if reverse else iter(chunk)

    def irange(
        self,
        minimum: Any = None,
        maximum: Any = None,
        inclusive: tuple[bool, bool] = (True, True),
        reverse: bool = False,
    ) -> Iterator[Any]:
        start, stop = 0, len(self)
        if minimum is not None:
            find = bisect.bisect_left if inclusive[0] else bisect.bisect_right
            start = find(self, minimum)
        if maximum is not None:
            find = bisect.bisect_right if inclusive[1] else bisect.bisect_left
            stop = find(self, maximum)
        return self.islice(start, max(start, stop), reverse)


class BigPart(SortedList):  # type: ignore[misc]
    """A long partition: a ``SortedList`` that knows its key."""

    def __new__(cls, pkey: Hashable = None, entries: Any = ()) -> BigPart:
        return object.__new__(cls)

    def __init__(self, pkey: Hashable = None, entries: Any = ()) -> None:
        super().__init__(entries)
        self.pkey = pkey

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.pkey, list(self)))


Part = SmallPart | BigPart


def new_part(pkey: Hashable, entries: list[Any]) -> SmallPart | BigPart:
    """A partition holding ``entries`` (sorted), small or big by their number."""
    if len(entries) > SMALL_LIMIT:
        return BigPart(pkey, entries)
    return SmallPart(pkey, entries)
