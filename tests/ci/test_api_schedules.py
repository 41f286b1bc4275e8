"""Pipeline schedules through raw HTTP: CRUD with its validation and roles, ``scope``,
``play`` and the schedule's pipelines and variables, ``next_run_at`` on the service clock
and runs when the clock passes it, and the ``pipeline_schedules`` scenario key."""

from __future__ import annotations

from typing import Any

from support.calls import ROOT, body, call

from fakeservice import FakeService

from .ci_support import ALICE, PROJECT, SCENARIO, new_service

BASE = f"/projects/{PROJECT}/pipeline_schedules"
NIGHTLY = {"description": "nightly", "ref": "main", "cron": "0 1 * * *"}


def create(svc: FakeService, token: str = ROOT, **fields: Any) -> dict[str, Any]:
    response = call(svc, "POST", BASE, token, json_body={**NIGHTLY, **fields})
    assert response.status == 201, response.body
    return body(response)


def as_dev(svc: FakeService, method: str, path: str, **kw: Any) -> Any:
    return call(svc, method, path, headers={"Sudo": "dev003"}, **kw)


def test_create_answers_the_schedule_with_next_run_at_from_the_clock(svc: FakeService) -> None:
    made = create(svc, cron_timezone="Asia/Tokyo")
    assert made["id"] >= 1
    assert {k: made[k] for k in ("description", "ref", "cron", "cron_timezone", "active")} == {
        "description": "nightly",
        "ref": "main",
        "cron": "0 1 * * *",
        "cron_timezone": "Asia/Tokyo",
        "active": True,
    }
    # the clock starts at 2026-01-01T09:00Z = 18:00 in Tokyo: next 01:00 Tokyo is 16:00Z
    assert made["next_run_at"] == "2026-01-01T16:00:00Z"
    assert made["owner"]["username"] == "root"
    assert made["last_pipeline"] is None and made["variables"] == []
    assert made["created_at"] == made["updated_at"] == "2026-01-01T09:00:00Z"


def test_defaults_and_round_trip_of_every_field(svc: FakeService) -> None:
    made = create(svc)
    assert made["cron_timezone"] == "UTC" and made["next_run_at"] == "2026-01-02T01:00:00Z"
    changes = {
        "description": "weekly",
        "ref": "feature/x",
        "cron": "30 6 * * mon",
        "cron_timezone": "Europe/Berlin",
        "active": False,
    }
    svc.clock.advance(60)
    edited = call(svc, "PUT", f"{BASE}/{made['id']}", json_body=changes)
    assert edited.status == 200, edited.body
    got = body(call(svc, "GET", f"{BASE}/{made['id']}"))
    listed = body(call(svc, "GET", BASE))
    for answer in (body(edited), got, listed[0]):
        assert {k: answer[k] for k in changes} == changes
        assert answer["next_run_at"] is None  # inactive
        assert answer["updated_at"] == "2026-01-01T09:01:00Z"
    again = body(call(svc, "PUT", f"{BASE}/{made['id']}", json_body={"active": True}))
    assert again["next_run_at"] == "2026-01-05T05:30:00Z"  # Monday 06:30 in Berlin


def test_invalid_input_is_refused_and_changes_nothing(svc: FakeService) -> None:
    bad = call(svc, "POST", BASE, json_body={**NIGHTLY, "cron": "61 * * * *"})
    assert bad.status == 400 and body(bad) == {"message": {"cron": [" is invalid syntax"]}}
    zone = call(svc, "POST", BASE, json_body={**NIGHTLY, "cron_timezone": "Mars/Olympus"})
    assert body(zone) == {"message": {"cron_timezone": [" is invalid syntax"]}}
    missing = call(svc, "POST", BASE, json_body={"description": "x", "ref": "main"})
    assert missing.status == 400 and body(missing) == {"error": "cron is missing"}
    assert body(call(svc, "GET", BASE)) == []
    made = create(svc)
    refused = call(svc, "PUT", f"{BASE}/{made['id']}", json_body={"cron": "nope"})
    assert refused.status == 400
    assert body(call(svc, "GET", f"{BASE}/{made['id']}"))["cron"] == "0 1 * * *"
    assert call(svc, "GET", f"{BASE}/999").status == 404
    assert body(call(svc, "GET", f"{BASE}/999")) == {"message": "404 Pipeline Schedule Not Found"}


def test_scope_filters_active_and_inactive(svc: FakeService) -> None:
    one = create(svc)
    two = create(svc, active=False)
    ids = lambda q: [s["id"] for s in body(call(svc, "GET", BASE, query=q))]  # noqa: E731
    assert ids({}) == [one["id"], two["id"]]
    assert ids({"scope": "active"}) == [one["id"]]
    assert ids({"scope": "inactive"}) == [two["id"]]
    assert call(svc, "GET", BASE, query={"scope": "all"}).status == 400


def test_roles_owner_rules_and_take_ownership(svc: FakeService) -> None:
    assert as_dev(svc, "POST", BASE, json_body=NIGHTLY).status == 403  # Maintainer to create
    assert call(svc, "GET", BASE, token=None).status == 401
    made = create(svc, token=ALICE)
    path = f"{BASE}/{made['id']}"
    assert as_dev(svc, "GET", path).status == 200
    assert call(svc, "PUT", path, json_body={"description": "mine"}).status == 403  # not owner
    assert as_dev(svc, "DELETE", path).status == 403
    assert as_dev(svc, "POST", f"{path}/take_ownership").status == 403
    taken = call(svc, "POST", f"{path}/take_ownership")
    assert taken.status == 201 and body(taken)["owner"]["username"] == "root"
    assert call(svc, "PUT", path, json_body={"description": "mine"}).status == 200
    assert call(svc, "PUT", path, ALICE, json_body={"description": "hers"}).status == 403
    deleted = call(svc, "DELETE", path, ALICE)
    assert deleted.status == 200 and body(deleted)["id"] == made["id"]
    assert call(svc, "GET", path).status == 404


def test_play_creates_a_schedule_pipeline_with_its_variables(svc: FakeService) -> None:
    made = create(svc)
    path = f"{BASE}/{made['id']}"
    added = call(svc, "POST", f"{path}/variables", json_body={"key": "MODE", "value": "nightly"})
    assert added.status == 201
    assert body(added) == {"key": "MODE", "value": "nightly", "variable_type": "env_var"}
    assert (
        call(svc, "POST", f"{path}/variables", json_body={"key": "MODE", "value": "x"}).status
        == 400
    )
    put = call(svc, "PUT", f"{path}/variables/MODE", json_body={"value": "full"})
    assert body(put)["value"] == "full"
    call(svc, "POST", f"{path}/variables", json_body={"key": "GONE", "value": "1"})
    assert body(call(svc, "DELETE", f"{path}/variables/GONE"))["key"] == "GONE"
    assert call(svc, "DELETE", f"{path}/variables/GONE").status == 404

    played = as_dev(svc, "POST", f"{path}/play")
    assert played.status == 201 and body(played) == {"message": "201 Created"}
    runs = body(call(svc, "GET", f"{path}/pipelines"))
    assert len(runs) == 1 and runs[0]["source"] == "schedule" and runs[0]["ref"] == "main"
    pid = runs[0]["id"]
    seen = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{pid}/variables"))
    assert seen == [{"key": "MODE", "value": "full", "variable_type": "env_var"}]
    got = body(call(svc, "GET", path))
    assert got["last_pipeline"]["id"] == pid and got["last_pipeline"]["ref"] == "main"
    assert got["variables"] == [{"key": "MODE", "value": "full", "variable_type": "env_var"}]
    listed = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines", query={"source": "schedule"}))
    assert [p["id"] for p in listed] == [pid]


def test_the_clock_passing_next_run_at_runs_active_schedules_once(svc: FakeService) -> None:
    hourly = create(svc, cron="0 * * * *")
    idle = create(svc, cron="0 * * * *", active=False)
    assert hourly["next_run_at"] == "2026-01-01T10:00:00Z"
    svc.clock.advance(59 * 60)
    assert body(call(svc, "GET", f"{BASE}/{hourly['id']}/pipelines")) == []
    svc.clock.advance(3 * 3600)  # three runs missed: one pipeline, as the real service
    runs = body(call(svc, "GET", f"{BASE}/{hourly['id']}/pipelines"))
    assert [p["source"] for p in runs] == ["schedule"]
    assert body(call(svc, "GET", f"{BASE}/{hourly['id']}"))["next_run_at"] == (
        "2026-01-01T13:00:00Z"
    )
    assert body(call(svc, "GET", f"{BASE}/{idle['id']}/pipelines")) == []


def test_deleting_the_project_takes_its_schedules(svc: FakeService) -> None:
    create(svc)
    assert call(svc, "DELETE", f"/projects/{PROJECT}").status in (202, 204)
    from fakeservice.ci.schedules.models import schedules

    assert len(schedules(svc.store)) == 0


def test_the_scenario_key_loads_schedules_and_their_variables() -> None:
    project = {
        **SCENARIO["projects"][0],
        "pipeline_schedules": [
            {
                "description": "nightly",
                "ref": "main",
                "cron": "0 2 * * *",
                "owner": "alice",
                "variables": [{"key": "MODE", "value": "full"}],
            },
            {
                "description": "off",
                "ref": "main",
                "cron": "0 3 * * *",
                "owner": "root",
                "active": False,
            },
        ],
    }
    svc = new_service({**SCENARIO, "projects": [project]}, key="ci-schedules")
    listed = body(call(svc, "GET", BASE))
    assert [(s["description"], s["owner"]["username"], s["active"]) for s in listed] == [
        ("nightly", "alice", True),
        ("off", "root", False),
    ]
    got = body(call(svc, "GET", f"{BASE}/{listed[0]['id']}"))
    assert got["variables"] == [{"key": "MODE", "value": "full", "variable_type": "env_var"}]
    assert got["next_run_at"] == "2026-01-02T02:00:00Z"


def test_check_reports_a_bad_cron_in_the_scenario() -> None:
    from fakeservice.scenarios.loader import ScenarioError

    project = {
        **SCENARIO["projects"][0],
        "pipeline_schedules": [{"description": "x", "ref": "main", "cron": "bad", "owner": "root"}],
    }
    try:
        new_service({**SCENARIO, "projects": [project]}, key="ci-schedules-bad")
    except ScenarioError as error:
        assert "cron" in str(error)
    else:
        raise AssertionError("a bad cron loaded")
