"""``GET /projects/:id/users`` (everyone with access: direct, inherited and shared-in
members, by id; ``search``, ``skip_users[]``) and the merge request reviewers list
(``/merge_requests/:iid/reviewers``: requests recorded on creation and updates). Raw HTTP
and python-gitlab (``project.users``, ``mr.reviewer_details``)."""

from __future__ import annotations

import gitlab
from support.calls import body, call

from fakeservice import FakeService
from fakeservice.core.clock import iso

from .conftest import SHOP, user_id
from .test_merge_requests import MRS, open_mr

USERS = f"/projects/{SHOP}/users"
EVERYONE = ["alice", "bob", "maya", "dora", "rita", "gus"]


def names(svc: FakeService, token: str = "dora-token", **query: str) -> list[str]:
    response = call(svc, "GET", USERS, token, query={"per_page": "100", **query})
    assert response.status == 200, response.body
    return [user["username"] for user in body(response)]


def test_project_users_are_everyone_with_access_by_id(svc: FakeService) -> None:
    ids = [user_id(svc, name) for name in EVERYONE]
    assert ids == sorted(ids)
    assert names(svc) == EVERYONE
    (first,) = body(call(svc, "GET", USERS, "dora-token", query={"search": "maya"}))
    assert first == {
        "id": user_id(svc, "maya"),
        "username": "maya",
        "name": "Maya Maintainer",
        "state": "active",
        "locked": False,
        "avatar_url": None,
        "web_url": "http://fakeservice.test/maya",
    }
    assert names(svc, search="Reporter") == ["rita"]
    skip = [("skip_users[]", str(user_id(svc, n))) for n in ("alice", "bob")]
    response = call(svc, "GET", USERS, "dora-token", query=[("per_page", "100"), *skip])
    assert [u["username"] for u in body(response)] == ["maya", "dora", "rita", "gus"]
    paged = call(svc, "GET", USERS, "dora-token", query={"per_page": "2", "page": "2"})
    assert [u["username"] for u in body(paged)] == ["maya", "dora"]
    assert paged.header("X-Total") == "6"


def test_project_users_refusals(svc: FakeService) -> None:
    for token in ("otto-token", None):
        response = call(svc, "GET", USERS, token)
        assert (response.status, body(response)) == (404, {"message": "404 Project Not Found"})
    bad = call(svc, "GET", USERS, "dora-token", query={"skip_users[]": "abc"})
    assert bad.status == 400
    public = call(svc, "GET", "/projects/acme%2Fwebsite/users", None)
    assert public.status == 200 and [u["username"] for u in body(public)] == ["alice", "bob"]


def test_reviewers_with_their_request_time_and_state(svc: FakeService) -> None:
    maya, rita = user_id(svc, "maya"), user_id(svc, "rita")
    created = open_mr(svc, reviewer_ids=[maya])
    svc.clock.advance(seconds=90)
    later = iso(svc.clock.now())
    updated = call(svc, "PUT", f"{MRS}/1", "dora-token", json_body={"reviewer_ids": [maya, rita]})
    assert updated.status == 200, updated.body
    assert call(svc, "POST", f"{MRS}/1/approve", "maya-token").status == 201
    listed = body(call(svc, "GET", f"{MRS}/1/reviewers", "dora-token"))
    assert [(r["user"]["username"], r["state"], r["created_at"]) for r in listed] == [
        ("maya", "approved", created["created_at"]),
        ("rita", "unreviewed", later),
    ]
    assert sorted(listed[0]) == ["created_at", "state", "user"]
    call(svc, "PUT", f"{MRS}/1", "dora-token", json_body={"reviewer_ids": [rita]})
    call(svc, "PUT", f"{MRS}/1", "dora-token", json_body={"reviewer_ids": [rita, maya]})
    again = body(call(svc, "GET", f"{MRS}/1/reviewers", "dora-token"))
    assert [(r["user"]["username"], r["created_at"]) for r in again] == [
        ("rita", later),
        ("maya", later),  # asked again: a new request
    ]
    assert call(svc, "GET", f"{MRS}/99/reviewers", "dora-token").status == 404
    assert call(svc, "GET", f"{MRS}/1/reviewers", "otto-token").status == 404
    assert call(svc, "GET", f"{MRS}/1/reviewers", None).status == 401


def test_python_gitlab_project_users_and_reviewers(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="dora-token", session=svc.requests_session())
    project = gl.projects.get("acme/shopfloor/shop")
    assert [u.username for u in project.users.list(get_all=True)] == EVERYONE
    skip = [user_id(svc, "alice"), user_id(svc, "bob")]
    found = project.users.list(search="a", skip_users=skip, get_all=True)
    assert [u.username for u in found] == ["maya", "dora", "rita"]
    mr = project.mergerequests.create(
        {
            "source_branch": "feature",
            "target_branch": "main",
            "title": "Checkout",
            "reviewer_ids": [user_id(svc, "rita")],
        }
    )
    (only,) = mr.reviewer_details.list(get_all=True)
    assert (only.user["username"], only.state) == ("rita", "unreviewed")
