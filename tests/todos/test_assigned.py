"""``assigned`` to-dos: updates adding assignees to issues and merge requests."""

from __future__ import annotations

from typing import Any

from fakeservice import FakeService

WEBSITE = "/projects/acme%2Fwebsite"


def uid(svc: FakeService, username: str) -> int:
    return svc.request("GET", "/users", query={"username": username}, token="root-token").json()[0][
        "id"
    ]


def todos_of(svc: FakeService, token: str) -> list[tuple[str, str, str, str]]:
    response = svc.request("GET", "/todos", token=token)
    assert response.status == 200, response.body
    return [
        (t["action_name"], t["target_type"], t["author"]["username"], t["body"])
        for t in response.json()
    ]


def put(svc: FakeService, path: str, fields: dict[str, Any]) -> None:
    response = svc.request("PUT", path, json_body=fields, token="alice-token")
    assert response.status == 200, response.body


def test_new_assignees_get_a_todo_once() -> None:
    svc = FakeService()
    svc.request("POST", f"{WEBSITE}/issues", json_body={"title": "Fix it"}, token="alice-token")
    carol, alice = uid(svc, "carol"), uid(svc, "alice")
    put(svc, f"{WEBSITE}/issues/1", {"assignee_ids": [carol, alice]})
    assert todos_of(svc, "carol-token") == [("assigned", "Issue", "alice", "Fix it")]
    assert todos_of(svc, "alice-token") == []  # no to-do for assigning oneself
    put(svc, f"{WEBSITE}/issues/1", {"assignee_ids": []})
    put(svc, f"{WEBSITE}/issues/1", {"assignee_ids": [carol]})
    assert len(todos_of(svc, "carol-token")) == 1  # pending already: no second one
    put(svc, f"{WEBSITE}/issues/1", {"title": "Fix it now"})
    assert todos_of(svc, "carol-token") == [("assigned", "Issue", "alice", "Fix it now")]


def test_merge_request_assignees() -> None:
    svc = FakeService()
    made = svc.request(
        "POST",
        f"{WEBSITE}/merge_requests",
        json_body={"source_branch": "feature/dark-mode", "target_branch": "main", "title": "Dark"},
        token="alice-token",
    )
    assert made.status == 201, made.body
    put(svc, f"{WEBSITE}/merge_requests/{made.json()['iid']}", {"assignee_id": uid(svc, "carol")})
    response = svc.request("GET", "/todos", query={"type": "MergeRequest"}, token="carol-token")
    [todo] = response.json()
    assert (todo["action_name"], todo["target"]["title"], todo["target_url"]) == (
        "assigned",
        "Dark",
        made.json()["web_url"],
    )
