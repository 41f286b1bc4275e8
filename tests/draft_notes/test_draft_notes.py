"""Merge request draft notes: create, list, get, update, delete, publish one and bulk
publish (replies join their thread and may resolve it, diff drafts start diff threads),
drafts private to their author (404 for others), bad input (unknown ids, threads of
other merge requests, bad positions, wrong types) answered with 4xx and nothing written,
and python-gitlab (``mr.draft_notes``)."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from support.calls import body, call

from fakeservice import FakeService

SITE = "/projects/acme%2Fwebsite"


def ok(response: Any, status: int = 200) -> Any:
    assert response.status == status, response.body
    return body(response) if status != 204 else None


def send(
    svc: FakeService, method: str, path: str, data: Any = None, token: str = "alice-token"
) -> Any:
    return call(svc, method, f"{SITE}/{path}", token, json_body=data)


@pytest.fixture
def mr(svc: FakeService) -> dict[str, Any]:
    commit = {
        "branch": "feature/dark-mode",
        "commit_message": "Dark",
        "actions": [{"action": "create", "file_path": "dark.css", "content": "a\nb\n"}],
    }
    ok(send(svc, "POST", "repository/commits", commit), 201)
    data = {"title": "Dark mode", "source_branch": "feature/dark-mode", "target_branch": "main"}
    created = ok(send(svc, "POST", "merge_requests", data), 201)
    return ok(send(svc, "GET", f"merge_requests/{created['iid']}"))


def drafts(mr: dict[str, Any]) -> str:
    return f"merge_requests/{mr['iid']}/draft_notes"


def threads(svc: FakeService, mr: dict[str, Any]) -> list[dict[str, Any]]:
    return ok(send(svc, "GET", f"merge_requests/{mr['iid']}/discussions"))


def test_draft_lifecycle_and_privacy(svc: FakeService, mr: dict[str, Any]) -> None:
    draft = ok(send(svc, "POST", drafts(mr), {"note": "Looks off"}), 201)
    assert draft == {
        "id": draft["id"],
        "author_id": mr["author"]["id"],
        "merge_request_id": mr["id"],
        "resolve_discussion": False,
        "discussion_id": None,
        "note": "Looks off",
        "commit_id": None,
        "line_code": None,
        "position": {
            "base_sha": None,
            "start_sha": None,
            "head_sha": None,
            "old_path": None,
            "new_path": None,
            "position_type": "text",
            "old_line": None,
            "new_line": None,
            "line_range": None,
        },
    }
    one = f"{drafts(mr)}/{draft['id']}"
    assert ok(send(svc, "GET", one)) == draft
    assert ok(send(svc, "GET", drafts(mr))) == [draft]
    changed = ok(send(svc, "PUT", one, {"note": "Looks wrong"}))
    assert changed["note"] == "Looks wrong"
    # root (an administrator) sees none of alice's drafts
    assert ok(send(svc, "GET", drafts(mr), token="root-token")) == []
    for method in ("GET", "DELETE"):
        assert send(svc, method, one, token="root-token").status == 404
    assert send(svc, "PUT", f"{one}/publish", token="root-token").status == 404
    assert threads(svc, mr) == []
    ok(send(svc, "DELETE", one), 204)
    assert send(svc, "GET", one).status == 404
    assert ok(send(svc, "GET", drafts(mr))) == []


def test_publish_starts_threads_and_answers(svc: FakeService, mr: dict[str, Any]) -> None:
    thread = ok(
        send(svc, "POST", f"merge_requests/{mr['iid']}/discussions", {"body": "Question"}), 201
    )
    reply = ok(
        send(
            svc,
            "POST",
            drafts(mr),
            {
                "note": "Answer",
                "in_reply_to_discussion_id": thread["id"],
                "resolve_discussion": True,
            },
        ),
        201,
    )
    assert (reply["discussion_id"], reply["resolve_discussion"]) == (thread["id"], True)
    refs = mr["diff_refs"]
    position = {**refs, "position_type": "text", "new_path": "dark.css", "new_line": 2}
    diff = ok(send(svc, "POST", drafts(mr), {"note": "On line 2", "position": position}), 201)
    assert diff["position"]["new_line"] == 2
    plain = ok(send(svc, "POST", drafts(mr), {"note": "Overall fine"}), 201)
    assert send(svc, "PUT", f"{drafts(mr)}/{plain['id']}/publish").status == 204
    assert [t["notes"][0]["body"] for t in threads(svc, mr)] == ["Question", "Overall fine"]
    assert ok(send(svc, "GET", drafts(mr))) == [reply, diff]
    assert send(svc, "POST", f"{drafts(mr)}/bulk_publish").status == 204
    assert ok(send(svc, "GET", drafts(mr))) == []
    found = threads(svc, mr)
    assert [[n["body"] for n in t["notes"]] for t in found] == [
        ["Question", "Answer"],
        ["Overall fine"],
        ["On line 2"],
    ]
    assert all(n["resolved"] for n in found[0]["notes"])
    assert found[2]["notes"][0]["type"] == "DiffNote"
    assert found[2]["notes"][0]["position"]["new_line"] == 2
    assert found[1]["notes"][0]["author"]["username"] == "alice"


def test_bad_input_is_refused_and_writes_nothing(svc: FakeService, mr: dict[str, Any]) -> None:
    def refused(data: Any, status: int = 400) -> Any:
        response = send(svc, "POST", drafts(mr), data)
        assert response.status == status, response.body
        return body(response)

    assert refused({}) == {"error": "note is missing"}
    assert refused({"note": ""})["message"]
    assert refused({"note": "x", "in_reply_to_discussion_id": "0" * 40}) == {
        "message": {"base": ["Thread to reply to cannot be found"]}
    }
    assert refused({"note": "x", "resolve_discussion": True}) == {
        "message": {"base": ["User is not allowed to resolve thread"]}
    }
    refused({"note": "x", "resolve_discussion": "maybe"})
    refused({"note": "x", "position": {"position_type": "text"}})
    refused({"note": "x", "position": "nowhere"})
    assert send(svc, "GET", "merge_requests/999/draft_notes").status == 404
    assert send(svc, "GET", f"{drafts(mr)}/999").status == 404
    assert send(svc, "GET", f"{drafts(mr)}/abc").status == 400
    assert send(svc, "PUT", f"{drafts(mr)}/999/publish").status == 404
    draft = ok(send(svc, "POST", drafts(mr), {"note": "kept"}), 201)
    assert send(svc, "PUT", f"{drafts(mr)}/{draft['id']}", {}).status == 400
    bad = send(svc, "PUT", f"{drafts(mr)}/{draft['id']}", {"position": {"position_type": "x"}})
    assert bad.status == 400
    assert ok(send(svc, "GET", drafts(mr))) == [draft]
    assert call(svc, "GET", f"{SITE}/{drafts(mr)}", None).status == 401
    assert threads(svc, mr) == []


def test_python_gitlab_draft_notes(svc: FakeService, mr: dict[str, Any]) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="alice-token", session=svc.requests_session())
    project = gl.projects.get("acme/website")
    client_mr = project.mergerequests.get(mr["iid"])
    first = client_mr.draft_notes.create({"note": "First"})
    second = client_mr.draft_notes.create({"note": "Second"})
    assert [d.note for d in client_mr.draft_notes.list(get_all=True)] == ["First", "Second"]
    fetched = client_mr.draft_notes.get(first.id)
    fetched.note = "First, edited"
    fetched.save()
    assert client_mr.draft_notes.get(first.id).note == "First, edited"
    second.publish()
    client_mr.draft_notes.bulk_publish()
    assert client_mr.draft_notes.list(get_all=True) == []
    bodies = [n.body for n in client_mr.notes.list(sort="asc", get_all=True) if not n.system]
    assert bodies == ["Second", "First, edited"]
    third = client_mr.draft_notes.create({"note": "Gone"})
    third.delete()
    with pytest.raises(gitlab.GitlabGetError):
        client_mr.draft_notes.get(third.id)
