"""Compact records: small index partitions behave as sorted lists, equal immutable
values are shared, the kept initial state is compressed, and a unique index ignores a
key a record left behind."""

from __future__ import annotations

import pickle

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sortedcontainers import SortedList

from fakeservice import FakeService
from fakeservice.core.packing import packed, unpacked
from fakeservice.core.parts import SMALL_LIMIT, BigPart, SmallPart
from fakeservice.core.sharing import EMPTY_MAP, folded, shared
from fakeservice.core.store import Table

TOKEN = "root-token"

entries = st.tuples(st.integers(0, 20), st.integers(0, 5))
ops = st.lists(st.tuples(st.sampled_from(["add", "discard"]), entries), max_size=60)
bound = st.none() | entries


@settings(max_examples=200, deadline=None)
@given(ops, bound, bound, st.booleans(), st.booleans(), st.booleans())
def test_small_part_answers_as_a_sorted_list(
    steps: list[tuple[str, tuple[int, int]]],
    low: tuple[int, int] | None,
    high: tuple[int, int] | None,
    low_in: bool,
    high_in: bool,
    reverse: bool,
) -> None:
    small, model = SmallPart("k"), SortedList()
    for op, entry in steps:
        getattr(small, op)(entry)
        getattr(model, op)(entry)
    assert list(small) == list(model)
    probe = low or (0, 0)
    assert (probe in small) == (probe in model)
    assert small.bisect_left(probe) == model.bisect_left(probe)
    assert small.bisect_right(probe) == model.bisect_right(probe)
    inclusive = (low_in, high_in)
    assert list(small.irange(low, high, inclusive, reverse)) == list(
        model.irange(low, high, inclusive, reverse)
    )
    assert list(small.islice(1, 4, reverse)) == list(model.islice(1, 4, reverse))


def test_a_partition_grows_into_a_sorted_list_and_keeps_its_key() -> None:
    table: Table[Item] = Table("items")
    table.add_sorted("by_kind", lambda r: (r.kind, "x"))
    for rid in range(1, SMALL_LIMIT + 3):
        table.insert(Item(rid, "a", f"n{rid}"))
    part = table.sorted["by_kind"].part(("a", "x"))
    assert isinstance(part, BigPart)
    assert part.pkey == ("a", "x")
    assert [e[-1] for e in part] == list(range(1, SMALL_LIMIT + 3))
    copied = pickle.loads(pickle.dumps(part))
    assert isinstance(copied, BigPart) and copied.pkey == ("a", "x")
    assert list(copied) == list(part)


@attrs.define
class Item:
    id: int
    kind: str
    name: str


def test_records_of_one_partition_share_its_key_object() -> None:
    table: Table[Item] = Table("items")
    table.add_sorted("kind", lambda r: (r.kind, 1))
    table.insert(Item(1, "a", "x"))
    table.insert(Item(2, "b", "y"))
    table.insert(Item(3, "b", "z"))
    index = table.sorted["kind"]
    assert index.keyed[2] is index.keyed[3] is index.part(("b", 1)).pkey


def test_a_unique_index_ignores_a_key_left_behind() -> None:
    table: Table[Item] = Table("items")
    table.add_unique("name", lambda r: r.name.lower())
    item = table.insert(Item(1, "a", "Old"))
    item.name = "New"  # changed in place, then re-indexed without its old key
    table.reindex(item)
    assert table.by("name", "old") is None
    assert table.by("name", "new") is item
    table.update(item, name="Newer")  # through update, the old key goes
    assert "new" not in table.unique["name"].data
    assert table.by("name", "newer") is item


def test_shared_values_are_one_object() -> None:
    first, second = "".join(["bu", "ild"]), "".join(["bui", "ld"])
    assert first is not second
    assert shared(first) is shared(second)
    assert shared((1, "a")) is shared((1, "a"))
    assert shared(True) is True and shared(1) == 1 and type(shared(1)) is int
    assert shared([1]) == [1]  # unhashable, handed back
    assert shared(None) is None


def test_folded_keeps_a_lower_case_string() -> None:
    text = "".join(["ali", "ce"])
    assert folded(text) is text
    assert folded("Alice") == "alice"


def test_the_shared_empty_mapping_refuses_changes() -> None:
    with pytest.raises(TypeError):
        EMPTY_MAP["k"] = "v"
    with pytest.raises(TypeError):
        EMPTY_MAP.update(k="v")
    assert EMPTY_MAP == {} and pickle.loads(pickle.dumps(EMPTY_MAP)) == {}


def test_packed_bytes_round_trip_and_plain_bytes_pass() -> None:
    data = pickle.dumps({"a": list(range(100))})
    assert unpacked(packed(data)) == data
    assert unpacked(data) == data
    assert len(packed(data * 50)) < len(data * 50)


def test_custom_attributes_do_not_leak_between_records_through_the_shared_default() -> None:
    svc = FakeService()
    put = svc.request(
        "PUT", "/users/2/custom_attributes/team", token=TOKEN, json_body={"value": "blue"}
    )
    assert put.status == 200, put.body
    other = svc.request("GET", "/users/3/custom_attributes", token=TOKEN)
    assert other.status == 200 and other.json() == []
    mine = svc.request("GET", "/users/2/custom_attributes", token=TOKEN)
    assert mine.json() == [{"key": "team", "value": "blue"}]
    gone = svc.request("DELETE", "/users/2/custom_attributes/team", token=TOKEN)
    assert gone.status == 204
    assert svc.request("GET", "/users/2/custom_attributes", token=TOKEN).json() == []


def test_the_initial_state_is_kept_compressed_and_reset_restores_it() -> None:
    svc = FakeService()
    assert svc._initial.startswith(b"FSZ1")
    before = svc.request("GET", "/users?per_page=100", token=TOKEN).body
    svc.request(
        "POST",
        "/users",
        token=TOKEN,
        json_body={"username": "newbie", "name": "N", "email": "n@x.test", "password": "secret123"},
    )
    svc.restore(svc._initial)
    assert svc.request("GET", "/users?per_page=100", token=TOKEN).body == before
    plain = FakeService()
    plain.restore(svc.snapshot())  # uncompressed snapshot bytes still restore
    assert plain.request("GET", "/users?per_page=100", token=TOKEN).body == before


@attrs.define
class Tagged:
    id: int
    kind: str | None
    name: str
    tags: tuple[str, ...]


def tagged_table() -> Table[Tagged]:
    table: Table[Tagged] = Table("tagged")
    table.add_unique("name", lambda r: r.name.lower())
    table.add_sorted("kind", lambda r: r.kind)
    table.add_sorted("kind_by_name", lambda r: r.kind, lambda r: (r.name.lower(),))
    table.add_sorted("tag", lambda r: r.tags or None, multi=True)
    return table


def index_contents(table: Table[Tagged]) -> dict[str, object]:
    return {
        "rows": dict(dict.items(table.rows)),
        "unique": {n: dict(i.data) for n, i in table.unique.items()},
        "sorted": {n: {k: list(v) for k, v in i.parts.items()} for n, i in table.sorted.items()},
        "entries": {
            n: {rid: i.entry(rid) for rid in dict.keys(table.rows)} for n, i in table.sorted.items()
        },
    }


record_specs = st.lists(
    st.tuples(st.sampled_from([None, "a", "b"]), st.lists(st.sampled_from("xyz"), max_size=2)),
    max_size=40,
)


@settings(max_examples=100, deadline=None)
@given(record_specs, st.integers(0, 40))
def test_bulk_insert_indexes_as_inserting_one_by_one(
    specs: list[tuple[str | None, list[str]]], split: int
) -> None:
    records = [
        Tagged(n + 1, kind, f"N{n:03d}", tuple(tags)) for n, (kind, tags) in enumerate(specs)
    ]
    one_by_one, bulk = tagged_table(), tagged_table()
    for record in records:
        one_by_one.insert(attrs.evolve(record))
    for record in records[:split]:
        bulk.insert(attrs.evolve(record))
    assert bulk.bulk_insert(attrs.evolve(r) for r in records[split:]) == len(records[split:])
    assert index_contents(bulk) == index_contents(one_by_one)


def test_bulk_insert_refuses_a_present_id_and_stores_nothing() -> None:
    table = tagged_table()
    table.insert(Tagged(1, "a", "one", ()))
    with pytest.raises(KeyError):
        table.bulk_insert([Tagged(2, "a", "two", ()), Tagged(1, "b", "dup", ())])
    assert sorted(dict.keys(table.rows)) == [1]
