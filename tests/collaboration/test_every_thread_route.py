"""Every thread and award route on every noteable: for issues, snippets, commits and
epics a thread is started, read back, answered, its answer read and edited; award emoji
are given, listed and read on epics and on the notes of issues, merge requests, snippets
and epics. Each answer is compared with what the other routes show of the same record."""

from __future__ import annotations

from typing import Any

from support.calls import body, call

from fakeservice import FakeService

from .conftest import SHOP, new_service

ISSUE = f"/projects/{SHOP}/issues/1"


def _bases(svc: FakeService) -> list[tuple[str, str, str]]:
    """(noteable base path, token, noteable_type) for each kind of thread holder."""
    data = {"title": "S", "files": [{"file_path": "a.txt", "content": "a"}]}
    snippet = body(call(svc, "POST", f"/projects/{SHOP}/snippets", "dora-token", json_body=data))
    sha = body(call(svc, "GET", f"/projects/{SHOP}/repository/commits/main", "rita-token"))["id"]
    epic = body(call(svc, "POST", "/groups/acme/epics", "alice-token", json_body={"title": "E"}))
    return [
        (ISSUE, "dora-token", "Issue"),
        (f"/projects/{SHOP}/snippets/{snippet['id']}", "dora-token", "Snippet"),
        (f"/projects/{SHOP}/repository/commits/{sha}", "dora-token", "Commit"),
        (f"/groups/acme/epics/{epic['id']}", "alice-token", "Epic"),
    ]


def _post(svc: FakeService, path: str, token: str, **data: Any) -> dict[str, Any]:
    made = call(svc, "POST", path, token, json_body=data)
    assert made.status == 201, (path, made.body)
    return body(made)


def test_a_thread_is_started_read_answered_and_edited_on_every_noteable() -> None:
    svc = new_service()
    for base, token, kind in _bases(svc):
        thread = _post(svc, f"{base}/discussions", token, body="Why?")
        assert (thread["individual_note"], thread["notes"][0]["noteable_type"]) == (False, kind)
        one = f"{base}/discussions/{thread['id']}"
        assert body(call(svc, "GET", one, token)) == thread
        answer = _post(svc, f"{one}/notes", token, body="Because")
        assert (answer["type"], answer["body"]) == ("DiscussionNote", "Because")
        note = f"{one}/notes/{answer['id']}"
        assert body(call(svc, "GET", note, token)) == answer
        svc.clock.advance(seconds=3)
        edited = call(svc, "PUT", note, token, json_body={"body": "So"})
        assert edited.status == 200
        assert body(edited)["body"] == "So" and body(edited)["updated_at"] != answer["updated_at"]
        assert [n["body"] for n in body(call(svc, "GET", one, token))["notes"]] == ["Why?", "So"]


def test_award_emoji_on_epics_and_on_every_kind_of_note() -> None:
    svc = new_service()
    mr = {"title": "Checkout", "source_branch": "feature", "target_branch": "main"}
    _post(svc, f"/projects/{SHOP}/merge_requests", "dora-token", **mr)
    data = {"title": "S", "files": [{"file_path": "a.txt", "content": "a"}]}
    snippet = _post(svc, f"/projects/{SHOP}/snippets", "dora-token", **data)
    epic = _post(svc, "/groups/acme/epics", "alice-token", title="E")
    epic_note = _post(svc, f"/groups/acme/epics/{epic['id']}/notes", "alice-token", body="n")
    holders = [(f"/groups/acme/epics/{epic['iid']}", "alice-token", "Epic", epic["id"])]
    for base in (
        ISSUE,
        f"/projects/{SHOP}/merge_requests/1",
        f"/projects/{SHOP}/snippets/{snippet['id']}",
    ):
        note = _post(svc, f"{base}/notes", "dora-token", body="Hi")
        holders.append((f"{base}/notes/{note['id']}", "dora-token", "Note", note["id"]))
    epic_note_base = f"/groups/acme/epics/{epic['iid']}/notes/{epic_note['id']}"
    holders.append((epic_note_base, "alice-token", "Note", epic_note["id"]))
    for base, token, kind, awardable_id in holders:
        given = _post(svc, f"{base}/award_emoji", token, name="rocket")
        assert (given["name"], given["awardable_type"], given["awardable_id"]) == (
            "rocket",
            kind,
            awardable_id,
        )
        listed = call(svc, "GET", f"{base}/award_emoji", token)
        assert (body(listed), listed.header("X-Total")) == ([given], "1")
        assert body(call(svc, "GET", f"{base}/award_emoji/{given['id']}", token)) == given
