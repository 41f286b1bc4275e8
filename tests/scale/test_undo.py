"""Undoing a test's changes: ``reset`` rolls back only what was touched, to the same state
a full restore gives (records, every index, sequences, iids, extras, repositories, clock).
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeservice import FakeService
from fakeservice.core.store import Store, Table
from fakeservice.core.tracking import TrackedExtras, TrackedMap
from fakeservice.service import ServiceTemplate

TOKEN = "root-token"
_template: list[ServiceTemplate] = []


def service() -> FakeService:
    if not _template:
        _template.append(FakeService().template())
    return FakeService.from_template(_template[0])


def table_state(table: Table[Any]) -> dict[str, Any]:
    return {
        "rows": dict(sorted(dict.items(table.rows))),
        "unique": {n: (dict(i.data), dict(i.current)) for n, i in table.unique.items()},
        "sorted": {
            n: ({k: list(v) for k, v in i.parts.items()}, dict(i.current))
            for n, i in table.sorted.items()
        },
    }


def plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: plain(v) for k, v in dict.items(value)}
    return value


def state_of(svc: FakeService) -> dict[str, Any]:
    """A deep copy of everything the service holds (records are mutable)."""
    store = svc.store
    return copy.deepcopy(
        {
            "tables": {name: table_state(t) for name, t in store.tables.items()},
            "sequences": dict(store.sequences),
            "iids": dict(dict.items(store.iids)),
            "extras": plain(store.extras),
            "clock": svc.clock.state(),
        }
    )


def create_user(svc: FakeService, name: str) -> None:
    body = {"username": name, "name": name, "email": f"{name}@x.test", "password": "long-enough-1"}
    svc.request("POST", "/users", token=TOKEN, json_body=body)


def edit_user(svc: FakeService, name: str) -> None:
    svc.request("PUT", "/users/2", token=TOKEN, json_body={"name": name, "bio": name})


def delete_user(svc: FakeService, name: str) -> None:
    svc.request("DELETE", f"/users/{3 + len(name) % 5}", token=TOKEN)


def create_project(svc: FakeService, name: str) -> None:
    svc.request("POST", "/projects", token=TOKEN, json_body={"name": name, "topics": [name]})


def edit_project(svc: FakeService, name: str) -> None:
    body = {"description": name, "topics": [name, "x"]}
    svc.request("PUT", "/projects/acme%2Fwebsite", token=TOKEN, json_body=body)


def delete_project(svc: FakeService, name: str) -> None:
    svc.request("DELETE", f"/projects/oss%2Flib-{1 + len(name) % 9:02d}", token=TOKEN)


def star(svc: FakeService, name: str) -> None:
    svc.request("POST", f"/projects/oss%2Flib-{1 + len(name) % 9:02d}/star", token=TOKEN)


def commit_file(svc: FakeService, name: str) -> None:
    body = {"branch": "main", "content": name, "commit_message": f"add {name}"}
    svc.request("POST", f"/projects/1/repository/files/{name}.txt", token=TOKEN, json_body=body)


def branch(svc: FakeService, name: str) -> None:
    svc.request("POST", f"/projects/1/repository/branches?branch={name}&ref=main", token=TOKEN)


def pipeline(svc: FakeService, name: str) -> None:
    svc.request("POST", "/projects/1/pipeline", token=TOKEN, json_body={"ref": "main"})
    svc.runner.set_mode("instant")


def custom_attribute(svc: FakeService, name: str) -> None:
    svc.request("PUT", f"/users/2/custom_attributes/{name}", token=TOKEN, json_body={"value": name})


def advance(svc: FakeService, name: str) -> None:
    svc.clock.advance(seconds=len(name) * 60)


def read_lists(svc: FakeService, name: str) -> None:
    for path in ("/users?per_page=100", "/projects?per_page=100", "/projects/1/pipelines"):
        svc.request("GET", path, token=TOKEN)


ACTIONS = [
    create_user,
    edit_user,
    delete_user,
    create_project,
    edit_project,
    delete_project,
    star,
    commit_file,
    branch,
    pipeline,
    custom_attribute,
    advance,
    read_lists,
]
names = st.text(alphabet="abcdefgh", min_size=1, max_size=6)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(ACTIONS), names), max_size=8))
def test_reset_undoes_any_sequence_of_requests_exactly(steps: list[tuple[Any, str]]) -> None:
    svc = service()
    before = state_of(svc)
    for action, name in steps:
        action(svc, name)
    svc.reset()
    assert state_of(svc) == before
    assert not svc.server_errors
    # and again, from the rolled-back state
    for action, name in steps:
        action(svc, name)
    svc.reset()
    assert state_of(svc) == before


def test_responses_after_an_undo_are_byte_identical_to_a_fresh_service() -> None:
    svc = service()
    for action in ACTIONS:
        action(svc, "abc")
    svc.reset()
    fresh = service()
    for path in (
        "/users?per_page=100",
        "/projects?per_page=100&order_by=id",
        "/projects/1/repository/tree",
    ):
        assert (
            svc.request("GET", path, token=TOKEN).body
            == fresh.request("GET", path, token=TOKEN).body
        )
    for svc_ in (svc, fresh):
        create_user(svc_, "again")
    assert (
        svc.request("GET", "/users/username/again", token=TOKEN).body
        == fresh.request("GET", "/users/username/again", token=TOKEN).body
    )


def test_reset_touches_only_what_the_test_read_or_wrote() -> None:
    svc = service()
    svc.request("GET", "/users/2", token=TOKEN)
    users = svc.store.tables["users"].rows
    assert users.touched is not None and 2 in users.touched
    assert len(users.touched) < 5  # the caller and the user read, not every user
    svc.reset()
    assert users.touched == set()


def test_a_whole_restore_makes_reset_fall_back_to_the_full_snapshot() -> None:
    svc = service()
    before = state_of(svc)
    create_user(svc, "kept")
    saved = svc.save_snapshot("mid")
    create_user(svc, "later")
    svc.restore(saved)
    assert svc.store.whole
    svc.reset()
    assert state_of(svc) == before
    assert not svc.store.whole


def test_tracked_maps_pickle_as_their_contents_only() -> None:
    rows = TrackedMap({1: "a"})
    rows.arm()
    rows.get(1)
    copy = pickle.loads(pickle.dumps(rows))
    assert copy == {1: "a"} and copy.touched is None
    extras = TrackedExtras({"repos": {1: "r"}})
    assert isinstance(dict.__getitem__(extras, "repos"), TrackedMap)


def test_extras_replaced_during_a_test_come_back_whole() -> None:
    store = Store()
    store.extras["stars"] = {1: {2}}
    pristine = pickle.loads(store.snapshot())
    store.track()
    store.extras["stars"] = {9: {9}}
    store.extras.setdefault("new", {})[1] = 1
    store.extras["stars"][1] = {3}
    assert store.rollback(pristine)
    assert plain(store.extras) == {"stars": {1: {2}}}


def test_iids_come_back() -> None:
    store = Store()
    store.next_iid("pipelines", 1)
    pristine = pickle.loads(store.snapshot())
    store.track()
    store.next_iid("pipelines", 1)
    store.next_iid("pipelines", 2)
    assert store.rollback(pristine)
    assert dict(store.iids) == {("pipelines", 1): 1}
