"""Notes on issues and merge requests through the one notes module: the five operations,
limits, backdating, confidentiality, ordering, pagination, counts, system notes and award
emoji; python-gitlab's ``mr.notes`` and ``issue.notes``."""

from __future__ import annotations

import gitlab
import pytest
from support.calls import body, call

from fakeservice import FakeService

from .conftest import SHOP, user_id

ISSUE_NOTES = f"/projects/{SHOP}/issues/1/notes"
MRS = f"/projects/{SHOP}/merge_requests"


def open_mr(svc: FakeService, description: str = "") -> None:
    data = {
        "title": "Checkout",
        "source_branch": "feature",
        "target_branch": "main",
        "description": description,
    }
    assert call(svc, "POST", MRS, "dora-token", json_body=data).status == 201


@pytest.mark.parametrize("base", [ISSUE_NOTES, f"{MRS}/1/notes"])
def test_five_operations(svc: FakeService, base: str) -> None:
    open_mr(svc)
    created = call(svc, "POST", base, "dora-token", json_body={"body": "First"})
    assert created.status == 201
    note = body(created)
    assert (note["body"], note["system"], note["author"]["username"]) == ("First", False, "dora")
    assert note["noteable_type"] in ("Issue", "MergeRequest") and note["noteable_iid"] == 1
    assert sorted(note["author"]) == ["created_at", "email", "id", "name", "state", "username"]
    one = f"{base}/{note['id']}"
    assert body(call(svc, "GET", one, "dora-token")) == note
    svc.clock.advance(seconds=10)
    edited = body(call(svc, "PUT", one, "dora-token", json_body={"body": "Edited"}))
    assert edited["body"] == "Edited" and edited["updated_at"] != edited["created_at"]
    assert call(svc, "PUT", one, "maya-token", json_body={"body": "Hijack"}).status == 403
    assert call(svc, "DELETE", one, "rita-token").status == 403
    assert call(svc, "DELETE", one, "maya-token").status == 204
    gone = call(svc, "GET", one, "dora-token")
    assert (gone.status, body(gone)) == (404, {"message": "404 Not found"})


def test_body_limits_and_missing(svc: FakeService) -> None:
    longest = "x" * 1_000_000
    assert call(svc, "POST", ISSUE_NOTES, "dora-token", json_body={"body": longest}).status == 201
    too_long = call(svc, "POST", ISSUE_NOTES, "dora-token", json_body={"body": longest + "x"})
    assert (too_long.status, body(too_long)) == (
        400,
        {
            "message": '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}'
        },
    )
    assert body(call(svc, "POST", ISSUE_NOTES, "dora-token", json_body={})) == {
        "error": "body is missing"
    }
    blank = call(svc, "POST", ISSUE_NOTES, "dora-token", json_body={"body": "  "})
    assert blank.status == 400
    listed = body(call(svc, "GET", ISSUE_NOTES, "dora-token"))
    assert len(listed) == 1  # nothing half-written


def test_backdating_only_for_owners_and_admins(svc: FakeService) -> None:
    stamp = "2025-03-01T12:00:00Z"
    by_maintainer = body(
        call(svc, "POST", ISSUE_NOTES, "maya-token", json_body={"body": "a", "created_at": stamp})
    )
    assert by_maintainer["created_at"] != stamp
    by_owner = body(
        call(svc, "POST", ISSUE_NOTES, "alice-token", json_body={"body": "b", "created_at": stamp})
    )
    by_admin = body(
        call(svc, "POST", ISSUE_NOTES, "root-token", json_body={"body": "c", "created_at": stamp})
    )
    assert by_owner["created_at"] == by_admin["created_at"] == stamp


def test_confidential_notes_on_issues_only(svc: FakeService) -> None:
    secret = body(
        call(svc, "POST", ISSUE_NOTES, "maya-token", json_body={"body": "s", "confidential": True})
    )
    assert secret["confidential"] is True
    assert [n["body"] for n in body(call(svc, "GET", ISSUE_NOTES, "gus-token"))] == []
    assert call(svc, "GET", f"{ISSUE_NOTES}/{secret['id']}", "gus-token").status == 404
    assert [n["body"] for n in body(call(svc, "GET", ISSUE_NOTES, "rita-token"))] == ["s"]
    open_mr(svc)
    on_mr = body(
        call(
            svc,
            "POST",
            f"{MRS}/1/notes",
            "maya-token",
            json_body={"body": "m", "confidential": True},
        )
    )
    assert on_mr["confidential"] is False


def test_order_pagination_and_user_notes_count(svc: FakeService) -> None:
    open_mr(svc, description="Closes #1")
    for index in range(3):
        svc.clock.advance(seconds=1)
        call(svc, "POST", f"{MRS}/1/notes", "dora-token", json_body={"body": f"n{index}"})
    newest = [n["body"] for n in body(call(svc, "GET", f"{MRS}/1/notes", "dora-token"))]
    assert newest == ["n2", "n1", "n0"]
    oldest = body(
        call(svc, "GET", f"{MRS}/1/notes", "dora-token", query={"sort": "asc", "per_page": "2"})
    )
    assert [n["body"] for n in oldest] == ["n0", "n1"]
    page = call(svc, "GET", f"{MRS}/1/notes", "dora-token", query={"sort": "asc", "per_page": "2"})
    assert dict(page.headers)["X-Total"] == "3" and dict(page.headers)["X-Next-Page"] == "2"
    assert body(call(svc, "GET", f"{MRS}/1", "dora-token"))["user_notes_count"] == 3
    bad = call(svc, "GET", f"{MRS}/1/notes", "dora-token", query={"order_by": "title"})
    assert body(bad) == {"error": "order_by does not have a valid value"}
    issue_notes = body(call(svc, "GET", ISSUE_NOTES, "dora-token"))
    assert [(n["body"], n["system"]) for n in issue_notes] == [
        ("mentioned in merge request !1", True)
    ]
    assert (
        body(call(svc, "GET", f"/projects/{SHOP}/issues/1", "dora-token"))["user_notes_count"] == 0
    )


def test_push_writes_a_system_note(svc: FakeService) -> None:
    open_mr(svc)
    call(
        svc,
        "POST",
        f"/projects/{SHOP}/repository/commits",
        "dora-token",
        json_body={
            "branch": "feature",
            "commit_message": "Pay",
            "actions": [{"action": "create", "file_path": "p", "content": "p"}],
        },
    )
    system = [n for n in body(call(svc, "GET", f"{MRS}/1/notes", "dora-token")) if n["system"]]
    assert len(system) == 1 and system[0]["body"].startswith("added 1 commit\n\n* ")
    assert system[0]["body"].endswith(" - Pay")


def test_award_emoji_only_body(svc: FakeService) -> None:
    open_mr(svc)
    awarded = call(svc, "POST", f"{MRS}/1/notes", "maya-token", json_body={"body": ":thumbsup:"})
    assert awarded.status == 201
    award = body(awarded)
    assert (award["name"], award["awardable_type"], award["user"]["username"]) == (
        "thumbsup",
        "MergeRequest",
        "maya",
    )
    assert body(call(svc, "GET", f"{MRS}/1/notes", "maya-token")) == []


def test_merge_request_notes_need_authentication_and_membership(svc: FakeService) -> None:
    open_mr(svc)
    assert call(svc, "GET", f"{MRS}/1/notes", None).status == 401
    assert body(call(svc, "GET", f"{MRS}/1/notes", "otto-token")) == {
        "message": "404 Project Not Found"
    }
    assert body(call(svc, "GET", f"{MRS}/9/notes", "maya-token")) == {"message": "404 Not found"}


def test_python_gitlab_notes(svc: FakeService) -> None:
    open_mr(svc)
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="maya-token")
        project = gl.projects.get("acme/shopfloor/shop")
        mr = project.mergerequests.get(1)
        note = mr.notes.create({"body": "Please rename"})
        note.body = "Please rename it"
        note.save()
        assert [n.body for n in mr.notes.list(get_all=True)] == ["Please rename it"]
        issue = project.issues.get(1)
        issue.notes.create({"body": "Seen"})
        assert [n.body for n in issue.notes.list(get_all=True)] == ["Seen"]
        mr.notes.get(note.id).delete()
        assert mr.notes.list(get_all=True) == []


def test_edits_write_system_notes(svc: FakeService) -> None:
    open_mr(svc)
    maya, rita = user_id(svc, "maya"), user_id(svc, "rita")
    call(
        svc,
        "PUT",
        f"{MRS}/1",
        "dora-token",
        json_body={"title": "Draft: Checkout", "assignee_ids": [maya]},
    )
    call(
        svc,
        "PUT",
        f"{MRS}/1",
        "dora-token",
        json_body={"reviewer_ids": [maya, rita], "description": "New"},
    )
    call(
        svc,
        "PUT",
        f"{MRS}/1",
        "dora-token",
        json_body={"title": "Checkout", "assignee_ids": [rita]},
    )
    call(svc, "PUT", f"{MRS}/1", "dora-token", json_body={"title": "Checkout v2", "labels": "bug"})
    system = [
        n["body"]
        for n in body(call(svc, "GET", f"{MRS}/1/notes", "dora-token", query={"sort": "asc"}))
    ]
    assert system == [
        "marked this merge request as **draft**",
        "assigned to @maya",
        "changed the description",
        "requested review from @maya and @rita",
        "marked this merge request as **ready**",
        "assigned to @rita and unassigned @maya",
        "changed title from **Checkout** to **Checkout v2**",
    ]
    call(svc, "PUT", f"/projects/{SHOP}/issues/2", "dora-token", json_body={"title": "Coupons"})
    issue_notes = body(call(svc, "GET", f"/projects/{SHOP}/issues/2/notes", "dora-token"))
    assert [n["body"] for n in issue_notes] == ["changed title from **Add coupons** to **Coupons**"]
    assert body(call(svc, "GET", f"{MRS}/1", "dora-token"))["user_notes_count"] == 0
