"""One group or snippet storage move, by its id and under its container
(``/group_repository_storage_moves/:id``, ``/groups/:id/repository_storage_moves/:id``,
``/snippet_repository_storage_moves/:id``, ``/snippets/:id/repository_storage_moves``
and ``.../:id``), over raw HTTP and python-gitlab (its raw calls)."""

from __future__ import annotations

import gitlab
from support.calls import ROOT, body, call

from fakeservice import FakeService


def test_one_group_move(svc: FakeService) -> None:
    made = body(
        call(
            svc,
            "POST",
            "/groups/acme/repository_storage_moves",
            json_body={"destination_storage_name": "storage2"},
        )
    )
    for path in (
        f"/group_repository_storage_moves/{made['id']}",
        f"/groups/acme/repository_storage_moves/{made['id']}",
    ):
        got = call(svc, "GET", path)
        assert (got.status, body(got)) == (200, made), path
    assert {k: made[k] for k in ("state", "source_storage_name", "destination_storage_name")} == {
        "state": "finished",
        "source_storage_name": "default",
        "destination_storage_name": "storage2",
    }
    assert call(svc, "GET", f"/groups/oss/repository_storage_moves/{made['id']}").status == 404


def test_one_snippet_move(svc: FakeService) -> None:
    snippet = body(
        call(
            svc,
            "POST",
            "/snippets",
            json_body={"title": "Mine", "files": [{"file_path": "m.txt", "content": "M\n"}]},
        )
    )
    own = f"/snippets/{snippet['id']}/repository_storage_moves"
    assert (call(svc, "GET", own).status, body(call(svc, "GET", own))) == (200, [])
    made = body(call(svc, "POST", own, json_body={"destination_storage_name": "storage2"}))
    assert (made["snippet"]["id"], made["snippet"]["title"], made["state"]) == (
        snippet["id"],
        "Mine",
        "finished",
    )
    listed = call(svc, "GET", own)
    assert (listed.status, body(listed)) == (200, [made])
    assert listed.header("x-total") == "1"
    for path in (f"/snippet_repository_storage_moves/{made['id']}", f"{own}/{made['id']}"):
        got = call(svc, "GET", path)
        assert (got.status, body(got)) == (200, made), path


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token=ROOT, session=svc.requests_session()
    )
    move = gl.http_post(
        "/groups/acme/repository_storage_moves", post_data={"destination_storage_name": "storage2"}
    )
    assert isinstance(move, dict)
    assert gl.http_get(f"/group_repository_storage_moves/{move['id']}")["state"] == "finished"
    assert gl.http_get(f"/groups/acme/repository_storage_moves/{move['id']}")["id"] == move["id"]
