"""Issues: create, list with the common filters, get, update with ``state_event``, delete,
confidentiality and permissions; raw HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
import pytest
from support.calls import body, call

from fakeservice import FakeService

from .conftest import SHOP, user_id

ISSUES = f"/projects/{SHOP}/issues"


def titles(response: object) -> list[str]:
    return [issue["title"] for issue in body(response)]  # type: ignore[arg-type]


def test_list_filters(svc: FakeService) -> None:
    assert titles(call(svc, "GET", ISSUES, "maya-token")) == [
        "Secret",
        "Add coupons",
        "Cart is empty",
    ]
    assert titles(call(svc, "GET", ISSUES, "maya-token", query={"labels": "bug"})) == [
        "Cart is empty"
    ]
    assert titles(call(svc, "GET", ISSUES, "maya-token", query={"labels": "None"})) == ["Secret"]
    assert titles(
        call(svc, "GET", ISSUES, "maya-token", query={"labels": "Any", "sort": "asc"})
    ) == [
        "Cart is empty",
        "Add coupons",
    ]
    assert titles(call(svc, "GET", ISSUES, "maya-token", query={"milestone": "v1.0"})) == [
        "Cart is empty"
    ]
    assert titles(call(svc, "GET", ISSUES, "maya-token", query={"not[labels]": "bug"})) == [
        "Secret",
        "Add coupons",
    ]
    assert titles(call(svc, "GET", ISSUES, "maya-token", query={"author_username": "dora"})) == [
        "Add coupons"
    ]
    assert titles(call(svc, "GET", ISSUES, "maya-token", query={"search": "COUPON"})) == [
        "Add coupons"
    ]
    assert titles(call(svc, "GET", ISSUES, "maya-token", query={"iids[]": ["1", "3"]})) == [
        "Secret",
        "Cart is empty",
    ]
    both = call(svc, "GET", ISSUES, "maya-token", query={"author_id": "1", "author_username": "x"})
    assert (both.status, body(both)) == (
        400,
        {"error": "author_id, author_username are mutually exclusive"},
    )
    detailed = body(
        call(
            svc, "GET", ISSUES, "maya-token", query={"labels": "bug", "with_labels_details": "true"}
        )
    )
    assert (
        detailed[0]["labels"][0]["name"] == "bug" and detailed[0]["labels"][0]["color"] == "#d9534f"
    )


def test_confidential_issues_are_hidden_from_guests(svc: FakeService) -> None:
    assert titles(call(svc, "GET", ISSUES, "gus-token")) == ["Add coupons", "Cart is empty"]
    hidden = call(svc, "GET", f"{ISSUES}/3", "gus-token")
    assert (hidden.status, body(hidden)) == (404, {"message": "404 Not found"})
    secret = body(call(svc, "GET", f"{ISSUES}/3", "rita-token"))
    assert secret["task_completion_status"] == {"count": 2, "completed_count": 1}
    assert secret["references"] == {
        "short": "#3",
        "relative": "#3",
        "full": "acme/shopfloor/shop#3",
    }
    outsider = call(svc, "GET", ISSUES, "otto-token")
    assert (outsider.status, body(outsider)) == (404, {"message": "404 Project Not Found"})


def test_create_update_close_reopen_delete(svc: FakeService) -> None:
    dora = user_id(svc, "dora")
    created = call(
        svc,
        "POST",
        ISSUES,
        "gus-token",
        json_body={
            "title": "Typo",
            "labels": "bug,docs",
            "assignee_ids": [dora],
            "milestone_id": 999,
        },
    )
    assert created.status == 201
    issue = body(created)
    assert (issue["iid"], issue["labels"], issue["milestone"]) == (4, ["bug", "docs"], None)
    assert [a["username"] for a in issue["assignees"]] == ["dora"]
    assert issue["assignee"]["username"] == "dora" and issue["subscribed"] is True is not None
    docs = body(call(svc, "GET", f"/projects/{SHOP}/labels/docs", "maya-token"))
    assert docs["color"] == "#6699cc"

    edited = body(
        call(
            svc,
            "PUT",
            f"{ISSUES}/4",
            "gus-token",
            json_body={"add_labels": "feature", "remove_labels": "docs", "title": "Typo fix"},
        )
    )
    assert (edited["title"], edited["labels"]) == ("Typo fix", ["bug", "feature"])
    assert call(svc, "PUT", f"{ISSUES}/1", "gus-token", json_body={"title": "x"}).status == 403

    svc.clock.advance(seconds=60)
    closed = body(call(svc, "PUT", f"{ISSUES}/4", "rita-token", json_body={"state_event": "close"}))
    assert closed["state"] == "closed" and closed["closed_by"]["username"] == "rita"
    assert closed["closed_at"] == closed["updated_at"] != closed["created_at"]
    reopened = body(
        call(svc, "PUT", f"{ISSUES}/4", "rita-token", json_body={"state_event": "reopen"})
    )
    assert (reopened["state"], reopened["closed_at"], reopened["closed_by"]) == (
        "opened",
        None,
        None,
    )

    blank = call(svc, "PUT", f"{ISSUES}/4", "rita-token", json_body={"title": " "})
    assert (blank.status, body(blank)) == (400, {"message": {"title": ["can't be blank"]}})
    nothing = call(svc, "PUT", f"{ISSUES}/4", "rita-token", json_body={})
    assert (
        nothing.status == 400
        and "at least one parameter must be provided" in body(nothing)["error"]
    )

    assert call(svc, "DELETE", f"{ISSUES}/4", "maya-token").status == 403
    assert call(svc, "DELETE", f"{ISSUES}/4", "root-token").status == 204
    assert call(svc, "GET", f"{ISSUES}/4", "root-token").status == 404
    missing = call(svc, "POST", ISSUES, "gus-token", json_body={})
    assert body(missing) == {"error": "title is missing"}
    assert call(svc, "POST", ISSUES, None, json_body={"title": "x"}).status == 401


def test_backdating_needs_owner(svc: FakeService) -> None:
    stamp = "2025-05-01T10:00:00Z"
    by_maintainer = body(
        call(svc, "POST", ISSUES, "maya-token", json_body={"title": "a", "created_at": stamp})
    )
    assert by_maintainer["created_at"] != stamp
    by_owner = body(
        call(svc, "POST", ISSUES, "alice-token", json_body={"title": "b", "created_at": stamp})
    )
    assert by_owner["created_at"] == stamp


def test_cross_project_lists(svc: FakeService) -> None:
    mine = titles(call(svc, "GET", "/issues", "dora-token"))
    assert mine == ["Add coupons"]
    everything = titles(call(svc, "GET", "/issues", "gus-token", query={"scope": "all"}))
    assert everything == ["Add coupons", "Cart is empty"]
    group = titles(call(svc, "GET", "/groups/acme/issues", "maya-token", query={"labels": "bug"}))
    assert group == ["Cart is empty"]
    assert call(svc, "GET", "/issues", None).status == 401


def test_python_gitlab_issues(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="maya-token")
        project = gl.projects.get("acme/shopfloor/shop")
        issue = project.issues.create({"title": "From the client", "labels": ["bug"]})
        assert (issue.iid, issue.project_id) == (4, project.id)
        issue.state_event = "close"
        issue.save()
        assert project.issues.get(4).state == "closed"
        assert [i.iid for i in project.issues.list(state="opened", get_all=True)] == [3, 2, 1]
        assert [i.iid for i in project.issues.list(labels=["bug"], get_all=True)] == [4, 1]
        with pytest.raises(gitlab.GitlabDeleteError) as refused:
            issue.delete()  # a maintainer may not
        assert refused.value.response_code == 403
