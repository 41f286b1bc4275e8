"""Award emoji on issues, merge requests, snippets, epics and their notes: list, get,
award (``+1`` normalized, unknown names and second awards answer the service's 404),
delete (the award's user or an administrator, else 401); ``upvotes``/``downvotes``;
award-only note bodies make the same record; ``my_reaction_emoji`` on issue, merge
request and epic lists; python-gitlab's ``awardemojis`` managers."""

from __future__ import annotations

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
SNIPPETS = f"/projects/{SHOP}/snippets"


def open_mr(svc: FakeService) -> None:
    data = {"title": "Checkout", "source_branch": "feature", "target_branch": "main"}
    assert (
        call(svc, "POST", f"/projects/{SHOP}/merge_requests", "dora-token", json_body=data).status
        == 201
    )


def snippet(svc: FakeService) -> str:
    data = {"title": "S", "files": [{"file_path": "a.txt", "content": "a"}]}
    created = call(svc, "POST", SNIPPETS, "dora-token", json_body=data)
    assert created.status == 201, created.body
    return f"{SNIPPETS}/{body(created)['id']}"


def award(svc: FakeService, base: str, token: str, name: str) -> Any:
    return call(svc, "POST", f"{base}/award_emoji", token, json_body={"name": name})


def awardables(svc: FakeService) -> list[tuple[str, str]]:
    open_mr(svc)
    return [(ISSUE, "Issue"), (MR, "MergeRequest"), (snippet(svc), "Snippet")]


def test_four_operations_on_every_project_awardable(svc: FakeService) -> None:
    for base, kind in awardables(svc):
        created = award(svc, base, "dora-token", "+1")
        assert created.status == 201
        record = body(created)
        assert sorted(record) == sorted(
            ["id", "name", "user", "created_at", "updated_at", "awardable_id", "awardable_type"]
        )
        assert (record["name"], record["awardable_type"], record["user"]["username"]) == (
            "thumbsup",
            kind,
            "dora",
        )
        one = f"{base}/award_emoji/{record['id']}"
        assert body(call(svc, "GET", one, "rita-token")) == record
        listed = call(svc, "GET", f"{base}/award_emoji", "rita-token")
        assert body(listed) == [record] and listed.header("X-Total") == "1"
        assert call(svc, "DELETE", one, "maya-token").status == 401
        assert body(call(svc, "DELETE", one, "maya-token")) == {"message": "401 Unauthorized"}
        assert call(svc, "DELETE", one, "dora-token").status == 204
        assert body(call(svc, "GET", one, "dora-token")) == {"message": "404 Not found"}


def test_errors(svc: FakeService) -> None:
    assert award(svc, ISSUE, "dora-token", "thumbsup").status == 201
    again = award(svc, ISSUE, "dora-token", "+1")
    assert (again.status, body(again)) == (
        404,
        {"message": "404 Award Emoji Name has already been taken Not Found"},
    )
    unknown = award(svc, ISSUE, "dora-token", "no_such_emoji")
    assert (unknown.status, body(unknown)) == (
        404,
        {"message": "404 Award Emoji Name is not a valid emoji name Not Found"},
    )
    missing = call(svc, "POST", f"{ISSUE}/award_emoji", "dora-token", json_body={})
    assert (missing.status, body(missing)) == (400, {"error": "name is missing"})
    assert award(svc, ISSUE, None, "tada").status == 401
    assert body(award(svc, ISSUE, "otto-token", "tada")) == {"message": "404 Project Not Found"}
    assert body(award(svc, f"/projects/{SHOP}/issues/99", "dora-token", "tada")) == {
        "message": "404 Not found"
    }
    other = award(svc, f"/projects/{SHOP}/issues/2", "dora-token", "tada")
    wrong_parent = call(svc, "GET", f"{ISSUE}/award_emoji/{body(other)['id']}", "dora-token")
    assert (wrong_parent.status, body(wrong_parent)) == (404, {"message": "404 Not found"})
    bad_id = call(svc, "GET", f"{ISSUE}/award_emoji/abc", "dora-token")
    assert (bad_id.status, body(bad_id)) == (400, {"error": "award_id is invalid"})
    # nothing changed by the refused calls
    names = [a["name"] for a in body(call(svc, "GET", f"{ISSUE}/award_emoji", "dora-token"))]
    assert names == ["thumbsup"]


def test_administrator_deletes_anyones_award(svc: FakeService) -> None:
    record = body(award(svc, ISSUE, "dora-token", "tada"))
    assert call(svc, "DELETE", f"{ISSUE}/award_emoji/{record['id']}", "root-token").status == 204


def test_votes_count_thumbs(svc: FakeService) -> None:
    open_mr(svc)
    for base in (ISSUE, MR):
        for token in ("dora-token", "maya-token"):
            assert award(svc, base, token, "thumbsup").status == 201
        assert award(svc, base, "rita-token", "-1").status == 201
        assert award(svc, base, "rita-token", "tada").status == 201
        single = body(call(svc, "GET", base, "rita-token"))
        assert (single["upvotes"], single["downvotes"]) == (2, 1)
    listed = body(call(svc, "GET", f"/projects/{SHOP}/issues", "rita-token", query={"iids[]": "1"}))
    assert (listed[0]["upvotes"], listed[0]["downvotes"]) == (2, 1)
    mrs = body(call(svc, "GET", f"/projects/{SHOP}/merge_requests", "rita-token"))
    assert (mrs[0]["upvotes"], mrs[0]["downvotes"]) == (2, 1)


def test_notes_are_awardable(svc: FakeService) -> None:
    note = body(call(svc, "POST", f"{ISSUE}/notes", "dora-token", json_body={"body": "Hi"}))
    base = f"{ISSUE}/notes/{note['id']}"
    created = body(award(svc, base, "rita-token", "rocket"))
    assert (created["awardable_type"], created["awardable_id"]) == ("Note", note["id"])
    assert body(call(svc, "GET", f"{base}/award_emoji", "rita-token")) == [created]
    assert body(call(svc, "GET", f"{ISSUE}/award_emoji", "rita-token")) == []
    missing = award(svc, f"{ISSUE}/notes/999", "rita-token", "rocket")
    assert (missing.status, body(missing)) == (404, {"message": "404 Not found"})
    assert call(svc, "DELETE", f"{ISSUE}/notes/{note['id']}", "dora-token").status == 204
    assert svc.store.tables["award_emoji"].get(created["id"]) is None


@pytest.mark.parametrize("text", [":thumbsup:", " :+1: ", "/award :thumbsup:"])
def test_award_only_note_body_makes_the_award(svc: FakeService, text: str) -> None:
    made = call(svc, "POST", f"{ISSUE}/notes", "dora-token", json_body={"body": text})
    assert made.status == 201
    listed = body(call(svc, "GET", f"{ISSUE}/award_emoji", "dora-token"))
    assert [(a["id"], a["name"]) for a in listed] == [(body(made)["id"], "thumbsup")]
    assert body(call(svc, "GET", ISSUE, "dora-token"))["upvotes"] == 1
    assert body(call(svc, "GET", f"{ISSUE}/notes", "dora-token")) == []
    # the same body again keeps the one award; a name that is no emoji is a note
    call(svc, "POST", f"{ISSUE}/notes", "dora-token", json_body={"body": text})
    assert len(body(call(svc, "GET", f"{ISSUE}/award_emoji", "dora-token"))) == 1
    note = call(svc, "POST", f"{ISSUE}/notes", "dora-token", json_body={"body": ":nonsense:"})
    assert body(note)["body"] == ":nonsense:"


def test_my_reaction_emoji_filters(svc: FakeService) -> None:
    open_mr(svc)
    award(svc, ISSUE, "dora-token", "thumbsup")
    award(svc, f"/projects/{SHOP}/issues/2", "dora-token", "tada")
    award(svc, f"/projects/{SHOP}/issues/2", "maya-token", "thumbsup")
    award(svc, MR, "dora-token", "rocket")

    def iids(path: str, token: str, **query: str) -> list[int]:
        found = call(svc, "GET", path, token, query=query)
        assert found.status == 200, found.body
        return sorted(i["iid"] for i in body(found))

    issues = f"/projects/{SHOP}/issues"
    assert iids(issues, "dora-token", my_reaction_emoji="thumbsup") == [1]
    assert iids(issues, "dora-token", my_reaction_emoji="+1") == [1]
    assert iids(issues, "dora-token", my_reaction_emoji="Any") == [1, 2]
    assert iids(issues, "dora-token", my_reaction_emoji="None") == [3]
    assert iids(issues, "maya-token", my_reaction_emoji="thumbsup") == [2]
    assert iids(issues, "dora-token", **{"not[my_reaction_emoji]": "thumbsup"}) == [2, 3]
    assert iids("/issues", "dora-token", my_reaction_emoji="tada") == [2]
    mrs = f"/projects/{SHOP}/merge_requests"
    assert iids(mrs, "dora-token", my_reaction_emoji="rocket") == [1]
    assert iids(mrs, "maya-token", my_reaction_emoji="Any") == []
    assert iids(mrs, "maya-token", my_reaction_emoji="None") == [1]


def test_epics_by_iid_and_their_notes() -> None:
    svc = new_service()
    epic = body(call(svc, "POST", "/groups/acme/epics", "alice-token", json_body={"title": "E"}))
    base = f"/groups/acme/epics/{epic['iid']}"
    created = body(award(svc, base, "alice-token", "thumbsup"))
    assert (created["awardable_type"], created["awardable_id"]) == ("Epic", epic["id"])
    got = body(call(svc, "GET", f"/groups/acme/epics/{epic['iid']}", "alice-token"))
    assert (got["upvotes"], got["downvotes"]) == (1, 0)
    listed = call(
        svc, "GET", "/groups/acme/epics", "alice-token", query={"my_reaction_emoji": "thumbsup"}
    )
    assert [e["iid"] for e in body(listed)] == [epic["iid"]]
    none = call(
        svc, "GET", "/groups/acme/epics", "alice-token", query={"my_reaction_emoji": "None"}
    )
    assert body(none) == []
    note = body(
        call(
            svc,
            "POST",
            f"/groups/acme/epics/{epic['id']}/notes",
            "alice-token",
            json_body={"body": "n"},
        )
    )
    on_note = body(award(svc, f"{base}/notes/{note['id']}", "alice-token", "eyes"))
    assert (on_note["awardable_type"], on_note["awardable_id"]) == ("Note", note["id"])
    assert award(svc, "/groups/acme/epics/99", "alice-token", "eyes").status == 404


def test_python_gitlab_award_emoji(svc: FakeService) -> None:
    open_mr(svc)
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="dora-token")
        project = gl.projects.get("acme/shopfloor/shop")
        issue = project.issues.get(1)
        made = issue.awardemojis.create({"name": "thumbsup"})
        assert (made.name, made.awardable_type) == ("thumbsup", "Issue")
        assert [a.name for a in issue.awardemojis.list()] == ["thumbsup"]
        assert project.issues.get(1).upvotes == 1
        mr = project.mergerequests.get(1)
        mr.awardemojis.create({"name": "thumbsdown"})
        assert project.mergerequests.get(1).downvotes == 1
        note = mr.notes.create({"body": "Nice"})
        note.awardemojis.create({"name": "tada"})
        assert [a.name for a in note.awardemojis.list()] == ["tada"]
        with pytest.raises(gitlab.GitlabCreateError) as refused:
            issue.awardemojis.create({"name": "thumbsup"})
        assert refused.value.response_code == 404
        issue.awardemojis.get(made.id).delete()
        assert issue.awardemojis.list() == []
        reacted = project.mergerequests.list(my_reaction_emoji="thumbsdown")
        assert [m.iid for m in reacted] == [1]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["dora", "maya", "rita"]),
            st.sampled_from(["thumbsup", "thumbsdown", "tada"]),
            st.booleans(),
        ),
        max_size=12,
    )
)
def test_votes_follow_the_awards(steps: list[tuple[str, str, bool]]) -> None:
    """Whatever is awarded and taken back, ``upvotes``/``downvotes`` equal the thumbs in the
    award list, and no user holds the same emoji twice."""
    svc = new_service()
    held: dict[tuple[str, str], int] = {}
    for who, name, take_back in steps:
        key = (who, name)
        if take_back and key in held:
            path = f"{ISSUE}/award_emoji/{held.pop(key)}"
            assert call(svc, "DELETE", path, f"{who}-token").status == 204
        else:
            answer = award(svc, ISSUE, f"{who}-token", name)
            assert answer.status == (404 if key in held else 201)
            if answer.status == 201:
                held[key] = body(answer)["id"]
    listed = body(call(svc, "GET", f"{ISSUE}/award_emoji", "rita-token", query={"per_page": "100"}))
    assert sorted(a["id"] for a in listed) == sorted(held.values())
    issue = body(call(svc, "GET", ISSUE, "rita-token"))
    names = [a["name"] for a in listed]
    assert (issue["upvotes"], issue["downvotes"]) == (
        names.count("thumbsup"),
        names.count("thumbsdown"),
    )
