"""Resource events: label, state and milestone events of issues and merge requests,
recorded from creation, updates (``labels``, ``add_labels``, ``remove_labels``,
``milestone_id``, ``state_event``) and merges; lists oldest first, single events, 404s
for unknown ids and other issuables' events, 400 for a non-integer id, none for
scenario-seeded issues, and python-gitlab (``resourcelabelevents``,
``resourcestateevents``, ``resourcemilestoneevents``)."""

from __future__ import annotations

from typing import Any

import gitlab
from support.calls import body, call

from fakeservice import FakeService

SITE = "/projects/acme%2Fwebsite"


def ok(response: Any, status: int = 200) -> Any:
    assert response.status == status, response.body
    return body(response)


def post(svc: FakeService, path: str, data: dict[str, Any], token: str = "alice-token") -> Any:
    return ok(call(svc, "POST", f"{SITE}/{path}", token, json_body=data), 201)


def put(svc: FakeService, path: str, data: dict[str, Any]) -> Any:
    return ok(call(svc, "PUT", f"{SITE}/{path}", "alice-token", json_body=data))


def get(svc: FakeService, path: str, token: str | None = "alice-token") -> Any:
    return ok(call(svc, "GET", f"{SITE}/{path}", token, query={"per_page": "100"}))


def test_issue_label_events_from_creation_and_updates(svc: FakeService) -> None:
    issue = post(svc, "issues", {"title": "Broken", "labels": "bug,ui"})
    iid = issue["iid"]
    put(svc, f"issues/{iid}", {"add_labels": "backend", "remove_labels": "ui"})
    put(svc, f"issues/{iid}", {"title": "Only the title"})
    found = get(svc, f"issues/{iid}/resource_label_events")
    assert [(e["label"]["name"], e["action"]) for e in found] == [
        ("bug", "add"),
        ("ui", "add"),
        ("backend", "add"),
        ("ui", "remove"),
    ]
    first = found[0]
    assert set(first) == {
        "id",
        "user",
        "created_at",
        "resource_type",
        "resource_id",
        "label",
        "action",
    }
    assert (first["resource_type"], first["resource_id"]) == ("Issue", issue["id"])
    assert first["user"]["username"] == "alice"
    assert set(first["label"]) >= {"id", "name", "color", "description"}
    assert [e["id"] for e in found] == sorted(e["id"] for e in found)
    one = get(svc, f"issues/{iid}/resource_label_events/{found[2]['id']}")
    assert one == found[2]


def test_issue_state_and_milestone_events(svc: FakeService) -> None:
    milestone = post(svc, "milestones", {"title": "v1.0"})
    other = post(svc, "milestones", {"title": "v2.0"})
    issue = post(svc, "issues", {"title": "Planned", "milestone_id": milestone["id"]})
    iid = issue["iid"]
    put(svc, f"issues/{iid}", {"state_event": "close"})
    put(svc, f"issues/{iid}", {"state_event": "reopen", "milestone_id": other["id"]})
    put(svc, f"issues/{iid}", {"milestone_id": 0})
    states = get(svc, f"issues/{iid}/resource_state_events")
    assert [e["state"] for e in states] == ["closed", "reopened"]
    assert set(states[0]) == {"id", "user", "created_at", "resource_type", "resource_id", "state"}
    found = get(svc, f"issues/{iid}/resource_milestone_events")
    assert [(e["milestone"]["title"], e["action"]) for e in found] == [
        ("v1.0", "add"),
        ("v1.0", "remove"),
        ("v2.0", "add"),
        ("v2.0", "remove"),
    ]
    assert found[0]["state"] == "opened"
    assert found[0]["milestone"]["id"] == milestone["id"]
    assert get(svc, f"issues/{iid}/resource_milestone_events/{found[1]['id']}") == found[1]


def test_merge_request_events(svc: FakeService) -> None:
    data = {
        "branch": "feature/dark-mode",
        "commit_message": "Dark",
        "actions": [{"action": "create", "file_path": "dark.css", "content": "x\n"}],
    }
    post(svc, "repository/commits", data)
    mr = post(
        svc,
        "merge_requests",
        {
            "title": "Dark mode",
            "source_branch": "feature/dark-mode",
            "target_branch": "main",
            "labels": "ui",
        },
    )
    iid = mr["iid"]
    put(svc, f"merge_requests/{iid}", {"state_event": "close", "labels": "ux"})
    put(svc, f"merge_requests/{iid}", {"state_event": "reopen"})
    put(svc, f"merge_requests/{iid}/merge", {})
    labels = get(svc, f"merge_requests/{iid}/resource_label_events")
    assert [(e["label"]["name"], e["action"], e["resource_type"]) for e in labels] == [
        ("ui", "add", "MergeRequest"),
        ("ux", "add", "MergeRequest"),
        ("ui", "remove", "MergeRequest"),
    ]
    assert get(svc, f"merge_requests/{iid}/resource_label_events/{labels[1]['id']}") == labels[1]
    states = get(svc, f"merge_requests/{iid}/resource_state_events")
    assert [e["state"] for e in states] == ["closed", "reopened", "merged"]
    assert {e["resource_id"] for e in states} == {mr["id"]}
    milestone = post(svc, "milestones", {"title": "v9"})
    put(svc, f"merge_requests/{iid}", {"milestone_id": milestone["id"]})
    (event,) = get(svc, f"merge_requests/{iid}/resource_milestone_events")
    assert (event["action"], event["state"], event["milestone"]["title"]) == ("add", "merged", "v9")
    assert get(svc, f"merge_requests/{iid}/resource_milestone_events/{event['id']}") == event
    # issue and merge request events are apart, and an issue's event is not the MR's
    issue = post(svc, "issues", {"title": "Elsewhere", "labels": "bug"})
    (event,) = get(svc, f"issues/{issue['iid']}/resource_label_events")
    missing = call(
        svc,
        "GET",
        f"{SITE}/merge_requests/{iid}/resource_label_events/{event['id'] + 100}",
        "alice-token",
    )
    assert missing.status == 404


def test_not_found_bad_ids_and_no_history_for_scenario_records(svc: FakeService) -> None:
    issue = post(svc, "issues", {"title": "A", "labels": "bug"})
    other = post(svc, "issues", {"title": "B", "labels": "bug"})
    (event,) = get(svc, f"issues/{issue['iid']}/resource_label_events")
    base = f"{SITE}/issues/{other['iid']}/resource_label_events"
    assert call(svc, "GET", f"{base}/{event['id']}", "alice-token").status == 404
    assert call(svc, "GET", f"{base}/99999", "alice-token").status == 404
    bad = call(svc, "GET", f"{base}/abc", "alice-token")
    assert (bad.status, body(bad)) == (400, {"error": "resource_label_event_id is invalid"})
    assert call(svc, "GET", f"{SITE}/issues/999/resource_state_events", "alice-token").status == 404
    assert call(svc, "GET", "/projects/999999/issues/1/resource_label_events", None).status == 404
    response = call(svc, "GET", f"{SITE}/merge_requests/1/resource_state_events", None)
    assert response.status == 401
    # anonymous readers of a public project see an issue's events
    assert len(get(svc, f"issues/{issue['iid']}/resource_label_events", None)) == 1


def test_scenario_seeded_issues_have_no_events() -> None:
    scenario = {
        "users": [
            {"username": "ann", "admin": True, "tokens": [{"name": "t", "token": "ann-token"}]}
        ],
        "projects": [
            {
                "path": "ann/p",
                "milestones": [{"title": "v1"}],
                "issues": [
                    {"title": "Seeded", "labels": ["bug"], "milestone": "v1", "state": "closed"}
                ],
            }
        ],
    }
    svc = FakeService(scenario)
    for kind in ("label", "state", "milestone"):
        response = call(
            svc, "GET", f"/projects/ann%2Fp/issues/1/resource_{kind}_events", "ann-token"
        )
        assert ok(response) == []


def test_python_gitlab_resource_events(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="alice-token", session=svc.requests_session())
    project = gl.projects.get("acme/website")
    milestone = project.milestones.create({"title": "v3"})
    issue = project.issues.create({"title": "Client", "labels": ["bug"]})
    issue.state_event = "close"
    issue.milestone_id = milestone.id
    issue.save()
    (label_event,) = issue.resourcelabelevents.list(get_all=True)
    assert (label_event.label["name"], label_event.action) == ("bug", "add")
    assert issue.resourcelabelevents.get(label_event.id).resource_id == issue.id
    (state_event,) = issue.resourcestateevents.list(get_all=True)
    assert state_event.state == "closed"
    assert issue.resourcestateevents.get(state_event.id).state == "closed"
    (milestone_event,) = issue.resourcemilestoneevents.list(get_all=True)
    assert milestone_event.milestone["title"] == "v3"
    mr = project.mergerequests.create(
        {"title": "Client MR", "source_branch": "feature/dark-mode", "target_branch": "main"}
    )
    mr.state_event = "close"
    mr.save()
    (closed,) = mr.resourcestateevents.list(get_all=True)
    assert (closed.state, closed.resource_type) == ("closed", "MergeRequest")
    assert mr.resourcestateevents.get(closed.id).id == closed.id
    assert mr.resourcelabelevents.list(get_all=True) == []
    assert mr.resourcemilestoneevents.list(get_all=True) == []
