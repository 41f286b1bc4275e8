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


@settings(max_examples=200, deadline=None)
@given(st.lists(step, max_size=30))
def test_indexes_match_a_rebuild(steps: list[tuple[str, int, Any, str, list[str]]]) -> None:
    live = table()
    for op, rid, kind, name, tag_list in steps:
        found = live.get(rid)
        if op == "insert" and found is None:
            live.insert(Item(rid, kind, f"{name}{rid}", tag_list))
        elif op == "update" and found is not None:
            live.update(found, kind=kind, name=f"{name}{rid}", tags=tag_list)
        elif op == "delete" and found is not None:
            live.delete(found)
    rebuilt = table()
    for record in sorted(dict.values(live.rows), key=lambda r: r.id):
        rebuilt.insert(Item(record.id, record.kind, record.name, list(record.tags)))
    assert contents(live) == contents(rebuilt)
