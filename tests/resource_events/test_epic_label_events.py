"""Epic label events: ``GET /groups/:id/epics/:epic_id/resource_label_events`` (global id) and one
event, recorded when an epic is created with labels and when an update changes them;
404 for unknown epics and events and for another epic's event, 400 for a non-integer id,
none for scenario-seeded epics, and python-gitlab (``epic.resourcelabelevents``)."""

from __future__ import annotations

from typing import Any

import gitlab
from support.calls import body, call

from fakeservice import FakeService

EPICS = "/groups/acme/epics"


def ok(response: Any, status: int = 200) -> Any:
    assert response.status == status, response.body
    return body(response)


def test_epic_label_events(svc: FakeService) -> None:
    epic = ok(
        call(svc, "POST", EPICS, "alice-token", json_body={"title": "E", "labels": "b,a"}), 201
    )
    one = f"{EPICS}/{epic['iid']}"
    events = f"{EPICS}/{epic['id']}/resource_label_events"
    ok(call(svc, "PUT", one, "alice-token", json_body={"add_labels": "c", "remove_labels": "a"}))
    ok(call(svc, "PUT", one, "alice-token", json_body={"title": "Same labels"}))
    found = ok(call(svc, "GET", f"{events}", "alice-token"))
    assert [(e["label"]["name"], e["action"]) for e in found] == [
        ("a", "add"),
        ("b", "add"),
        ("c", "add"),
        ("a", "remove"),
    ]
    first = found[0]
    assert (first["resource_type"], first["resource_id"]) == ("Epic", epic["id"])
    assert first["user"]["username"] == "alice"
    assert set(first["label"]) >= {"name", "color", "description"}
    got = ok(call(svc, "GET", f"{events}/{found[1]['id']}", "alice-token"))
    assert got == found[1]
    other = ok(call(svc, "POST", EPICS, "alice-token", json_body={"title": "F"}), 201)
    elsewhere = f"{EPICS}/{other['id']}/resource_label_events"
    assert ok(call(svc, "GET", elsewhere, "alice-token")) == []
    assert call(svc, "GET", f"{elsewhere}/{found[0]['id']}", "alice-token").status == 404
    assert call(svc, "GET", f"{elsewhere}/abc", "alice-token").status == 400
    assert call(svc, "GET", f"{EPICS}/999/resource_label_events", "alice-token").status == 404
    assert call(svc, "GET", f"{events}", None).status == 401


def test_scenario_seeded_epics_have_no_label_events() -> None:
    scenario = {
        "instance": {"plan": "ultimate"},
        "users": [
            {"username": "ann", "admin": True, "tokens": [{"name": "t", "token": "ann-token"}]}
        ],
        "groups": [{"path": "g", "epics": [{"title": "Seeded", "labels": ["bug"]}]}],
    }
    svc = FakeService(scenario)
    (epic,) = ok(call(svc, "GET", "/groups/g/epics", "ann-token"))
    response = call(svc, "GET", f"/groups/g/epics/{epic['id']}/resource_label_events", "ann-token")
    assert ok(response) == []


def test_python_gitlab_epic_label_events(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="alice-token", session=svc.requests_session())
    group = gl.groups.get("acme")
    epic = group.epics.create({"title": "Client", "labels": "bug"})
    (event,) = epic.resourcelabelevents.list(get_all=True)
    assert (event.label["name"], event.action, event.resource_id) == ("bug", "add", epic.id)
    assert epic.resourcelabelevents.get(event.id).id == event.id
