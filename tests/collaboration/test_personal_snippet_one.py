"""One personal snippet (``/snippets/:id``): update, raw content, a raw file at a ref,
agent details, delete; a project snippet's note edited and deleted; and cancelling a
merge waiting for its pipeline. Raw HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
from support.calls import body, call

from fakeservice import FakeService

from .test_merge_requests import MRS, open_mr
from .test_snippets import SNIPPETS, create


def test_personal_snippet(svc: FakeService) -> None:
    mine = create(svc, "/snippets", "dora-token", visibility="internal")
    one = f"/snippets/{mine['id']}"
    edited = call(
        svc,
        "PUT",
        one,
        "dora-token",
        json_body={
            "title": "Renamed",
            "description": "two files",
            "files": [{"action": "update", "file_path": "a.txt", "content": "A2\n"}],
        },
    )
    assert edited.status == 200
    shown = body(edited)
    assert (shown["title"], shown["description"], shown["file_name"]) == (
        "Renamed",
        "two files",
        "a.txt",
    )
    assert body(call(svc, "GET", one, "dora-token")) == shown
    raw = call(svc, "GET", f"{one}/raw", "maya-token")
    assert (raw.status, raw.body, raw.header("content-type")) == (
        200,
        b"A2\n",
        "text/plain; charset=utf-8",
    )
    at_main = call(svc, "GET", f"{one}/files/main/dir%2Fb.txt/raw", "maya-token")
    assert (at_main.status, at_main.body) == (200, b"B\n")
    missing = call(svc, "GET", f"{one}/files/main/nope.txt/raw", "maya-token")
    assert missing.status == 404
    assert call(svc, "GET", f"{one}/user_agent_detail", "dora-token").status == 403
    detail = call(svc, "GET", f"{one}/user_agent_detail", "root-token")
    assert detail.status == 200
    assert sorted(body(detail)) == [
        "akismet_submitted",
        "ip_address",
        "spam_service_submitted",
        "user_agent",
    ]
    assert call(svc, "DELETE", one, "maya-token").status == 403
    assert call(svc, "DELETE", one, "dora-token").status == 204
    gone = call(svc, "GET", one, "dora-token")
    assert (gone.status, body(gone)) == (404, {"message": "404 Snippet Not Found"})


def test_snippet_note_edited_and_deleted(svc: FakeService) -> None:
    create(svc, SNIPPETS, "rita-token")
    note = body(call(svc, "POST", f"{SNIPPETS}/1/notes", "maya-token", json_body={"body": "Handy"}))
    path = f"{SNIPPETS}/1/notes/{note['id']}"
    edited = call(svc, "PUT", path, "maya-token", json_body={"body": "Very handy"})
    assert edited.status == 200
    assert (body(edited)["id"], body(edited)["body"], body(edited)["noteable_type"]) == (
        note["id"],
        "Very handy",
        "Snippet",
    )
    listed = body(call(svc, "GET", f"{SNIPPETS}/1/notes", "maya-token"))
    assert [n["body"] for n in listed] == ["Very handy"]
    assert call(svc, "DELETE", path, "maya-token").status == 204
    assert body(call(svc, "GET", f"{SNIPPETS}/1/notes", "maya-token")) == []


def test_cancel_merge_when_pipeline_succeeds(svc: FakeService) -> None:
    svc.runner.set_mode("manual")
    open_mr(svc)
    assert call(svc, "POST", f"{MRS}/1/pipelines", "dora-token").status == 201
    waiting = call(
        svc, "PUT", f"{MRS}/1/merge", "maya-token", json_body={"merge_when_pipeline_succeeds": True}
    )
    assert body(waiting)["merge_when_pipeline_succeeds"] is True
    cancelled = call(svc, "POST", f"{MRS}/1/cancel_merge_when_pipeline_succeeds", "maya-token")
    assert cancelled.status == 201
    shown = body(cancelled)
    assert (shown["iid"], shown["state"], shown["merge_when_pipeline_succeeds"]) == (
        1,
        "opened",
        False,
    )
    assert shown["merge_user"] is None
    assert body(call(svc, "GET", f"{MRS}/1", "maya-token")) == shown
    again = call(svc, "POST", f"{MRS}/1/cancel_merge_when_pipeline_succeeds", "maya-token")
    assert again.status == 406


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token="dora-token", session=svc.requests_session()
    )
    snippet = gl.snippets.create(
        {
            "title": "Mine",
            "visibility": "public",
            "files": [{"file_path": "x.txt", "content": "X\n"}],
        }
    )
    snippet.title = "Ours"
    snippet.save()
    assert gl.snippets.get(snippet.id).title == "Ours"
    assert snippet.content() == b"X\n"
    admin = gitlab.Gitlab(
        "http://fakeservice.test", private_token="root-token", session=svc.requests_session()
    )
    assert "user_agent" in admin.snippets.get(snippet.id).user_agent_detail()
    snippet.delete()
    assert gl.snippets.list(get_all=True) == []
    svc.runner.set_mode("manual")
    open_mr(svc)
    call(svc, "POST", f"{MRS}/1/pipelines", "dora-token")
    maya = gitlab.Gitlab(
        "http://fakeservice.test", private_token="maya-token", session=svc.requests_session()
    )
    mr = maya.projects.get("acme/shopfloor/shop").mergerequests.get(1)
    mr.merge(merge_when_pipeline_succeeds=True)
    assert mr.merge_when_pipeline_succeeds is True
    answer = mr.cancel_merge_when_pipeline_succeeds()
    assert answer["merge_when_pipeline_succeeds"] is False
