"""Epics over raw HTTP: the six operations, every field, the composite dates, labels,
nesting, confidentiality, permissions and the plan gate."""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService

from .conftest import ALICE, BOB, CAROL, EPICS, create

EDIT_FIELDS = {
    "start_date_is_fixed",
    "start_date_fixed",
    "start_date_from_milestones",
    "start_date_from_inherited_source",
    "due_date_is_fixed",
    "due_date_fixed",
    "due_date_from_milestones",
    "due_date_from_inherited_source",
}


def group_id(svc: FakeService, path: str) -> int:
    return body(call(svc, "GET", f"/groups/{path.replace('/', '%2F')}"))["id"]


def test_create_answers_every_field(svc: FakeService) -> None:
    epic = create(
        svc, title="Launch", description="Go live", labels="web,launch", confidential=False
    )
    gid = group_id(svc, "acme")
    api = f"http://fakeservice.test/api/v4/groups/{gid}"
    assert epic == {
        "id": 1,
        "iid": 1,
        "group_id": gid,
        "parent_id": None,
        "parent_iid": None,
        "title": "Launch",
        "description": "Go live",
        "state": "opened",
        "confidential": False,
        "web_url": "http://fakeservice.test/groups/acme/-/epics/1",
        "reference": "&1",
        "references": {"short": "&1", "relative": "&1", "full": "acme&1"},
        "author": {
            "id": epic["author"]["id"],
            "username": "alice",
            "name": "Alice Liddell",
            "state": "active",
            "locked": False,
            "avatar_url": None,
            "web_url": "http://fakeservice.test/alice",
        },
        "start_date": None,
        "start_date_is_fixed": False,
        "start_date_fixed": None,
        "start_date_from_milestones": None,
        "start_date_from_inherited_source": None,
        "end_date": None,
        "due_date": None,
        "due_date_is_fixed": False,
        "due_date_fixed": None,
        "due_date_from_milestones": None,
        "due_date_from_inherited_source": None,
        "created_at": "2026-01-01T09:00:00Z",
        "updated_at": "2026-01-01T09:00:00Z",
        "closed_at": None,
        "labels": ["launch", "web"],
        "upvotes": 0,
        "downvotes": 0,
        "user_notes_count": 0,
        "subscribed": True,
        "_links": {
            "self": f"{api}/epics/1",
            "epic_issues": f"{api}/epics/1/issues",
            "group": api,
            "parent": None,
        },
    }
    assert body(call(svc, "GET", f"{EPICS}/1", ALICE)) == epic
    listed = body(call(svc, "GET", EPICS, ALICE))
    assert listed == [{k: v for k, v in epic.items() if k != "subscribed"}]


def test_edit_fields_only_for_editors(svc: FakeService) -> None:
    create(svc)
    outsider = body(call(svc, "GET", f"{EPICS}/1", CAROL))
    assert not EDIT_FIELDS & set(outsider)
    assert outsider["subscribed"] is False
    reporter = body(call(svc, "GET", f"{EPICS}/1", BOB))
    assert set(reporter) >= EDIT_FIELDS


def test_composite_dates_fixed_and_inherited(svc: FakeService) -> None:
    parent = create(svc, title="Parent")
    create(
        svc,
        title="A",
        parent_id=parent["id"],
        start_date_fixed="2026-03-01",
        start_date_is_fixed=True,
        due_date_fixed="2026-04-01",
        due_date_is_fixed=True,
    )
    create(
        svc,
        "/groups/acme%2Fplatform/epics",
        title="B",
        parent_id=parent["id"],
        start_date_fixed="2026-02-01",
        start_date_is_fixed=True,
    )
    data = body(call(svc, "GET", f"{EPICS}/{parent['iid']}", ALICE))
    assert (data["start_date"], data["due_date"], data["end_date"]) == (
        "2026-02-01",
        "2026-04-01",
        "2026-04-01",
    )
    assert data["start_date_from_inherited_source"] == "2026-02-01"
    assert data["start_date_is_fixed"] is False
    fixed = call(
        svc,
        "PUT",
        f"{EPICS}/1",
        ALICE,
        json_body={"start_date_is_fixed": True, "start_date_fixed": "2026-01-15"},
    )
    data = body(fixed)
    assert (
        data["start_date"],
        data["start_date_fixed"],
        data["start_date_from_inherited_source"],
    ) == ("2026-01-15", "2026-01-15", "2026-02-01")
    # a fixed date without the flag is kept but not used
    data = body(call(svc, "PUT", f"{EPICS}/1", ALICE, json_body={"start_date_is_fixed": False}))
    assert (data["start_date"], data["start_date_fixed"]) == ("2026-02-01", "2026-01-15")
    assert call(svc, "PUT", f"{EPICS}/1", ALICE, json_body={"due_date_fixed": "soon"}).status == 400


def test_close_and_reopen_through_the_machine(svc: FakeService) -> None:
    create(svc)
    svc.advance_clock(minutes=5)
    closed = body(call(svc, "PUT", f"{EPICS}/1", ROOT, json_body={"state_event": "close"}))
    assert (closed["state"], closed["closed_at"], closed["updated_at"]) == (
        "closed",
        "2026-01-01T09:05:00Z",
        "2026-01-01T09:05:00Z",
    )
    from fakeservice.epics.models import epics

    record = epics(svc.store).get(1)
    assert record is not None and record.closed_by_id == body(call(svc, "GET", "/user", ROOT))["id"]
    again = body(call(svc, "PUT", f"{EPICS}/1", ALICE, json_body={"state_event": "close"}))
    assert again["closed_at"] == "2026-01-01T09:05:00Z"
    reopened = body(call(svc, "PUT", f"{EPICS}/1", ALICE, json_body={"state_event": "reopen"}))
    assert (reopened["state"], reopened["closed_at"]) == ("opened", None)
    assert record.closed_by_id is None
    bad = call(svc, "PUT", f"{EPICS}/1", ALICE, json_body={"state_event": "merge"})
    assert body(bad) == {"error": "state_event does not have a valid value"}


def test_labels_replace_add_remove_and_clear(svc: FakeService) -> None:
    create(svc, labels="a,b")
    put = lambda **f: body(call(svc, "PUT", f"{EPICS}/1", ALICE, json_body=f))["labels"]  # noqa: E731
    assert put(add_labels="c,a") == ["a", "b", "c"]
    assert put(remove_labels="a,zzz") == ["b", "c"]
    assert put(labels=["x", "y"], add_labels="z", remove_labels="x") == ["y", "z"]
    assert put(labels="") == []
    assert put(title="kept") == []


def test_nesting_rules(svc: FakeService) -> None:
    top = create(svc, title="Top")
    child = create(svc, "/groups/acme%2Fplatform/epics", title="Child", parent_id=top["id"])
    assert (child["parent_id"], child["parent_iid"]) == (top["id"], top["iid"])
    assert child["_links"]["parent"].endswith(f"/groups/{top['group_id']}/epics/{top['iid']}")
    upward = call(svc, "POST", EPICS, ALICE, json_body={"title": "Up", "parent_id": child["id"]})
    assert body(upward) == {
        "message": {
            "parent": [
                "This epic cannot be added. An epic must belong to the same group or subgroup as its parent epic."
            ]
        }
    }
    cycle = call(svc, "PUT", f"{EPICS}/{top['iid']}", ALICE, json_body={"parent_id": top["id"]})
    assert body(cycle) == {
        "message": {"parent": ["This epic cannot be added. An epic cannot be added to itself."]}
    }
    unknown = call(svc, "POST", EPICS, ALICE, json_body={"title": "x", "parent_id": 999})
    assert body(unknown)["message"]["parent"] == [
        "No matching epic found. Make sure that you are adding a valid epic URL."
    ]
    chain = [top]
    for depth in range(5):
        chain.append(create(svc, title=f"level {depth}", parent_id=chain[-1]["id"]))
    create(svc, title="level 7", parent_id=chain[-1]["id"])
    too_deep = call(svc, "POST", EPICS, ALICE, json_body={"title": "level 8", "parent_id": 8})
    assert "maximum depth (7)" in body(too_deep)["message"]["parent"][0]
    # deleting a parent frees its children
    assert call(svc, "DELETE", f"{EPICS}/{top['iid']}", ALICE).status == 204
    assert body(call(svc, "GET", "/groups/acme%2Fplatform/epics/1", ALICE))["parent_id"] is None


def test_confidential_epics(svc: FakeService) -> None:
    secret = create(svc, title="Secret", confidential=True)
    public_child = call(
        svc, "POST", EPICS, ALICE, json_body={"title": "Open", "parent_id": secret["id"]}
    )
    assert body(public_child) == {
        "message": {
            "confidential": [
                "A non-confidential epic cannot be assigned to a confidential parent epic"
            ]
        }
    }
    create(svc, title="Open")
    assert [e["title"] for e in body(call(svc, "GET", EPICS, CAROL))] == ["Open"]
    assert call(svc, "GET", f"{EPICS}/{secret['iid']}", CAROL).status == 404
    assert [e["title"] for e in body(call(svc, "GET", EPICS, BOB))] == ["Open", "Secret"]
    parent = create(svc, title="Parent")
    create(svc, title="Kid", parent_id=parent["id"])
    refused = call(svc, "PUT", f"{EPICS}/{parent['iid']}", ALICE, json_body={"confidential": True})
    assert body(refused) == {
        "message": {
            "confidential": [
                "Cannot make the epic confidential if it contains non-confidential child epics"
            ]
        }
    }


def test_permissions(svc: FakeService) -> None:
    create(svc)
    anonymous = call(svc, "GET", EPICS, None)
    assert (anonymous.status, body(anonymous)) == (401, {"message": "401 Unauthorized"})
    denied = call(svc, "POST", EPICS, CAROL, json_body={"title": "x"})
    assert (denied.status, body(denied)) == (403, {"message": "403 Forbidden"})
    assert call(svc, "PUT", f"{EPICS}/1", CAROL, json_body={"title": "x"}).status == 403
    assert call(svc, "DELETE", f"{EPICS}/1", BOB).status == 403
    assert call(svc, "DELETE", f"{EPICS}/1", CAROL).status == 403
    private = call(svc, "GET", "/groups/acme%2Fsecret-ops/epics", CAROL)
    assert (private.status, body(private)) == (404, {"message": "404 Group Not Found"})
    missing = call(svc, "GET", f"{EPICS}/99", ALICE)
    assert (missing.status, body(missing)) == (404, {"message": "404 Not found"})
    assert call(svc, "GET", f"{EPICS}/abc", ALICE).status == 400
    assert [e["title"] for e in body(call(svc, "GET", EPICS, ALICE))] == ["Epic"]


def test_backdating_needs_an_owner_or_admin(svc: FakeService) -> None:
    owned = create(svc, created_at="2025-06-01T00:00:00Z")
    assert owned["created_at"] == "2025-06-01T00:00:00Z"
    by_reporter = create(svc, token=BOB, created_at="2025-06-01T00:00:00Z")
    assert by_reporter["created_at"] == "2026-01-01T09:00:00Z"
    updated = call(
        svc,
        "PUT",
        f"{EPICS}/1",
        ROOT,
        json_body={"title": "t", "updated_at": "2025-07-01T00:00:00Z"},
    )
    assert body(updated)["updated_at"] == "2025-07-01T00:00:00Z"


def test_validation_changes_nothing(svc: FakeService) -> None:
    create(svc)
    before = body(call(svc, "GET", f"{EPICS}/1", ALICE))
    for payload, answer in (
        ({"title": ""}, {"error": "title is empty"}),
        ({"description": "x" * 1_048_577}, {"error": "description does not have a valid value"}),
        ({"confidential": "maybe"}, {"error": "confidential is invalid"}),
        ({"parent_id": "one"}, {"error": "parent_id is invalid"}),
    ):
        response = call(svc, "PUT", f"{EPICS}/1", ALICE, json_body={"labels": "z", **payload})
        assert (response.status, body(response)) == (400, answer)
    assert body(call(svc, "GET", f"{EPICS}/1", ALICE)) == before
    missing = call(svc, "POST", EPICS, ALICE, json_body={})
    assert body(missing) == {"error": "title is missing"}
    long_title = call(svc, "POST", EPICS, ALICE, json_body={"title": "t" * 256})
    assert body(long_title) == {"message": {"title": ["is too long (maximum is 255 characters)"]}}


def test_todo_and_its_javascript_spelling(svc: FakeService) -> None:
    epic = create(svc, title="Plan")
    first = call(svc, "POST", f"{EPICS}/1/todo", BOB)
    assert first.status == 201
    todo = body(first)
    assert (todo["action_name"], todo["target_type"], todo["body"], todo["state"]) == (
        "marked",
        "Epic",
        "Plan",
        "pending",
    )
    assert todo["target"]["id"] == epic["id"]
    assert todo["target_url"] == epic["web_url"]
    assert todo["group"]["full_path"] == "acme"
    assert todo["author"]["username"] == "bob"
    again = call(svc, "POST", f"{EPICS}/1/todos", BOB)
    assert (again.status, again.body) == (304, b"")
    assert call(svc, "POST", f"{EPICS}/1/todos", ALICE).status == 201


def test_plan_without_epics_answers_403() -> None:
    svc = FakeService(
        {
            "users": [{"username": "root", "admin": True, "tokens": [{"token": ROOT}]}],
            "groups": [{"path": "g", "visibility": "private", "epics": [{"title": "kept"}]}],
            "instance": {"plan": "free"},
        }
    )
    for method, path in (
        ("GET", "/groups/g/epics"),
        ("GET", "/groups/g/epics/1"),
        ("POST", "/groups/g/epics"),
        ("PUT", "/groups/g/epics/1"),
        ("DELETE", "/groups/g/epics/1"),
        ("POST", "/groups/g/epics/1/todo"),
    ):
        response = call(svc, method, path, json_body={"title": "x"})
        assert (response.status, body(response)) == (403, {"message": "403 Forbidden"}), (
            method,
            path,
        )
    assert call(svc, "GET", "/groups/nope/epics").status == 404


@pytest.mark.parametrize(
    ("query", "titles"),
    [
        ({}, ["delta", "gamma", "beta", "alpha"]),
        ({"sort": "asc"}, ["alpha", "beta", "gamma", "delta"]),
        ({"order_by": "title", "sort": "asc"}, ["alpha", "beta", "delta", "gamma"]),
        ({"order_by": "updated_at"}, ["alpha", "beta", "delta", "gamma"]),
        ({"state": "closed"}, ["beta"]),
        ({"state": "opened"}, ["delta", "gamma", "alpha"]),
        ({"labels": "x"}, ["gamma", "alpha"]),
        ({"labels": "x,y"}, ["alpha"]),
        ({"labels": "None"}, ["delta", "beta"]),
        ({"labels": "Any"}, ["gamma", "alpha"]),
        ({"not[labels]": "y"}, ["delta", "gamma", "beta"]),
        ({"search": "ALP"}, ["alpha"]),
        ({"search": "notes"}, ["beta"]),
        ({"author_id": "BOB"}, ["gamma"]),
        ({"not[author_id]": "BOB"}, ["delta", "beta", "alpha"]),
        ({"created_after": "2026-01-01T10:00:00Z"}, ["delta", "gamma", "beta"]),
        ({"created_before": "2026-01-01T10:00:00Z"}, ["beta", "alpha"]),
        ({"updated_after": "2026-01-01T13:00:00Z"}, ["beta", "alpha"]),
        ({"updated_before": "2026-01-01T09:30:00Z"}, []),
        ({"include_descendant_groups": "false"}, ["gamma", "beta", "alpha"]),
        ({"my_reaction_emoji": "Any"}, []),
        ({"my_reaction_emoji": "None"}, ["delta", "gamma", "beta", "alpha"]),
    ],
)  # fmt: skip
def test_list_filters(svc: FakeService, query: dict[str, str], titles: list[str]) -> None:
    bob = body(call(svc, "GET", "/user", BOB))["id"]
    create(svc, title="alpha", labels="x,y")
    svc.advance_clock(hours=1)
    create(svc, title="beta", description="release notes")
    svc.advance_clock(hours=1)
    create(svc, token=BOB, title="gamma", labels="x")
    svc.advance_clock(hours=1)
    create(svc, "/groups/acme%2Fplatform/epics", title="delta")
    svc.advance_clock(hours=1)
    call(svc, "PUT", f"{EPICS}/2", ALICE, json_body={"state_event": "close"})
    svc.advance_clock(hours=1)
    call(svc, "PUT", f"{EPICS}/1", ALICE, json_body={"description": "touched"})
    query = {k: (str(bob) if v == "BOB" else v) for k, v in query.items()}
    response = call(svc, "GET", EPICS, ALICE, query=query)
    assert response.status == 200, response.body
    assert [e["title"] for e in body(response)] == titles


def test_ancestors_and_label_details(svc: FakeService) -> None:
    create(svc, title="top", labels="roadmap")
    create(svc, "/groups/acme%2Fplatform/epics", title="sub")
    platform = "/groups/acme%2Fplatform/epics"
    assert [e["title"] for e in body(call(svc, "GET", platform, ALICE))] == ["sub"]
    both = body(call(svc, "GET", platform, ALICE, query={"include_ancestor_groups": "true"}))
    assert [e["title"] for e in both] == ["sub", "top"]
    detailed = body(
        call(svc, "GET", EPICS, ALICE, query={"with_labels_details": "true", "search": "top"})
    )
    assert detailed[0]["labels"][0]["name"] == "roadmap"
    bad = call(svc, "GET", EPICS, ALICE, query={"not[author_id]": "me"})
    assert (bad.status, body(bad)) == (400, {"error": "not[author_id] is invalid"})


def test_pagination_headers(svc: FakeService) -> None:
    for n in range(25):
        create(svc, title=f"e{n:02d}")
    page = call(svc, "GET", EPICS, ALICE, query={"per_page": 10, "page": 3})
    assert (page.header("x-total"), page.header("x-total-pages"), page.header("x-page")) == (
        "25",
        "3",
        "3",
    )
    assert [e["title"] for e in body(page)] == [f"e{n:02d}" for n in range(4, -1, -1)]


def test_scenario_epics() -> None:
    svc = FakeService(
        {
            "users": [
                {"username": "root", "admin": True, "tokens": [{"token": ROOT}]},
                {"username": "ann"},
            ],
            "groups": [
                {
                    "path": "g",
                    "epics": [
                        {
                            "title": "Launch",
                            "author": "ann",
                            "labels": ["r"],
                            "start_date_fixed": "2026-02-01",
                            "children": [
                                {"title": "Part", "state": "closed", "due_date_fixed": "2026-03-01"}
                            ],
                        },
                        {"title": "Other", "parent": "g&1", "confidential": False},
                    ],
                    "subgroups": [{"path": "s", "epics": [{"title": "Deep", "parent": "g&2"}]}],
                }
            ],
        }
    )
    listed = {e["title"]: e for e in body(call(svc, "GET", "/groups/g/epics"))}
    assert set(listed) == {"Launch", "Part", "Other", "Deep"}
    assert listed["Launch"]["author"]["username"] == "ann"
    assert (listed["Launch"]["start_date"], listed["Launch"]["due_date"]) == (
        "2026-02-01",
        "2026-03-01",
    )
    assert listed["Part"]["state"] == "closed" and listed["Part"]["closed_at"] is not None
    assert listed["Deep"]["parent_iid"] == 2


@pytest.mark.parametrize(
    "epic",
    [
        {"title": "x", "parent": "g&9"},
        {"title": "x", "author": "nobody"},
        {"description": "no title"},
    ],
)
def test_scenario_refuses_bad_epics(epic: dict[str, Any]) -> None:
    from fakeservice.scenarios.loader import ScenarioError

    with pytest.raises(ScenarioError):
        FakeService(
            {
                "users": [{"username": "root", "admin": True}],
                "groups": [{"path": "g", "epics": [epic]}],
            }
        )
