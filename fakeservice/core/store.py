"""The one in-memory store: typed tables, id and iid sequences, ordered indexes, snapshots.

A :class:`Table` keeps its records by id and maintains any number of indexes:

* :class:`UniqueIndex` maps a key (e.g. a lower-cased username) to one record;
* :class:`SortedIndex` splits records into partitions (e.g. by project) each kept in
  sort order (e.g. ``(created_at, id)``), so a page of a list costs O(log n + per_page).

A :class:`Selection` is a lazy, ordered view over one or more partitions with an optional
predicate; the pagination layer slices it. Snapshots pickle the rows, index contents and
sequences (never the index functions), so restore does not rebuild anything.

Rows and extras are :mod:`tracked maps <fakeservice.core.tracking>`: after
:meth:`Store.track`, :meth:`Store.rollback` puts the state back to a pristine snapshot
by looking only at the rows, sequences and extras touched since, so resetting between
tests costs what the test did, not the size of the state.
"""

from __future__ import annotations

import heapq
import itertools
import pickle
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, Protocol, TypeVar

from sortedcontainers import SortedList

from fakeservice.core.parts import SMALL_LIMIT, BigPart, Part, SmallPart, new_part
from fakeservice.core.rollback import rollback_extras, rollback_table
from fakeservice.core.storelock import StoreLock
from fakeservice.core.tracking import TrackedExtras, TrackedMap, rows_map

R = TypeVar("R")
SortKey = tuple[Any, ...]

_MISSING = object()


def no_sort(record: Any) -> SortKey:
    """The default sort of a sorted index: by id alone."""
    return ()


def as_id(key: object) -> int | None:
    """``key`` as a record id when it is written in ASCII digits only (``"42"``, 42), else None.

    ``str.isdigit`` alone also accepts characters such as ``"²"`` that ``int`` refuses.
    """
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    text = str(key)
    return int(text) if text.isascii() and text.isdigit() else None


class UniqueIndex:
    """``key(record) -> hashable`` (or None to leave the record out) mapped to the record id.

    The key a record is filed under is not kept apart (one dict slot per record, not
    two): it is the record's key as last indexed. :meth:`Table.update` drops the old key
    before changing a record; a record changed in place and then re-indexed may leave
    its old key behind, which :meth:`Table.by` checks against the record and ignores.
    """

    def __init__(self, name: str, key: Callable[[Any], Hashable | None]) -> None:
        self.name = name
        self.key = key
        self.data: dict[Hashable, int] = {}

    def add(self, record: Any) -> None:
        key = self.key(record)
        if key is not None:
            self.data[key] = record.id

    def refresh(self, record: Any, old: Any = _MISSING) -> None:
        """Index ``record`` again after a change; ``old`` is its key before the change
        when the caller knows it."""
        key = self.key(record)
        stale = old is not _MISSING and old is not None and old != key
        if stale and self.data.get(old) == record.id:
            del self.data[old]
        if key is not None:
            self.data[key] = record.id

    def remove(self, record: Any) -> None:
        """Drop ``record`` (as it was last indexed)."""
        key = self.key(record)
        if key is not None and self.data.get(key) == record.id:
            del self.data[key]

    def holds(self, key: Hashable, record: Any) -> bool:
        """Whether ``record`` is filed under ``key`` (not a key it left behind)."""
        return self.key(record) == key

    @property
    def current(self) -> dict[int, Hashable]:
        """Record id -> key (computed: for inspection, not kept)."""
        return {rid: key for key, rid in self.data.items()}

    def state(self) -> dict[Hashable, int]:
        return self.data

    def load(self, state: Any) -> None:
        # the earlier layout was (data, current)
        self.data = state[0] if isinstance(state, tuple) else state


class SortedIndex:
    """Records split by ``partition(record)`` and ordered by ``sort(record) + (id,)``.

    ``partition`` may return a single key, ``None`` (record not indexed) or, with
    ``multi=True``, an iterable of keys (the record appears in each partition).

    Memory: a record costs its sort entry (one tuple, shared by its partition, by
    ``current`` and by the table's other indexes with the same ``sort`` function or an
    equal entry) and
    one dict slot; its partition key is stored apart only when it is not the index's
    common one (the first key seen, e.g. ``"all"``). An index ordered by id alone
    (``sort`` left to :func:`no_sort`) keeps no ``current`` at all: its entry is
    ``(id,)``.
    """

    def __init__(
        self,
        name: str,
        partition: Callable[[Any], Any],
        sort: Callable[[Any], SortKey] = no_sort,
        *,
        multi: bool = False,
    ) -> None:
        self.name = name
        self.plain = sort is no_sort
        self.partition = partition
        self.sort = sort
        self.multi = multi
        self.parts: dict[Hashable, Part] = {}
        self.current: dict[int, SortKey] = {}  # record id -> its sort entry
        self.keyed: dict[int, Any] = {}  # record id -> its key(s) when not the common one
        self.common: tuple[Any, ...] = ()  # (the common partition key,) once known

    def _part(self, key: Hashable) -> Part:
        part = self.parts.get(key)
        if part is None:
            part = self.parts[key] = SmallPart(key)
        return part

    def _put(self, key: Hashable, entry: SortKey) -> Hashable:
        """Add ``entry`` to the partition ``key``; returns the partition's own key object
        (the one stored for every record of the partition)."""
        part = self._part(key)
        part.add(entry)
        if type(part) is SmallPart and len(part) > SMALL_LIMIT:
            self.parts[key] = BigPart(part.pkey, part)
        return part.pkey

    def _entry(self, record: Any, shared: dict[Any, SortKey] | None) -> SortKey:
        if shared is not None:
            found = shared.get(self.sort)
            if found is not None:
                return found
        entry = (*self.sort(record), record.id)
        if shared is not None:
            # indexes of other orders giving an equal entry (e.g. created_at and
            # updated_at of a new record) keep the same tuple
            try:
                entry = shared.setdefault(entry, entry)
            except TypeError:  # an unhashable sort key: not shared by value
                pass
            shared[self.sort] = entry
        return entry

    def add(self, record: Any, shared: dict[Any, SortKey] | None = None) -> None:
        """Index ``record``; ``shared`` lets the table's indexes share equal entries."""
        value = self.partition(record)
        if value is None:
            return
        rid = record.id
        if self.multi:
            keys = tuple(dict.fromkeys(value))
            if not keys:
                return
            entry = self._entry(record, shared)
            self.keyed[rid] = tuple(self._put(key, entry) for key in keys)
        else:
            entry = self._entry(record, shared)
            key = self._put(value, entry)
            if not self.common:
                self.common = (key,)
            elif key != self.common[0]:
                self.keyed[rid] = key
        if not self.plain:
            self.current[rid] = entry

    def bulk_add(self, records: list[Any], shared: list[dict[Any, SortKey]]) -> None:
        """Index many new records: their entries grouped by partition, each partition
        sorted once (see :meth:`Table.bulk_insert`); ``shared[i]`` lets the table's
        indexes share the equal entries of ``records[i]``, as :meth:`add` does."""
        partition, sort, multi = self.partition, self.sort, self.multi
        grouped: dict[Hashable, list[SortKey]] = {}  # in the order first seen
        spread: list[tuple[int, tuple[Hashable, ...]]] = []  # multi: each record's keys
        for record, same in zip(records, shared, strict=True):
            value = partition(record)
            if value is None:
                continue
            keys = tuple(dict.fromkeys(value)) if multi else (value,)
            if not keys:
                continue
            entry = same.get(sort) or self._entry(record, same)
            for key in keys:
                entries = grouped.get(key)
                if entries is None:
                    grouped[key] = [entry]
                else:
                    entries.append(entry)
            if multi:
                spread.append((record.id, keys))
        parts, current, keyed = self.parts, self.current, self.keyed
        for key, entries in grouped.items():
            found = parts.get(key)
            merged = sorted([*found, *entries]) if found else sorted(entries)
            part = parts[key] = new_part(found.pkey if found else key, merged)
            if not self.plain:
                current.update((entry[-1], entry) for entry in entries)
            if multi:
                continue
            # every record of a partition refers to the partition's own key object
            if not self.common:
                self.common = (part.pkey,)
            if part.pkey != self.common[0]:
                keyed.update((entry[-1], part.pkey) for entry in entries)
        for rid, keys in spread:
            keyed[rid] = tuple(parts[key].pkey for key in keys)

    def _new_keys(self, record: Any) -> tuple[Hashable, ...]:
        value = self.partition(record)
        if value is None:
            return ()
        return tuple(dict.fromkeys(value)) if self.multi else (value,)

    def _stored_keys(self, record_id: int) -> tuple[Hashable, ...]:
        """The partitions ``record_id`` is in now (without changing anything)."""
        found = self.keyed.get(record_id, _MISSING)
        if found is not _MISSING:
            return found if self.multi else (found,)
        if not self.common:
            return ()
        if self.plain:
            return self.common if (record_id,) in self.part(self.common[0]) else ()
        return self.common if record_id in self.current else ()

    def refresh(self, record: Any, shared: dict[Any, SortKey] | None = None) -> None:
        """Index ``record`` again after a change: nothing to do when its partitions and
        sort entry are the same (the common case: most changes touch few sort keys)."""
        rid = record.id
        keys = self._new_keys(record)
        if keys == self._stored_keys(rid):
            if not keys:
                return
            old = (rid,) if self.plain else self.current.get(rid)
            if self._entry(record, shared) == old:
                return
        self.remove(rid)
        self.add(record, shared)

    def _keys_of(self, record_id: int) -> tuple[Hashable, ...]:
        found = self.keyed.pop(record_id, _MISSING)
        if found is _MISSING:
            return self.common
        return found if self.multi else (found,)

    def remove(self, record_id: int) -> None:
        entry = (record_id,) if self.plain else self.current.pop(record_id, None)
        if entry is None:
            return
        for key in self._keys_of(record_id):
            part = self.parts.get(key)
            if part is not None:
                part.discard(entry)
                if not part:
                    del self.parts[key]

    def part(self, key: Hashable) -> Part:
        return self.parts.get(key) or _EMPTY

    def entry(self, record_id: int) -> SortKey | None:
        if not self.plain:
            return self.current.get(record_id)
        entry = (record_id,)
        keys = self.keyed.get(record_id, _MISSING)
        if keys is _MISSING:
            keys = self.common
        elif not self.multi:
            keys = (keys,)
        return entry if any(entry in self.part(key) for key in keys) else None

    def state(self) -> tuple[Any, ...]:
        return self.parts, self.current, self.keyed, self.common

    def load(self, state: tuple[Any, ...]) -> None:
        if len(state) == 2:  # the earlier layout: id -> (keys, entry)
            parts, old = state
            self.parts, self.common = parts, ()
            self.current = {rid: entry for rid, (_keys, entry) in old.items()}
            self.keyed = {rid: keys if self.multi else keys[0] for rid, (keys, _e) in old.items()}
        else:
            self.parts, self.current, self.keyed, self.common = state
        if any(type(part) not in (SmallPart, BigPart) for part in self.parts.values()):
            # an earlier layout: plain sorted lists, which do not know their key
            self.parts = {key: new_part(key, list(part)) for key, part in self.parts.items()}


_EMPTY: SmallPart = SmallPart()
ALL = "all"


class Observer(Protocol):
    """Told of every change to a table's records, as its indexes are (see
    :meth:`Table.observe`): derived figures (e.g. per-namespace totals) follow every path
    that inserts, edits, deletes, rolls back or replays a record."""

    def added(self, record: Any) -> None: ...

    def changed(self, record: Any) -> None: ...

    def removed(self, record_id: int) -> None: ...


class Table(Generic[R]):
    """Records of one type by id, with their indexes kept in step on every change.

    Every table has the sorted index ``"all"`` (one partition, ordered by id).
    Change records through :meth:`update` (or mutate then call :meth:`reindex`).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.rows: TrackedMap = TrackedMap()
        self.unique: dict[str, UniqueIndex] = {}
        self.sorted: dict[str, SortedIndex] = {}
        self.observers: list[Observer] = []
        self.pending: dict[int, R] | None = None  # inserted, not yet sorted (deferring)
        self.add_sorted("all", lambda r: ALL)

    # -- declaration ---------------------------------------------------------------------
    def add_unique(self, name: str, key: Callable[[Any], Hashable | None]) -> Table[R]:
        self.unique[name] = UniqueIndex(name, key)
        return self

    def add_sorted(
        self,
        name: str,
        partition: Callable[[Any], Any],
        sort: Callable[[Any], SortKey] = no_sort,
        *,
        multi: bool = False,
    ) -> Table[R]:
        self.sorted[name] = SortedIndex(name, partition, sort, multi=multi)
        return self

    def observe(self, observer: Observer) -> Table[R]:
        """Tell ``observer`` of every record indexed, re-indexed or unindexed from now on.
        An observer keeps what it derives in the store's extras, so that snapshots carry
        it and an undo puts it back with the rows."""
        if observer not in self.observers:
            self.observers.append(observer)
        return self

    # -- records -------------------------------------------------------------------------
    def insert(self, record: R) -> R:
        rid = record.id  # type: ignore[attr-defined]
        if rid in self.rows:
            raise KeyError(f"{self.name} {rid} exists")
        self.rows[rid] = record
        if self.pending is not None:
            self.pending[rid] = record
        self._index(record)
        return record

    def bulk_insert(self, records: Iterable[R]) -> int:
        """Insert many new records at once (the fast path for building big states):
        each index sorts its new entries per partition once instead of inserting them one
        by one. Returns how many were inserted; an id already present raises KeyError
        before anything is stored."""
        batch = list(records)
        ids = [record.id for record in batch]  # type: ignore[attr-defined]
        if len(set(ids)) != len(ids) or any(rid in self.rows for rid in ids):
            raise KeyError(f"{self.name}: an id is already present")
        rows = self.rows
        for record in batch:
            dict.__setitem__(rows, record.id, record)  # type: ignore[attr-defined]
        for marks in (rows.touched, rows.recent):  # noted as inserts are (undo, saves)
            if marks is not None:
                marks.update(ids)
        for index in self.unique.values():
            for record in batch:
                index.add(record)
        self._bulk_sorted(batch)
        return len(batch)

    def _bulk_sorted(self, batch: list[R]) -> None:
        shared: list[dict[Any, SortKey]] = [{} for _ in batch]
        for sindex in self.sorted.values():
            sindex.bulk_add(batch, shared)

    @contextmanager
    def deferring(self) -> Iterator[None]:
        """Records inserted inside go into the sorted indexes at the end, all at once
        (each partition sorted once, as :meth:`bulk_insert` does) instead of one by one;
        rows, unique indexes and observers follow every insert and change as usual.

        Inside, selections, sizes and iteration do not show those records yet: for
        loaders that look records up by id or unique key only (a scenario's users and
        projects). A nested use is part of the outer one. The indexes are complete
        when it ends, an exception included."""
        if self.pending is not None:
            yield
            return
        self.pending = {}
        try:
            yield
        finally:
            batch, self.pending = list(self.pending.values()), None
            self._bulk_sorted(batch)

    def get(self, record_id: int | None) -> R | None:
        if record_id is None:
            return None
        return self.rows.get(record_id)

    def by(self, index: str, key: Hashable) -> R | None:
        unique = self.unique[index]
        rid = unique.data.get(key)
        record = None if rid is None else self.rows.get(rid)
        return record if record is not None and unique.holds(key, record) else None

    def update(self, record: R, **changes: Any) -> R:
        olds = [index.key(record) for index in self.unique.values()]
        for attr, value in changes.items():
            setattr(record, attr, value)
        return self.reindex(record, olds)

    def reindex(self, record: R, olds: list[Any] | None = None) -> R:
        """Bring every index in step with ``record`` after it changed (each sorted index
        keeps what it stored, so only the entries that moved are touched; ``olds`` are
        the record's unique keys before the change, see :meth:`update`)."""
        TrackedMap.writes += 1  # a record changed in place: a write all the same
        if record.id not in self.rows:  # type: ignore[attr-defined]
            self._unindex(record.id, record)  # type: ignore[attr-defined]
            self._index(record)
            return record
        for position, index in enumerate(self.unique.values()):
            index.refresh(record, _MISSING if olds is None else olds[position])
        if self.pending is None or record.id not in self.pending:  # type: ignore[attr-defined]
            shared: dict[Any, SortKey] = {}
            for sindex in self.sorted.values():
                sindex.refresh(record, shared)
        for observer in self.observers:
            observer.changed(record)
        return record

    def delete(self, record: R) -> None:
        rid = record.id  # type: ignore[attr-defined]
        self._unindex(rid, record)
        self.rows.pop(rid, None)

    def __len__(self) -> int:
        return len(self.rows)

    def __contains__(self, record_id: object) -> bool:
        return record_id in self.rows

    def __iter__(self) -> Iterator[R]:
        """Every record in id order (not the rows' insertion order, which an undo moves)."""
        rows = self.rows
        return (rows[entry[-1]] for entry in self.sorted[ALL].part(ALL))

    def _index(self, record: R) -> None:
        for index in self.unique.values():
            index.add(record)
        if self.pending is None or record.id not in self.pending:  # type: ignore[attr-defined]
            shared: dict[Any, SortKey] = {}
            for sindex in self.sorted.values():
                sindex.add(record, shared)
        for observer in self.observers:
            observer.added(record)

    def _unindex(self, record_id: int, record: Any = None) -> None:
        """Drop ``record_id`` from every index (``record``: the record as last indexed,
        by default the one stored)."""
        if record is None:
            record = dict.get(self.rows, record_id)
        if record is not None:
            for index in self.unique.values():
                index.remove(record)
        if self.pending is None or self.pending.pop(record_id, None) is None:
            for sindex in self.sorted.values():
                sindex.remove(record_id)
        for observer in self.observers:
            observer.removed(record_id)

    # -- views -----------------------------------------------------------------------------
    def select(
        self,
        index: str = "all",
        keys: Iterable[Hashable] = (ALL,),
        *,
        where: Callable[[R], bool] | None = None,
        reverse: bool = False,
    ) -> Selection[R]:
        """Records in the partitions ``keys`` of ``index``, merged in sort order."""
        sindex = self.sorted[index]
        return Selection(self, [sindex.part(k) for k in keys], where=where, reverse=reverse)

    def size(self, index: str, key: Hashable) -> int:
        """How many records the partition ``key`` of ``index`` holds (no selection made)."""
        return len(self.sorted[index].part(key))

    def ordered(
        self, records: Iterable[R], sort: Callable[[R], SortKey], *, reverse: bool = False
    ) -> Selection[R]:
        """A selection over an explicit set of records (e.g. a user's memberships)."""
        part = SortedList((*sort(r), r.id) for r in records)  # type: ignore[attr-defined]
        return Selection(self, [part], reverse=reverse)

    # -- persistence -------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "unique": {k: v.state() for k, v in self.unique.items()},
            "sorted": {k: v.state() for k, v in self.sorted.items()},
        }

    def load(self, state: dict[str, Any]) -> None:
        if self.pending is not None:
            self.pending.clear()  # the loaded indexes hold every loaded row
        self.rows = rows_map(state["rows"])
        # an index a state holds but the table no longer declares is left out
        for name, data in state["unique"].items():
            if name in self.unique:
                self.unique[name].load(data)
        for name, data in state["sorted"].items():
            if name in self.sorted:
                self.sorted[name].load(data)


class Selection(Generic[R]):
    """A lazy ordered view: disjoint sorted sources merged, then filtered by ``where``.

    Without a predicate, counting is O(1) and a slice of one source is O(log n + k);
    with one, work is proportional to the rows walked, never to the whole table.
    """

    def __init__(
        self,
        table: Table[R],
        sources: list[SortedList],
        *,
        where: Callable[[R], bool] | None = None,
        reverse: bool = False,
        lower: SortKey | None = None,
        upper: SortKey | None = None,
    ) -> None:
        self.table = table
        self.sources = [s for s in sources if s]
        self.where = where
        self.reverse = reverse
        self.lower = lower  # exclusive bounds on the sort entry
        self.upper = upper

    def filter(self, predicate: Callable[[R], bool] | None) -> Selection[R]:
        if predicate is None:
            return self
        if self.where is None:
            combined = predicate
        else:
            first = self.where
            combined = lambda r: first(r) and predicate(r)  # noqa: E731
        return Selection(
            self.table,
            self.sources,
            where=combined,
            reverse=self.reverse,
            lower=self.lower,
            upper=self.upper,
        )

    def after(self, entry: SortKey) -> Selection[R]:
        """Entries strictly after ``entry`` in this selection's direction (keyset)."""
        lower, upper = (self.lower, entry) if self.reverse else (entry, self.upper)
        return Selection(
            self.table,
            self.sources,
            where=self.where,
            reverse=self.reverse,
            lower=lower,
            upper=upper,
        )

    def _entries(self, source: SortedList) -> Iterator[SortKey]:
        if self.lower is None and self.upper is None:
            return iter(reversed(source)) if self.reverse else iter(source)
        return source.irange(self.lower, self.upper, inclusive=(False, False), reverse=self.reverse)

    def _merged(self) -> Iterator[SortKey]:
        if len(self.sources) == 1:
            return self._entries(self.sources[0])
        return heapq.merge(*(self._entries(s) for s in self.sources), reverse=self.reverse)

    def __iter__(self) -> Iterator[R]:
        rows = self.table.rows
        records = (rows[entry[-1]] for entry in self._merged())
        if self.where is not None:
            return filter(self.where, records)
        return records

    def _plain(self) -> bool:
        return self.where is None and self.lower is None and self.upper is None

    def count(self, cap: int | None = None) -> int:
        """How many rows match; with ``cap``, stop counting past it (returns at most cap+1)."""
        if self._plain():
            total = sum(len(s) for s in self.sources)
            return total if cap is None else min(total, cap + 1)
        walked = iter(self)
        if cap is not None:
            walked = itertools.islice(walked, cap + 1)
        return sum(1 for _ in walked)

    def slice(self, start: int, stop: int) -> list[R]:
        # page numbers are unbounded integers; positions past any real table are just empty
        start, stop = min(start, sys.maxsize), min(stop, sys.maxsize)
        if stop <= start:
            return []
        rows = self.table.rows
        if self._plain() and len(self.sources) == 1:
            source = self.sources[0]
            if self.reverse:
                # SortedList.islice(reverse=True) reverses the ascending slice [start:stop];
                # positions counted from the end are [size - stop : size - start].
                size = len(source)
                start, stop = max(size - stop, 0), max(size - start, 0)
            return [rows[e[-1]] for e in source.islice(start, stop, reverse=self.reverse)]
        return list(itertools.islice(iter(self), start, stop))

    def entry_of(self, record: Any, index: str) -> SortKey | None:
        return self.table.sorted[index].entry(record.id)


class Store:
    """All the service's state: tables, sequences and area extras, behind one re-entrant lock."""

    def __init__(self) -> None:
        self.lock = StoreLock()
        self.tables: dict[str, Table[Any]] = {}
        self.sequences: dict[str, int] = {}
        self.iids: TrackedMap = TrackedMap()
        self.extras: TrackedExtras = TrackedExtras()
        self.tracking = False
        self.against: object = None
        self.whole = False  # the whole state was replaced since track(): no rollback
        self.generation = 0  # moves when the state changes other than through its maps

    def table(self, name: str) -> Table[Any]:
        found = self.tables.get(name)
        if found is None:
            found = self.tables[name] = Table(name)
        return found

    def next_id(self, sequence: str) -> int:
        value = self.sequences.get(sequence, 0) + 1
        self.sequences[sequence] = value
        return value

    def next_iid(self, sequence: str, parent: Hashable) -> int:
        key = (sequence, parent)
        value = self.iids.get(key, 0) + 1
        self.iids[key] = value
        return value

    def bump_iid(self, sequence: str, parent: Hashable, at_least: int) -> None:
        key = (sequence, parent)
        self.iids[key] = max(self.iids.get(key, 0), at_least)

    # -- snapshots -------------------------------------------------------------------------
    def snapshot(self) -> bytes:
        with self.lock:
            state = {
                "tables": {name: t.state() for name, t in self.tables.items()},
                "sequences": self.sequences,
                "iids": self.iids,
                "extras": self.extras,
            }
            return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)

    def restore(self, snapshot: bytes) -> None:
        state = pickle.loads(snapshot)
        with self.lock:
            for name, table_state in state["tables"].items():
                self.table(name).load(table_state)
            for name in set(self.tables) - set(state["tables"]):
                self.tables[name].load(Table(name).state() | {"unique": {}, "sorted": {}})
            self.sequences = state["sequences"]
            self.iids = rows_map(state["iids"])
            self.extras = TrackedExtras(state["extras"])
            self.whole = True
            self.generation += 1
            if self.tracking:
                self._arm()

    # -- undo ------------------------------------------------------------------------------
    def track(self, against: object = None) -> None:
        """From now on note what is touched, so :meth:`rollback` can undo it.

        ``against`` names the pristine state the caller will roll back to (any object,
        compared by identity): a rollback to another one is refused."""
        with self.lock:
            self.against = against
            self.tracking = True
            self.whole = False
            self._arm()

    def _arm(self) -> None:
        for table in self.tables.values():
            table.rows.arm()
        self.iids.arm()
        self.extras.arm()

    def rollback(self, pristine: dict[str, Any], against: object = None) -> bool:
        """Back to ``pristine`` (an unpickled :meth:`snapshot`, left unmodified) by
        undoing what was touched since :meth:`track`; False (and nothing done) when that
        is not possible (not tracking, tracking against another state, or the whole state
        was replaced since)."""
        with self.lock:
            if not self.tracking or self.whole or self.against is not against:
                return False
            tables = pristine["tables"]
            for name, table in self.tables.items():
                rows = tables[name]["rows"] if name in tables else {}
                rollback_table(table, rows)
            self.sequences = dict(pristine["sequences"])
            _rollback_counters(self.iids, pristine["iids"])
            rollback_extras(self.extras, pristine["extras"])
            self._arm()
            self.generation += 1
            return True


def _rollback_counters(live: TrackedMap, pristine: dict[Any, int]) -> None:
    for key in live.touched or ():
        was = pristine.get(key)
        if was is None:
            dict.pop(live, key, None)
        else:
            dict.__setitem__(live, key, was)
