"""Discussions on issues, merge requests, snippets and epics: notes made through the notes
API are individual-note discussions sharing the notes storage; threads are created,
answered, edited and deleted; merge request threads resolve (one note or the whole
thread), ``blocking_discussions_resolved`` and merges follow
``only_allow_merge_if_all_discussions_are_resolved``; diff notes carry a ``position``
checked against the merge request's diff; python-gitlab's ``discussions`` managers."""

from __future__ import annotations

import re
from typing import Any

import gitlab
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.calls import body, call

from fakeservice import FakeService

from .conftest import SHOP, new_service

ISSUE = f"/projects/{SHOP}/issues/1"
MR = f"/projects/{SHOP}/merge_requests/1"
HEX40 = re.compile(r"^[0-9a-f]{40}$")


def open_mr(svc: FakeService) -> dict[str, Any]:
    data = {"title": "Checkout", "source_branch": "feature", "target_branch": "main"}
    created = call(svc, "POST", f"/projects/{SHOP}/merge_requests", "dora-token", json_body=data)
    assert created.status == 201
    return body(created)


def start(svc: FakeService, base: str, token: str = "dora-token", **fields: Any) -> dict[str, Any]:
    made = call(svc, "POST", f"{base}/discussions", token, json_body={"body": "Why?", **fields})
    assert made.status == 201, made.body
    return body(made)


def test_notes_are_individual_discussions(svc: FakeService) -> None:
    note = body(call(svc, "POST", f"{ISSUE}/notes", "dora-token", json_body={"body": "Seen"}))
    assert note["type"] is None and note["resolvable"] is False
    listed = body(call(svc, "GET", f"{ISSUE}/discussions", "rita-token"))
    assert len(listed) == 1
    thread = listed[0]
    assert HEX40.match(thread["id"]) and thread["individual_note"] is True
    assert thread["notes"] == [note]
    one = body(call(svc, "GET", f"{ISSUE}/discussions/{thread['id']}", "rita-token"))
    assert one == thread


def test_thread_operations_on_an_issue(svc: FakeService) -> None:
    thread = start(svc, ISSUE)
    assert thread["individual_note"] is False
    (first,) = thread["notes"]
    assert (first["type"], first["body"], first["resolvable"]) == ("DiscussionNote", "Why?", False)
    assert "resolved" not in first
    notes = f"{ISSUE}/discussions/{thread['id']}/notes"
    reply = call(svc, "POST", notes, "rita-token", json_body={"body": "Because"})
    assert reply.status == 201
    answer = body(reply)
    assert (answer["type"], answer["author"]["username"]) == ("DiscussionNote", "rita")
    assert body(call(svc, "GET", ISSUE, "rita-token"))["user_notes_count"] == 2
    svc.clock.advance(seconds=5)
    edited = call(svc, "PUT", f"{notes}/{answer['id']}", "rita-token", json_body={"body": "So"})
    assert body(edited)["body"] == "So"
    assert (
        call(svc, "PUT", f"{notes}/{answer['id']}", "dora-token", json_body={"body": "x"}).status
        == 403
    )
    assert call(svc, "DELETE", f"{notes}/{first['id']}", "rita-token").status == 403
    # the notes API sees thread notes too
    listed = body(call(svc, "GET", f"{ISSUE}/notes", "rita-token", query={"sort": "asc"}))
    assert [n["body"] for n in listed] == ["Why?", "So"]
    assert call(svc, "DELETE", f"{notes}/{first['id']}", "dora-token").status == 204
    assert call(svc, "DELETE", f"{notes}/{answer['id']}", "maya-token").status == 204
    gone = call(svc, "GET", f"{ISSUE}/discussions/{thread['id']}", "rita-token")
    assert (gone.status, body(gone)) == (404, {"message": "404 Discussion Not Found"})
    assert body(call(svc, "GET", f"{ISSUE}/discussions", "rita-token")) == []
    assert body(call(svc, "GET", ISSUE, "rita-token"))["user_notes_count"] == 0


def test_answering_an_individual_note_makes_a_thread(svc: FakeService) -> None:
    note = body(call(svc, "POST", f"{ISSUE}/notes", "dora-token", json_body={"body": "Seen"}))
    (thread,) = body(call(svc, "GET", f"{ISSUE}/discussions", "rita-token"))
    path = f"{ISSUE}/discussions/{thread['id']}/notes"
    assert call(svc, "POST", path, "rita-token", json_body={"body": "Me too"}).status == 201
    again = body(call(svc, "GET", f"{ISSUE}/discussions/{thread['id']}", "rita-token"))
    assert again["individual_note"] is False
    assert (again["notes"][0]["id"], again["notes"][0]["type"]) == (note["id"], "DiscussionNote")
    assert len(again["notes"]) == 2


def test_errors_leave_state_untouched(svc: FakeService) -> None:
    thread = start(svc, ISSUE)
    base = f"{ISSUE}/discussions"
    unknown = call(svc, "GET", f"{base}/{'0' * 40}", "rita-token")
    assert (unknown.status, body(unknown)) == (404, {"message": "404 Discussion Not Found"})
    missing = call(svc, "POST", base, "rita-token", json_body={})
    assert (missing.status, body(missing)) == (400, {"error": "body is missing"})
    blank = call(svc, "POST", base, "rita-token", json_body={"body": "  "})
    assert blank.status == 400
    assert call(svc, "POST", base, None, json_body={"body": "x"}).status == 401
    assert body(call(svc, "GET", base, "otto-token")) == {"message": "404 Project Not Found"}
    wrong_note = call(svc, "DELETE", f"{base}/{thread['id']}/notes/999", "dora-token")
    assert (wrong_note.status, body(wrong_note)) == (404, {"message": "404 Not found"})
    bad_id = call(svc, "DELETE", f"{base}/{thread['id']}/notes/abc", "dora-token")
    assert (bad_id.status, body(bad_id)) == (400, {"error": "note_id is invalid"})
    # a note of another thread is not this thread's
    other = start(svc, ISSUE)
    crossed = call(
        svc, "DELETE", f"{base}/{thread['id']}/notes/{other['notes'][0]['id']}", "dora-token"
    )
    assert crossed.status == 404
    # issues have no resolve endpoint
    assert (
        call(
            svc, "PUT", f"{base}/{thread['id']}", "dora-token", json_body={"resolved": True}
        ).status
        == 405
    )
    assert len(body(call(svc, "GET", base, "dora-token"))) == 2


def test_merge_request_threads_resolve_and_block_merges(svc: FakeService) -> None:
    svc.runner.set_mode("instant")
    open_mr(svc)
    setting = {"only_allow_merge_if_all_discussions_are_resolved": True}
    assert call(svc, "PUT", f"/projects/{SHOP}", "maya-token", json_body=setting).status == 200
    mr = body(call(svc, "GET", MR, "dora-token"))
    assert mr["blocking_discussions_resolved"] is True
    individual = call(svc, "POST", f"{MR}/notes", "rita-token", json_body={"body": "fyi"})
    assert body(individual)["resolvable"] is False
    thread = start(svc, MR, "rita-token")
    (first,) = thread["notes"]
    assert (first["resolvable"], first["resolved"], first["resolved_by"], first["resolved_at"]) == (
        True,
        False,
        None,
        None,
    )
    mr = body(call(svc, "GET", MR, "dora-token"))
    assert (mr["blocking_discussions_resolved"], mr["detailed_merge_status"]) == (
        False,
        "discussions_not_resolved",
    )
    refused = call(svc, "PUT", f"{MR}/merge", "maya-token")
    assert (refused.status, body(refused)) == (405, {"message": "405 Method Not Allowed"})
    one = f"{MR}/discussions/{thread['id']}"
    # a Reporter who is not the author may not resolve
    assert call(svc, "PUT", one, "rita-token", json_body={"resolved": True}).status == 403
    missing = call(svc, "PUT", one, "dora-token", json_body={})
    assert (missing.status, body(missing)) == (400, {"error": "resolved is missing"})
    svc.clock.advance(seconds=30)
    resolved = call(svc, "PUT", one, "dora-token", json_body={"resolved": True})
    assert resolved.status == 200
    note = body(resolved)["notes"][0]
    assert (note["resolved"], note["resolved_by"]["username"]) == (True, "dora")
    assert note["resolved_at"] == "2026-01-01T09:00:30Z"
    assert body(call(svc, "GET", MR, "dora-token"))["blocking_discussions_resolved"] is True
    back = body(call(svc, "PUT", one, "maya-token", json_body={"resolved": False}))
    assert back["notes"][0]["resolved"] is False
    # one note at a time
    by_note = call(
        svc, "PUT", f"{one}/notes/{first['id']}", "maya-token", json_body={"resolved": True}
    )
    assert body(by_note)["resolved"] is True
    both = call(
        svc,
        "PUT",
        f"{one}/notes/{first['id']}",
        "maya-token",
        json_body={"resolved": True, "body": "x"},
    )
    assert (both.status, body(both)) == (400, {"error": "body, resolved are mutually exclusive"})
    merged = call(svc, "PUT", f"{MR}/merge", "maya-token")
    assert merged.status == 200 and body(merged)["state"] == "merged"


def test_diff_notes_are_checked_against_the_diff(svc: FakeService) -> None:
    mr = open_mr(svc)
    refs = body(call(svc, "GET", MR, "dora-token"))["diff_refs"]
    position = {
        **refs,
        "position_type": "text",
        "new_path": "checkout.py",
        "old_path": "checkout.py",
        "new_line": 2,
    }
    thread = start(svc, MR, position=position)
    (note,) = thread["notes"]
    assert note["type"] == "DiffNote"
    assert note["position"] == {**position, "old_line": None, "line_range": None}
    reply = call(
        svc,
        "POST",
        f"{MR}/discussions/{thread['id']}/notes",
        "maya-token",
        json_body={"body": "ok"},
    )
    assert body(reply)["type"] == "DiffNote" and body(reply)["position"] == note["position"]
    incomplete = {"message": '400 Bad request - Note {:position=>["is incomplete"]}'}
    line_code = {
        "message": '400 Bad request - Note {:line_code=>["can\'t be blank", "must be a valid line code"]}'
    }
    for bad, answer in (
        ({**position, "head_sha": "f" * 40}, incomplete),
        ({**position, "new_path": "app.py", "old_path": "app.py"}, incomplete),
        ({**position, "position_type": "image"}, incomplete),
        ({k: v for k, v in position.items() if k != "base_sha"}, incomplete),
        ({**position, "new_line": 99}, line_code),
        ({**position, "new_line": "two"}, line_code),
        ({**position, "new_line": None}, line_code),
        ("nonsense", {"error": "position is invalid"}),
    ):
        refused = call(
            svc, "POST", f"{MR}/discussions", "dora-token", json_body={"body": "b", "position": bad}
        )
        assert (refused.status, body(refused)) == (400, answer), bad
    assert len(body(call(svc, "GET", f"{MR}/discussions", "dora-token"))) == 1
    assert mr["iid"] == 1


def test_snippet_and_epic_discussions() -> None:
    svc = new_service()
    data = {"title": "S", "files": [{"file_path": "a.txt", "content": "a"}]}
    snippet = body(call(svc, "POST", f"/projects/{SHOP}/snippets", "dora-token", json_body=data))
    base = f"/projects/{SHOP}/snippets/{snippet['id']}"
    thread = start(svc, base)
    assert body(call(svc, "GET", f"{base}/discussions", "dora-token")) == [thread]
    epic = body(call(svc, "POST", "/groups/acme/epics", "alice-token", json_body={"title": "E"}))
    epic_base = f"/groups/acme/epics/{epic['id']}"
    made = start(svc, epic_base, "alice-token")
    assert made["notes"][0]["noteable_type"] == "Epic"
    listed = body(call(svc, "GET", f"{epic_base}/discussions", "alice-token"))
    assert [d["id"] for d in listed] == [made["id"]]


def test_commit_discussions(svc: FakeService) -> None:
    sha = body(call(svc, "GET", f"/projects/{SHOP}/repository/commits/main", "rita-token"))["id"]
    base = f"/projects/{SHOP}/repository/commits/{sha}"
    assert body(call(svc, "GET", f"{base}/discussions", "rita-token")) == []
    thread = start(svc, base, "rita-token")
    (note,) = thread["notes"]
    assert (note["noteable_type"], note["noteable_id"], note["commit_id"]) == ("Commit", None, sha)
    by_ref = body(
        call(svc, "GET", f"/projects/{SHOP}/repository/commits/main/discussions", "maya-token")
    )
    assert by_ref == [thread]
    guest = call(svc, "GET", f"{base}/discussions", "gus-token")  # no code for Guests
    assert (guest.status, body(guest)) == (403, {"message": "403 Forbidden"})
    missing = call(
        svc, "GET", f"/projects/{SHOP}/repository/commits/nope/discussions", "rita-token"
    )
    assert (missing.status, body(missing)) == (404, {"message": "404 Commit Not Found"})
    assert body(call(svc, "GET", f"{base}/discussions", "otto-token")) == {
        "message": "404 Project Not Found"
    }
    assert call(svc, "GET", f"{base}/notes", "rita-token").status == 404  # comments have their API
    assert call(svc, "DELETE", f"/projects/{SHOP}", "root-token").status == 202
    assert svc.store.tables["notes"].get(note["id"]) is None


def test_python_gitlab_discussions(svc: FakeService) -> None:
    open_mr(svc)
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="dora-token")
        project = gl.projects.get("acme/shopfloor/shop")
        mr = project.mergerequests.get(1)
        thread = mr.discussions.create({"body": "Please rename"})
        assert thread.individual_note is False and len(thread.attributes["notes"]) == 1
        answer = thread.notes.create({"body": "Done"})
        assert answer.body == "Done"
        listed = mr.discussions.list()
        assert [d.id for d in listed] == [thread.id]
        assert len(mr.discussions.get(thread.id).attributes["notes"]) == 2
        updated = mr.discussions.update(thread.id, {"resolved": True})
        assert all(n["resolved"] for n in updated["notes"])
        note = thread.notes.get(answer.id)
        note.body = "Done, thanks"
        note.save()
        assert mr.notes.get(answer.id).body == "Done, thanks"
        note.delete()
        commit = project.commits.get("main")
        commit.discussions.create({"body": "Tidy"})
        assert [d.attributes["notes"][0]["body"] for d in commit.discussions.list()] == ["Tidy"]
        issue = project.issues.get(1)
        issue_thread = issue.discussions.create({"body": "Repro?"})
        issue_thread.notes.create({"body": "Yes"})
        assert [len(d.attributes["notes"]) for d in issue.discussions.list()] == [2]


OPS = st.lists(
    st.tuples(st.sampled_from(["note", "thread", "reply", "delete"]), st.integers(0, 5)),
    max_size=12,
)


@settings(max_examples=20, deadline=None)
@given(OPS)
def test_discussions_and_notes_agree(ops: list[tuple[str, int]]) -> None:
    """Whatever mix of notes, threads, answers and deletions: every note is in exactly one
    discussion, the discussions hold exactly the notes the notes API lists, individual
    discussions hold one note, and ``user_notes_count`` counts them."""
    svc = new_service()
    for op, pick in ops:
        threads = body(
            call(svc, "GET", f"{ISSUE}/discussions", "dora-token", query={"per_page": "100"})
        )
        if op == "note":
            call(svc, "POST", f"{ISSUE}/notes", "dora-token", json_body={"body": "n"})
        elif op == "thread":
            start(svc, ISSUE)
        elif threads and op == "reply":
            chosen = threads[pick % len(threads)]
            path = f"{ISSUE}/discussions/{chosen['id']}/notes"
            assert call(svc, "POST", path, "maya-token", json_body={"body": "r"}).status == 201
        elif threads and op == "delete":
            chosen = threads[pick % len(threads)]
            note = chosen["notes"][pick % len(chosen["notes"])]
            path = f"{ISSUE}/discussions/{chosen['id']}/notes/{note['id']}"
            assert call(svc, "DELETE", path, "maya-token").status == 204
    threads = body(
        call(svc, "GET", f"{ISSUE}/discussions", "dora-token", query={"per_page": "100"})
    )
    in_threads = [n["id"] for d in threads for n in d["notes"]]
    listed = body(call(svc, "GET", f"{ISSUE}/notes", "dora-token", query={"per_page": "100"}))
    assert sorted(in_threads) == sorted(n["id"] for n in listed)
    assert len(in_threads) == len(set(in_threads))
    assert all(d["notes"] for d in threads)
    assert all(len(d["notes"]) == 1 for d in threads if d["individual_note"])
    assert len({d["id"] for d in threads}) == len(threads)
    assert body(call(svc, "GET", ISSUE, "dora-token"))["user_notes_count"] == len(listed)


@pytest.mark.parametrize("token", ["rita-token", "gus-token"])
def test_readers_list_discussions(svc: FakeService, token: str) -> None:
    start(svc, ISSUE)
    assert len(body(call(svc, "GET", f"{ISSUE}/discussions", token))) == 1
