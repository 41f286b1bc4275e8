"""To-dos through raw requests and python-gitlab: marking an issue, the caller's list
with its filters, marking one or all done, and the refusals."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeservice import FakeService

WEBSITE = "/projects/acme%2Fwebsite"
NOW = "2026-01-01T09:00:00Z"


@pytest.fixture
def svc() -> FakeService:
    service = FakeService()
    for title in ("First", "Second"):
        made = service.request(
            "POST", f"{WEBSITE}/issues", json_body={"title": title}, token="alice-token"
        )
        assert made.status == 201
    return service


def todo(svc: FakeService, iid: int, who: str = "alice-token") -> Any:
    return svc.request("POST", f"{WEBSITE}/issues/{iid}/todo", token=who)


def listed(svc: FakeService, who: str = "alice-token", **query: Any) -> list[tuple[int, str]]:
    response = svc.request("GET", "/todos", query=query, token=who)
    assert response.status == 200, response.body
    return [(t["target"]["iid"], t["state"]) for t in response.json()]


def test_issue_todo_shape(svc: FakeService) -> None:
    response = todo(svc, 1)
    assert response.status == 201
    body = response.json()
    assert {k: v for k, v in body.items() if k not in ("target", "author")} == {
        "id": 1,
        "project": {
            "id": 1,
            "name": "Website",
            "name_with_namespace": "ACME / Website",
            "path": "website",
            "path_with_namespace": "acme/website",
        },
        "action_name": "marked",
        "target_type": "Issue",
        "target_url": "http://fakeservice.test/acme/website/-/issues/1",
        "body": "First",
        "state": "pending",
        "created_at": NOW,
        "updated_at": NOW,
    }
    assert (body["author"]["username"], body["target"]["title"]) == ("alice", "First")
    again = todo(svc, 1)
    assert (again.status, again.body) == (304, b"")
    assert listed(svc) == [(1, "pending")]


def test_list_is_the_callers_newest_first_with_filters(svc: FakeService) -> None:
    todo(svc, 1)
    svc.clock.advance(seconds=5)
    todo(svc, 2)
    todo(svc, 2, "carol-token")
    assert listed(svc) == [(2, "pending"), (1, "pending")]
    assert listed(svc, "carol-token") == [(2, "pending")]
    assert listed(svc, type="Issue", action="marked", project_id=1) == [
        (2, "pending"),
        (1, "pending"),
    ]
    assert listed(svc, type="MergeRequest") == []
    assert listed(svc, project_id=2) == []
    assert listed(svc, author_id=1) == []
    group = svc.request("GET", "/groups/acme", token="alice-token").json()["id"]
    assert len(listed(svc, group_id=group)) == 2
    assert listed(svc, group_id=group + 1000) == []


def test_mark_one_and_all_done(svc: FakeService) -> None:
    first = todo(svc, 1).json()["id"]
    todo(svc, 2)
    svc.clock.advance(seconds=60)
    done = svc.request("POST", f"/todos/{first}/mark_as_done", token="alice-token")
    assert done.status == 201
    assert (done.json()["state"], done.json()["updated_at"]) == ("done", "2026-01-01T09:01:00Z")
    assert listed(svc) == [(2, "pending")]
    assert listed(svc, state="done") == [(1, "done")]
    everything = svc.request("POST", "/todos/mark_as_done", token="alice-token")
    assert (everything.status, everything.body) == (204, b"")
    assert listed(svc) == []
    assert listed(svc, state="done") == [(2, "done"), (1, "done")]
    assert todo(svc, 1).status == 201  # a new pending one once the old is done


@pytest.mark.parametrize(
    ("method", "path", "query", "token", "status"),
    [
        ("POST", "/todos/1/mark_as_done", {}, "carol-token", 404),
        ("POST", "/todos/999/mark_as_done", {}, "alice-token", 404),
        ("POST", "/todos/abc/mark_as_done", {}, "alice-token", 400),
        ("GET", "/todos", {"state": "gone"}, "alice-token", 400),
        ("GET", "/todos", {"type": "Wiki"}, "alice-token", 400),
        ("GET", "/todos", {"author_id": "x"}, "alice-token", 400),
        ("GET", "/todos", {}, None, 401),
        ("POST", f"{WEBSITE}/issues/99/todo", {}, "alice-token", 404),
        ("POST", "/projects/acme%2Fsecret-ops%2Fvault/issues/1/todo", {}, "carol-token", 404),
    ],
)
def test_refusals(
    svc: FakeService, method: str, path: str, query: dict[str, str], token: str | None, status: int
) -> None:
    todo(svc, 1)
    response = svc.request(method, path, query=query, token=token)
    assert response.status == status
    assert listed(svc) == [(1, "pending")]


def test_deleted_targets_are_left_out(svc: FakeService) -> None:
    first = todo(svc, 1).json()["id"]
    assert svc.request("DELETE", f"{WEBSITE}/issues/1", token="alice-token").status == 204
    assert listed(svc) == []
    gone = svc.request("POST", f"/todos/{first}/mark_as_done", token="alice-token")
    assert gone.status == 404


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.base_url, private_token="alice-token", session=svc.requests_session())
    issue = gl.projects.get("acme/website", lazy=True).issues.get(1, lazy=True)
    issue.todo()
    [item] = gl.todos.list(get_all=True)
    assert (item.target_type, item.body, item.state) == ("Issue", "First", "pending")
    item.mark_as_done()
    assert item.state == "done"
    issue.todo()
    gl.todos.mark_all_as_done()
    assert gl.todos.list(get_all=True) == []
    assert len(gl.todos.list(state="done", get_all=True)) == 2


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["todo", "done", "all"]), st.sampled_from([1, 2])), max_size=10
    )
)
def test_pending_list_follows_a_model(svc: FakeService, steps: list[tuple[str, int]]) -> None:
    svc.reset()
    for title in ("First", "Second"):
        svc.request("POST", f"{WEBSITE}/issues", json_body={"title": title}, token="alice-token")
    pending: dict[int, int] = {}  # issue iid -> to-do id
    for step, iid in steps:
        if step == "todo":
            response = todo(svc, iid)
            assert response.status == (304 if iid in pending else 201)
            if response.status == 201:
                pending[iid] = response.json()["id"]
        elif step == "done" and iid in pending:
            url = f"/todos/{pending.pop(iid)}/mark_as_done"
            assert svc.request("POST", url, token="alice-token").status == 201
        elif step == "all":
            assert svc.request("POST", "/todos/mark_as_done", token="alice-token").status == 204
            pending.clear()
    assert sorted(listed(svc)) == [(iid, "pending") for iid in sorted(pending)]
