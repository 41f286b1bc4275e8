"""Labels and milestones of projects and groups, through raw HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
import pytest
from support.calls import body, call

from fakeservice import FakeService

from .conftest import SHOP

LABELS = f"/projects/{SHOP}/labels"
MILESTONES = f"/projects/{SHOP}/milestones"


def test_project_labels_include_ancestor_group_labels(svc: FakeService) -> None:
    listed = body(call(svc, "GET", LABELS, "maya-token"))
    assert [(label["name"], label["is_project_label"]) for label in listed] == [
        ("bug", True),
        ("feature", True),
        ("group-wide", False),
    ]
    assert listed[0]["text_color"] == "#FFFFFF" and listed[1]["text_color"] == "#1F1E24"
    own = body(call(svc, "GET", LABELS, "maya-token", query={"include_ancestor_groups": "false"}))
    assert [label["name"] for label in own] == ["bug", "feature"]


def test_label_counts_follow_issues(svc: FakeService) -> None:
    counted = body(call(svc, "GET", LABELS, "maya-token", query={"with_counts": "true"}))
    bug = next(label for label in counted if label["name"] == "bug")
    assert (bug["open_issues_count"], bug["closed_issues_count"]) == (1, 0)
    call(svc, "PUT", f"/projects/{SHOP}/issues/1", "maya-token", json_body={"state_event": "close"})
    counted = body(call(svc, "GET", LABELS, "maya-token", query={"with_counts": "true"}))
    bug = next(label for label in counted if label["name"] == "bug")
    assert (bug["open_issues_count"], bug["closed_issues_count"]) == (0, 1)
    assert "open_issues_count" not in body(call(svc, "GET", LABELS, "maya-token"))[0]


def test_label_crud_and_errors(svc: FakeService) -> None:
    created = call(svc, "POST", LABELS, "rita-token", json_body={"name": "ux", "color": "#abc"})
    assert created.status == 201 and body(created)["color"] == "#abc"
    dup = call(svc, "POST", LABELS, "rita-token", json_body={"name": "UX", "color": "#abc"})
    assert (dup.status, body(dup)) == (409, {"message": "Label already exists"})
    bad = call(svc, "POST", LABELS, "rita-token", json_body={"name": "x", "color": "nope"})
    assert (bad.status, body(bad)) == (400, {"message": {"color": ["must be a valid color code"]}})
    missing = call(svc, "POST", LABELS, "rita-token", json_body={"name": "x"})
    assert body(missing) == {"error": "color is missing"}
    assert (
        call(svc, "POST", LABELS, "gus-token", json_body={"name": "y", "color": "#fff"}).status
        == 403
    )
    nothing = call(svc, "PUT", f"{LABELS}/ux", "rita-token", json_body={})
    assert body(nothing) == {
        "error": "new_name, color, description, priority are missing, "
        "at least one parameter must be provided"
    }
    renamed = call(svc, "PUT", f"{LABELS}/ux", "rita-token", json_body={"new_name": "design"})
    assert body(renamed)["name"] == "design"
    assert body(call(svc, "GET", f"{LABELS}/design", "rita-token"))["id"] == body(created)["id"]
    assert call(svc, "DELETE", f"{LABELS}/design", "rita-token").status == 204
    gone = call(svc, "GET", f"{LABELS}/design", "rita-token")
    assert (gone.status, body(gone)) == (404, {"message": "404 Label Not Found"})
    assert call(svc, "GET", LABELS, "otto-token").status == 404


def test_group_labels(svc: FakeService) -> None:
    base = "/groups/acme%2Fshopfloor/labels"
    created = call(svc, "POST", base, "alice-token", json_body={"name": "ops", "color": "#000"})
    assert created.status == 201 and "priority" not in body(created)
    assert [label["name"] for label in body(call(svc, "GET", base, "alice-token"))] == [
        "group-wide",
        "ops",
    ]


def test_milestones_crud_filters_and_state(svc: FakeService) -> None:
    listed = body(call(svc, "GET", MILESTONES, "rita-token"))
    assert [m["title"] for m in listed] == ["v0.9", "v1.0"]
    assert listed[1]["due_date"] == "2026-12-01" and listed[1]["iid"] == 1
    assert listed[1]["web_url"].endswith("/acme/shopfloor/shop/-/milestones/1")
    one = body(call(svc, "GET", MILESTONES, "rita-token", query={"iids[]": "2"}))
    assert [m["title"] for m in one] == ["v0.9"]
    taken = call(svc, "POST", MILESTONES, "rita-token", json_body={"title": "v1.0"})
    assert (taken.status, body(taken)) == (400, {"message": {"title": ["has already been taken"]}})
    closed = call(
        svc,
        "PUT",
        f"{MILESTONES}/{listed[0]['id']}",
        "rita-token",
        json_body={"state_event": "close"},
    )
    assert body(closed)["state"] == "closed"
    active = body(call(svc, "GET", MILESTONES, "rita-token", query={"state": "active"}))
    assert [m["title"] for m in active] == ["v1.0"]
    bad = call(svc, "GET", MILESTONES, "rita-token", query={"state": "open"})
    assert body(bad) == {"error": "state does not have a valid value"}
    assert call(svc, "DELETE", f"{MILESTONES}/{listed[0]['id']}", "rita-token").status == 204
    assert call(svc, "GET", f"{MILESTONES}/{listed[0]['id']}", "rita-token").status == 404


def test_python_gitlab_labels_and_milestones(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="maya-token")
        project = gl.projects.get("acme/shopfloor/shop")
        label = project.labels.create({"name": "perf", "color": "#123456"})
        label.description = "Speed"
        label.save()
        assert project.labels.get("perf").description == "Speed"
        milestone = project.milestones.create({"title": "v2.0", "due_date": "2027-01-01"})
        milestone.state_event = "close"
        milestone.save()
        assert project.milestones.get(milestone.id).state == "closed"
        with pytest.raises(gitlab.GitlabCreateError) as error:
            project.labels.create({"name": "perf", "color": "#123456"})
        assert error.value.response_code == 409
