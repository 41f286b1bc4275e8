"""One label or milestone of a group, and the older label forms naming the label in the
body or query (``PUT``/``DELETE /projects/:id/labels``), over raw HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
from support.calls import body, call

from fakeservice import FakeService

from .conftest import SHOP

GROUP = "/groups/acme%2Fshopfloor"


def test_group_label_by_id_and_by_name(svc: FakeService) -> None:
    made = body(
        call(
            svc,
            "POST",
            f"{GROUP}/labels",
            "alice-token",
            json_body={"name": "ops", "color": "#000000"},
        )
    )
    got = call(svc, "GET", f"{GROUP}/labels/{made['id']}", "maya-token")
    assert (got.status, body(got)) == (200, made)
    assert (made["name"], made["color"], made["description"]) == ("ops", "#000000", None)
    edited = call(
        svc, "PUT", f"{GROUP}/labels/{made['id']}", "alice-token", json_body={"description": "Run"}
    )
    assert (edited.status, body(edited)["description"], body(edited)["id"]) == (
        200,
        "Run",
        made["id"],
    )
    renamed = call(
        svc, "PUT", f"{GROUP}/labels", "alice-token", json_body={"name": "ops", "new_name": "sre"}
    )
    assert (renamed.status, body(renamed)["name"], body(renamed)["id"]) == (200, "sre", made["id"])
    assert body(call(svc, "GET", f"{GROUP}/labels/sre", "maya-token"))["description"] == "Run"
    deleted = call(svc, "DELETE", f"{GROUP}/labels", "alice-token", query={"name": "sre"})
    assert deleted.status == 204
    names = [label["name"] for label in body(call(svc, "GET", f"{GROUP}/labels", "alice-token"))]
    assert names == ["group-wide"]
    other = body(
        call(
            svc, "POST", f"{GROUP}/labels", "alice-token", json_body={"name": "x", "color": "#fff"}
        )
    )
    assert call(svc, "DELETE", f"{GROUP}/labels/{other['id']}", "alice-token").status == 204
    assert call(svc, "GET", f"{GROUP}/labels/{other['id']}", "alice-token").status == 404


def test_project_label_named_in_the_body(svc: FakeService) -> None:
    labels = f"/projects/{SHOP}/labels"
    changed = call(
        svc,
        "PUT",
        labels,
        "maya-token",
        json_body={"name": "bug", "color": "#111111", "priority": 3},
    )
    assert changed.status == 200
    assert {k: body(changed)[k] for k in ("name", "color", "priority", "description")} == {
        "name": "bug",
        "color": "#111111",
        "priority": 3,
        "description": "Broken",
    }
    assert body(call(svc, "GET", f"{labels}/bug", "rita-token")) == body(changed)
    both = call(
        svc, "PUT", labels, "maya-token", json_body={"name": "bug", "label_id": 1, "color": "#000"}
    )
    assert both.status == 400
    assert call(svc, "DELETE", labels, "maya-token", query={"name": "feature"}).status == 204
    assert call(svc, "GET", f"{labels}/feature", "rita-token").status == 404


def test_group_milestones(svc: FakeService) -> None:
    created = call(
        svc,
        "POST",
        f"{GROUP}/milestones",
        "alice-token",
        json_body={"title": "Q1", "description": "first", "due_date": "2026-03-31"},
    )
    assert created.status == 201
    made = body(created)
    assert {k: made[k] for k in ("title", "description", "due_date", "state", "iid")} == {
        "title": "Q1",
        "description": "first",
        "due_date": "2026-03-31",
        "state": "active",
        "iid": 1,
    }
    assert "group_id" in made and "project_id" not in made
    one = f"{GROUP}/milestones/{made['id']}"
    got = call(svc, "GET", one, "maya-token")
    assert (got.status, body(got)) == (200, made)
    closed = call(
        svc, "PUT", one, "alice-token", json_body={"state_event": "close", "title": "Q1 done"}
    )
    assert closed.status == 200
    assert (body(closed)["state"], body(closed)["title"]) == ("closed", "Q1 done")
    assert body(call(svc, "GET", one, "maya-token")) == body(closed)
    assert call(svc, "DELETE", one, "alice-token").status == 204
    assert call(svc, "GET", one, "maya-token").status == 404


def test_one_project_milestone(svc: FakeService) -> None:
    listed = body(call(svc, "GET", f"/projects/{SHOP}/milestones", "rita-token"))
    first = next(m for m in listed if m["title"] == "v1.0")
    got = call(svc, "GET", f"/projects/{SHOP}/milestones/{first['id']}", "rita-token")
    assert (got.status, body(got)) == (200, first)
    assert (body(got)["due_date"], body(got)["iid"]) == ("2026-12-01", 1)


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token="alice-token", session=svc.requests_session()
    )
    group = gl.groups.get("acme/shopfloor")
    milestone = group.milestones.create({"title": "G1"})
    fetched = group.milestones.get(milestone.id)
    fetched.description = "group wide"
    fetched.save()
    assert group.milestones.get(milestone.id).description == "group wide"
    label = group.labels.create({"name": "ux", "color": "#abcdef"})
    again = group.labels.get(label.id)
    again.description = "Design"
    again.save()
    assert group.labels.get("ux").description == "Design"
    project = gl.projects.get("acme/shopfloor/shop")
    assert project.milestones.get(project.milestones.list(get_all=True)[0].id).title in (
        "v0.9",
        "v1.0",
    )
