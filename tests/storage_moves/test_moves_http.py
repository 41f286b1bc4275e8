"""Repository storage moves over raw HTTP: the three bulk schedules, the list and detail
endpoints, one project's moves, validation, the move machine on the clock (timed and
manual modes) and the read-only repository while a move runs."""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService

from .conftest import READ_ONLY, background

MOVES = "/projects/1/repository_storage_moves"
IDENTITY = (
    "id",
    "description",
    "name",
    "name_with_namespace",
    "path",
    "path_with_namespace",
    "created_at",
)


def write_file(svc: FakeService, name: str = "NEW.md") -> Any:
    return call(
        svc,
        "POST",
        f"/projects/1/repository/files/{name}",
        json_body={"branch": "main", "content": "hi\n", "commit_message": "add"},
    )


def storage_of(svc: FakeService, project: int = 1) -> str:
    return body(call(svc, "GET", f"/projects/{project}"))["repository_storage"]


def test_instant_move_finishes_at_once(svc: FakeService) -> None:
    assert body(call(svc, "GET", "/project_repository_storage_moves")) == []
    created = call(svc, "POST", MOVES, json_body={"destination_storage_name": "storage2"})
    assert created.status == 201
    move = body(created)
    project = body(call(svc, "GET", "/projects/1"))
    assert move == {
        "id": 1,
        "created_at": "2026-01-01T09:00:00Z",
        "state": "finished",
        "source_storage_name": "default",
        "destination_storage_name": "storage2",
        "project": {key: project[key] for key in IDENTITY},
    }
    assert storage_of(svc) == "storage2"
    assert body(call(svc, "GET", MOVES)) == [move]
    assert body(call(svc, "GET", f"{MOVES}/1")) == move
    assert body(call(svc, "GET", "/project_repository_storage_moves/1")) == move
    on_new = body(call(svc, "GET", "/projects", query={"repository_storage": "storage2"}))
    assert [p["path_with_namespace"] for p in on_new] == ["acme/website"]


def test_without_destination_the_weights_choose(svc: FakeService) -> None:
    move = body(call(svc, "POST", MOVES))
    assert move["destination_storage_name"] == "storage2"  # the source is left out
    again = body(call(svc, "POST", MOVES))
    assert (again["source_storage_name"], again["destination_storage_name"]) == (
        "storage2",
        "default",
    )


def test_timed_move_walks_every_state_and_is_read_only_meanwhile(svc: FakeService) -> None:
    background(svc, mode="timed", step_seconds=10)
    move = body(call(svc, "POST", MOVES, json_body={"destination_storage_name": "storage2"}))
    assert move["state"] == "scheduled"
    refused = write_file(svc)
    assert (refused.status, body(refused)) == (400, {"message": READ_ONLY})
    branch = call(
        svc, "POST", "/projects/1/repository/branches", query={"branch": "x", "ref": "main"}
    )
    assert (branch.status, body(branch)) == (400, {"message": READ_ONLY})
    states = []
    for _ in range(4):
        svc.advance_clock(seconds=10)
        states.append(body(call(svc, "GET", f"{MOVES}/{move['id']}"))["state"])
        if states[-1] == "started":
            assert write_file(svc).status == 400
            assert storage_of(svc) == "default"
    assert states == ["started", "replicated", "finished", "finished"]
    assert storage_of(svc) == "storage2"
    assert write_file(svc).status == 201


def test_steps_run_at_their_due_time_however_far_the_clock_jumps(svc: FakeService) -> None:
    background(svc, mode="timed", step_seconds=5)
    call(svc, "POST", MOVES, json_body={"destination_storage_name": "storage2"})
    svc.advance_clock(hours=3)
    state = body(call(svc, "GET", "/_fake/storage_moves/1", None))
    assert state["machine_state"] == "finished"
    assert state["due_at"] is None
    project = body(call(svc, "GET", "/projects/1"))
    assert project["repository_storage"] == "storage2"


def test_manual_mode_is_driven_one_event_at_a_time(svc: FakeService) -> None:
    background(svc, mode="manual")
    call(svc, "POST", MOVES, json_body={"destination_storage_name": "storage2"})
    svc.advance_clock(hours=1)
    control = "/_fake/storage_moves/1"
    assert body(call(svc, "GET", control, None))["events"] == ["start", "fail"]
    fired = call(svc, "POST", control + "/fire", None, json_body={"event": "start"})
    assert body(fired)["state"] == "started"
    illegal = call(svc, "POST", control + "/fire", None, json_body={"event": "finish_cleanup"})
    assert illegal.status == 409
    assert "cannot finish_cleanup from started" in body(illegal)["error"]
    assert call(svc, "POST", control + "/fire", None, json_body={"event": "fly"}).status == 400
    assert (
        call(svc, "POST", "/_fake/storage_moves/99/fire", None, json_body={"event": "start"}).status
        == 404
    )
    for event in ("finish_replication", "fail"):
        call(svc, "POST", control + "/fire", None, json_body={"event": event})
    assert body(call(svc, "GET", f"{MOVES}/1"))["state"] == "cleanup failed"
    assert storage_of(svc) == "storage2"
    assert write_file(svc).status == 201


def test_a_failed_copy_leaves_the_project_where_it_was(svc: FakeService) -> None:
    background(svc, mode="manual")
    call(svc, "POST", MOVES, json_body={"destination_storage_name": "storage2"})
    assert write_file(svc).status == 400
    call(svc, "POST", "/_fake/storage_moves/1/fire", None, json_body={"event": "fail"})
    assert body(call(svc, "GET", f"{MOVES}/1"))["state"] == "failed"
    assert storage_of(svc) == "default"
    assert write_file(svc).status == 201


def test_validation(svc: FakeService) -> None:
    unknown = call(svc, "POST", MOVES, json_body={"destination_storage_name": "nfs-9"})
    assert (unknown.status, body(unknown)) == (
        400,
        {"message": {"destination_storage_name": ["is not included in the list"]}},
    )
    background(svc, mode="manual")
    call(svc, "POST", MOVES, json_body={"destination_storage_name": "storage2"})
    moving = call(svc, "POST", MOVES, json_body={"destination_storage_name": "storage2"})
    assert (moving.status, body(moving)) == (400, {"message": {"project": ["is read-only"]}})
    assert len(body(call(svc, "GET", MOVES))) == 1


@pytest.mark.parametrize(
    ("token", "status", "answer"),
    [
        (None, 401, {"message": "401 Unauthorized"}),
        ("alice-token", 403, {"message": "403 Forbidden"}),
    ],
)
def test_administrators_only(svc: FakeService, token: str | None, status: int, answer: Any) -> None:
    for method, path in (
        ("GET", "/project_repository_storage_moves"),
        ("POST", "/project_repository_storage_moves"),
        ("GET", MOVES),
        ("POST", MOVES),
        ("GET", "/group_repository_storage_moves"),
        ("POST", "/snippet_repository_storage_moves"),
    ):
        response = call(svc, method, path, token, json_body={"source_storage_name": "default"})
        assert (response.status, body(response)) == (status, answer), (method, path)
    assert body(call(svc, "GET", "/project_repository_storage_moves")) == []


def test_unknown_records(svc: FakeService) -> None:
    for path, message in (
        ("/project_repository_storage_moves/9", "404 Not found"),
        (f"{MOVES}/9", "404 Not found"),
        ("/projects/999/repository_storage_moves", "404 Project Not Found"),
        ("/groups/nope/repository_storage_moves", "404 Group Not Found"),
        ("/snippets/1/repository_storage_moves", "404 Snippet Not Found"),
        ("/group_repository_storage_moves/1", "404 Not found"),
    ):
        response = call(svc, "GET", path)
        assert (response.status, body(response)) == (404, {"message": message}), path
    call(svc, "POST", MOVES)
    other = call(svc, "GET", "/projects/2/repository_storage_moves/1")
    assert other.status == 404
    as_group = call(svc, "GET", "/group_repository_storage_moves/1")
    assert as_group.status == 404


def test_bulk_moves_every_project_of_a_storage(svc: FakeService) -> None:
    total = int(
        call(svc, "GET", "/projects", query={"repository_storage": "default"}).header("x-total")
    )
    accepted = call(
        svc,
        "POST",
        "/project_repository_storage_moves",
        json_body={"source_storage_name": "default", "destination_storage_name": "storage2"},
    )
    assert (accepted.status, body(accepted)) == (202, {"message": "202 Accepted"})
    assert body(call(svc, "GET", "/projects", query={"repository_storage": "default"})) == []
    moved = call(svc, "GET", "/projects", query={"repository_storage": "storage2"})
    assert int(moved.header("x-total")) == total
    listed = call(svc, "GET", "/project_repository_storage_moves", query={"per_page": 100})
    assert int(listed.header("x-total")) == total
    ids = [move["id"] for move in body(listed)]
    assert ids == sorted(ids, reverse=True)


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        ({}, "source_storage_name is missing"),
        ({"source_storage_name": "nfs-9"}, "source_storage_name does not have a valid value"),
        (
            {"source_storage_name": "default", "destination_storage_name": "nfs-9"},
            "destination_storage_name does not have a valid value",
        ),
    ],
)
def test_bulk_validation(svc: FakeService, payload: dict[str, Any], error: str) -> None:
    for kind in ("project", "snippet", "group"):
        response = call(svc, "POST", f"/{kind}_repository_storage_moves", json_body=payload)
        assert (response.status, body(response)) == (400, {"error": error})
    assert body(call(svc, "GET", "/project_repository_storage_moves")) == []


def test_group_moves(svc: FakeService) -> None:
    move = call(
        svc,
        "POST",
        "/groups/acme/repository_storage_moves",
        json_body={"destination_storage_name": "storage2"},
    )
    assert move.status == 201
    data = body(move)
    assert data["group"] == {
        "id": data["group"]["id"],
        "web_url": "http://fakeservice.test/groups/acme",
        "name": "ACME",
    }
    assert data["state"] == "finished"
    accepted = call(
        svc,
        "POST",
        "/group_repository_storage_moves",
        json_body={"source_storage_name": "default", "destination_storage_name": "storage2"},
    )
    assert accepted.status == 202
    groups = body(call(svc, "GET", "/group_repository_storage_moves", query={"per_page": 100}))
    assert all(m["destination_storage_name"] == "storage2" for m in groups)
    # acme moved already: the bulk move left it alone
    assert sum(m["group"]["name"] == "ACME" for m in groups) == 1
    again = call(
        svc, "POST", "/group_repository_storage_moves", json_body={"source_storage_name": "default"}
    )
    assert again.status == 202
    assert len(
        body(call(svc, "GET", "/group_repository_storage_moves", query={"per_page": 100}))
    ) == len(groups)


def test_snippet_bulk_with_no_snippets(svc: FakeService) -> None:
    accepted = call(
        svc,
        "POST",
        "/snippet_repository_storage_moves",
        json_body={"source_storage_name": "default"},
    )
    assert (accepted.status, body(accepted)) == (202, {"message": "202 Accepted"})
    assert body(call(svc, "GET", "/snippet_repository_storage_moves")) == []


def test_group_moves_need_a_paid_plan() -> None:
    svc = FakeService(
        {
            "users": [{"username": "root", "admin": True, "tokens": [{"token": ROOT}]}],
            "groups": [{"path": "g"}],
            "instance": {"plan": "free"},
        }
    )
    for method, path in (
        ("GET", "/group_repository_storage_moves"),
        ("POST", "/groups/g/repository_storage_moves"),
    ):
        response = call(svc, method, path)
        assert (response.status, body(response)) == (403, {"message": "403 Forbidden"})


def test_deleting_a_project_forgets_its_moves(svc: FakeService) -> None:
    call(svc, "POST", "/projects/2/repository_storage_moves")
    assert call(svc, "DELETE", "/projects/2").status == 202
    assert body(call(svc, "GET", "/project_repository_storage_moves")) == []


def test_same_requests_give_the_same_bytes(svc: FakeService) -> None:
    other = FakeService.from_template(svc.template())

    def run(service: FakeService) -> list[bytes]:
        background(service, mode="timed", step_seconds=3)
        out = [call(service, "POST", MOVES).body]
        service.advance_clock(seconds=4)
        out.append(call(service, "GET", "/project_repository_storage_moves").body)
        return out

    assert run(svc) == run(other)


def test_new_projects_follow_the_storage_weights(svc: FakeService) -> None:
    def create(name: str, **extra: Any) -> str:
        answer = call(svc, "POST", "/projects", json_body={"name": name, **extra})
        assert answer.status == 201, answer.body
        return body(answer)["repository_storage"]

    assert create("first") == "default"
    weights = {"repository_storages_weighted": {"default": 10, "storage2": 90}}
    assert call(svc, "PUT", "/application/settings", json_body=weights).status == 200
    assert create("second") == "storage2"
    assert create("third", repository_storage="default") == "default"
    listed = body(call(svc, "GET", "/projects", query={"repository_storage": "storage2"}))
    assert [p["name"] for p in listed] == ["second"]


def test_snippet_moves_find_and_move_snippets(svc: FakeService) -> None:
    made = call(
        svc,
        "POST",
        "/projects/1/snippets",
        json_body={"title": "Tip", "files": [{"file_path": "a.txt", "content": "A\n"}]},
    )
    assert made.status == 201, made.body
    snippet = body(made)
    assert snippet["repository_storage"] == "default"
    move = call(
        svc,
        "POST",
        f"/snippets/{snippet['id']}/repository_storage_moves",
        json_body={"destination_storage_name": "storage2"},
    )
    assert move.status == 201, move.body
    data = body(move)
    assert (data["state"], data["snippet"]["id"], data["snippet"]["title"]) == (
        "finished",
        snippet["id"],
        "Tip",
    )
    shown = body(call(svc, "GET", f"/projects/1/snippets/{snippet['id']}"))
    assert shown["repository_storage"] == "storage2"
    accepted = call(
        svc,
        "POST",
        "/snippet_repository_storage_moves",
        json_body={"source_storage_name": "storage2", "destination_storage_name": "default"},
    )
    assert accepted.status == 202
    moves = body(call(svc, "GET", "/snippet_repository_storage_moves"))
    assert [(m["snippet"]["id"], m["destination_storage_name"]) for m in moves] == [
        (snippet["id"], "default"),
        (snippet["id"], "storage2"),
    ]
    shown = body(call(svc, "GET", f"/projects/1/snippets/{snippet['id']}"))
    assert shown["repository_storage"] == "default"
