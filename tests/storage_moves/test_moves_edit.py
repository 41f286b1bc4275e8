"""An administrator's ``PUT /projects/:id`` with another ``repository_storage`` schedules a
storage move, as the real service does: the project answers with its current storage until
the move has replicated. Raw HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
from support.calls import ROOT, body, call

from fakeservice import FakeService

from .conftest import READ_ONLY, background

MOVES = "/projects/1/repository_storage_moves"


def edit(svc: FakeService, storage: str, token: str | None = ROOT) -> object:
    return call(svc, "PUT", "/projects/1", token, json_body={"repository_storage": storage})


def storage_of(svc: FakeService) -> str:
    return body(call(svc, "GET", "/projects/1"))["repository_storage"]


def test_edit_schedules_a_move_and_keeps_the_storage_until_it_replicates(
    svc: FakeService,
) -> None:
    background(svc, mode="timed", step_seconds=10)
    answer = edit(svc, "storage2")
    assert answer.status == 200
    assert body(answer)["repository_storage"] == "default"
    [move] = body(call(svc, "GET", MOVES))
    assert (move["state"], move["source_storage_name"], move["destination_storage_name"]) == (
        "scheduled",
        "default",
        "storage2",
    )
    written = call(
        svc,
        "POST",
        "/projects/1/repository/files/NEW.md",
        json_body={"branch": "main", "content": "hi\n", "commit_message": "add"},
    )
    assert (written.status, body(written)) == (400, {"message": READ_ONLY})
    svc.advance_clock(seconds=10)
    assert storage_of(svc) == "default"  # started, not replicated yet
    svc.advance_clock(seconds=10)
    assert storage_of(svc) == "storage2"
    svc.advance_clock(seconds=10)
    assert body(call(svc, "GET", f"{MOVES}/{move['id']}"))["state"] == "finished"


def test_same_storage_schedules_nothing(svc: FakeService) -> None:
    assert edit(svc, "default").status == 200
    assert body(call(svc, "GET", MOVES)) == []


def test_invalid_moves_fail_the_edit_and_change_nothing(svc: FakeService) -> None:
    before = body(call(svc, "GET", "/projects/1"))
    unknown = call(
        svc,
        "PUT",
        "/projects/1",
        json_body={"repository_storage": "nfs-9", "description": "changed"},
    )
    assert (unknown.status, body(unknown)) == (
        400,
        {
            "message": {
                "repository_storage_moves.destination_storage_name": ["is not included in the list"]
            }
        },
    )
    assert body(call(svc, "GET", "/projects/1")) == before
    background(svc, mode="manual")
    assert edit(svc, "storage2").status == 200
    moving = edit(svc, "storage2")  # still on default while the first move waits
    assert moving.status == 400
    assert list(body(moving)["message"]) == ["repository_storage_moves.project"]
    assert len(body(call(svc, "GET", MOVES))) == 1


def test_non_administrators_cannot_move(svc: FakeService) -> None:
    path = "/projects/alice%2Fdotfiles"
    answer = call(svc, "PUT", path, "alice-token", json_body={"repository_storage": "storage2"})
    assert answer.status == 200
    assert body(call(svc, "GET", f"{path}/repository_storage_moves")) == []
    assert body(call(svc, "GET", path))["repository_storage"] == "default"


def test_python_gitlab_save_schedules_the_move(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ROOT)
        project = gl.projects.get(1)
        project.repository_storage = "storage2"
        project.save()
        moves = gl.http_list(f"/projects/{project.id}/repository_storage_moves", get_all=True)
        assert [m["destination_storage_name"] for m in moves] == ["storage2"]
        assert gl.projects.get(1).repository_storage == "storage2"  # instant by default
