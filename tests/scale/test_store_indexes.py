"""Index upkeep in the compact layout: after any sequence of inserts, updates (which
re-index only the entries that moved) and deletes, every index holds exactly what a
table built from scratch with the same records holds."""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from fakeservice.core.store import Table


@attrs.define
class Item:
    id: int
    kind: str | None
    name: str
    tags: list[str]


def table() -> Table[Item]:
    t: Table[Item] = Table("items")
    t.add_unique("name", lambda r: r.name.lower())
    t.add_sorted("kind", lambda r: r.kind)
    t.add_sorted("by_name", lambda r: "all", lambda r: (r.name.lower(),))
    t.add_sorted("kind_by_name", lambda r: r.kind, lambda r: (r.name.lower(),))
    t.add_sorted("tag", lambda r: r.tags or None, multi=True)
    return t


def contents(t: Table[Item]) -> dict[str, Any]:
    return {
        "rows": {rid: attrs.astuple(r) for rid, r in dict.items(t.rows)},
        "unique": {n: (dict(i.data), dict(i.current)) for n, i in t.unique.items()},
        "sorted": {n: {k: list(v) for k, v in i.parts.items()} for n, i in t.sorted.items()},
        "entries": {
            n: {rid: i.entry(rid) for rid in dict.keys(t.rows)} for n, i in t.sorted.items()
        },
    }


kinds = st.sampled_from([None, "a", "b", "c"])
names = st.text(alphabet="abcAB", min_size=1, max_size=3)
tags = st.lists(st.sampled_from(["x", "y", "z"]), max_size=3)
step = st.tuples(
    st.sampled_from(["insert", "update", "delete"]), st.integers(1, 6), kinds, names, tags
)


def apply(t: Table[Item], steps: list[tuple[str, int, Any, str, list[str]]]) -> None:
    for op, rid, kind, name, tag_list in steps:
        found = t.get(rid)
        if op == "insert" and found is None:
            t.insert(Item(rid, kind, f"{name}{rid}", tag_list))
        elif op == "update" and found is not None:
            t.update(found, kind=kind, name=f"{name}{rid}", tags=tag_list)
        elif op == "delete" and found is not None:
            t.delete(found)


@settings(max_examples=200, deadline=None)
@given(st.lists(step, max_size=30))
def test_indexes_match_a_rebuild(steps: list[tuple[str, int, Any, str, list[str]]]) -> None:
    live = table()
    apply(live, steps)
    rebuilt = table()
    for record in sorted(dict.values(live.rows), key=lambda r: r.id):
        rebuilt.insert(Item(record.id, record.kind, record.name, list(record.tags)))
    assert contents(live) == contents(rebuilt)


def layout(t: Table[Item]) -> dict[str, Any]:
    """What :func:`contents` leaves out: the partitions each record is filed under, each
    the partition's own key object (the index's common key may differ: it is the first
    ever seen, which a record inserted and deleted again may have been)."""
    filed = {}
    for name, index in t.sorted.items():
        filed[name] = {rid: index._stored_keys(rid) for rid in dict.keys(t.rows)}
        for keys in filed[name].values():
            assert all(key is index.parts[key].pkey for key in keys)
    return filed


@settings(max_examples=200, deadline=None)
@given(st.lists(step, max_size=15), st.lists(step, max_size=30))
def test_deferred_sorting_matches_one_by_one(
    before: list[tuple[str, int, Any, str, list[str]]],
    inside: list[tuple[str, int, Any, str, list[str]]],
) -> None:
    """Inserts, updates and deletes while a table defers its sorted indexes leave the
    same indexes (partitions, entries, partition keys) as the same steps done one by
    one; unique lookups see every record as it is inserted."""
    deferred, direct = table(), table()
    apply(deferred, before)
    apply(direct, before)
    with deferred.deferring():
        for op, rid, kind, name, tag_list in inside:
            apply(deferred, [(op, rid, kind, name, tag_list)])
            record = deferred.get(rid)
            if record is not None:
                assert deferred.by("name", record.name.lower()) is record
    apply(direct, inside)
    assert deferred.pending is None
    assert contents(deferred) == contents(direct)
    assert layout(deferred) == layout(direct)


def test_deferred_records_are_sorted_in_once_at_the_end() -> None:
    t = table()
    t.insert(Item(1, "a", "b1", ["x"]))
    with t.deferring():
        t.insert(Item(3, "a", "a3", ["x", "y"]))
        t.insert(Item(2, "b", "c2", []))
        assert [r.id for r in t.select("kind", ["a"])] == [1]  # not sorted in yet
        with t.deferring():  # nested: part of the outer one
            t.insert(Item(4, "a", "d4", ["y"]))
        assert t.size("tag", "y") == 0
        assert t.by("name", "d4") is t.get(4)
    assert [r.id for r in t.select("kind", ["a"])] == [1, 3, 4]
    assert [r.id for r in t.select("by_name")] == [3, 1, 2, 4]
    assert [r.id for r in t.select("tag", ["y"])] == [3, 4]
    assert t.sorted["tag"].keyed[3] == ("x", "y")
    # every record of a partition refers to the partition's own key object
    assert t.sorted["kind"].keyed[2] is t.sorted["kind"].parts["b"].pkey


def test_deferred_indexes_are_complete_after_an_exception() -> None:
    t = table()
    try:
        with t.deferring():
            t.insert(Item(1, "a", "a1", []))
            raise RuntimeError("stop")
    except RuntimeError:
        pass
    assert t.pending is None
    assert [r.id for r in t.select("kind", ["a"])] == [1]


def test_bulk_insert_shares_equal_entries_between_indexes() -> None:
    """Like one-by-one inserts, a bulk insert keeps one tuple for a record's equal
    sort entries in indexes of the same order (compact records)."""
    t = table()
    t.bulk_insert([Item(1, "a", "a1", []), Item(2, "b", "b2", [])])
    assert t.sorted["by_name"].current[2] is t.sorted["kind_by_name"].current[2]
