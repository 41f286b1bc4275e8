"""Where registration tokens show (application settings, a project's details for its
maintainers), a runner's managers, and ``maximum_timeout`` capping the jobs it runs."""

from __future__ import annotations

from support.calls import call

from fakeservice import FakeService

from .helpers import INSTANCE_TOKEN, WEBSITE, jobs_of, pipeline, register


def test_registration_tokens_show_where_the_service_shows_them(svc: FakeService) -> None:
    settings = call(svc, "GET", "/application/settings").json()
    assert settings["runners_registration_token"] == INSTANCE_TOKEN
    new = call(svc, "POST", "/runners/reset_registration_token").json()["token"]
    assert call(svc, "GET", "/application/settings").json()["runners_registration_token"] == new
    own = call(svc, "GET", WEBSITE, token="alice-token").json()["runners_token"]
    assert register(svc, own).status == 201
    for who in ("bob-read-token", "carol-token", None):
        assert "runners_token" not in call(svc, "GET", WEBSITE, token=who).json()
    reset = call(svc, "POST", f"{WEBSITE}/runners/reset_registration_token").json()["token"]
    assert call(svc, "GET", WEBSITE).json()["runners_token"] == reset != own


def test_managers(svc: FakeService) -> None:
    managers = call(svc, "GET", "/runners/1/managers")
    assert managers.status == 200
    assert managers.json() == [
        {
            "id": 1,
            "system_id": managers.json()[0]["system_id"],
            "version": "17.0.0",
            "revision": None,
            "platform": None,
            "architecture": None,
            "created_at": "2026-01-01T09:00:00Z",
            "contacted_at": "2026-01-01T09:00:00Z",
            "ip_address": None,
            "status": "online",
        }
    ]
    assert managers.json()[0]["system_id"].startswith("s_")
    made = call(svc, "POST", "/user/runners", json_body={"runner_type": "instance_type"}).json()
    assert call(svc, "GET", f"/runners/{made['id']}/managers").json() == []
    denied = call(svc, "GET", f"/runners/{made['id']}/managers", token="carol-token")
    assert denied.status == 200  # an instance runner: anyone signed in sees it
    assert call(svc, "GET", "/runners/999/managers").status == 404


def test_maximum_timeout_caps_the_jobs_a_runner_runs(svc: FakeService) -> None:
    call(svc, "PUT", "/runners/1", json_body={"maximum_timeout": 600})
    svc.runner.set_outcome("build", status="success", duration=900)
    svc.runner.set_mode("timed")
    made = pipeline(svc)
    svc.clock.advance(seconds=700)
    build = jobs_of(svc, made["id"])["build"]
    assert (build["status"], build["failure_reason"]) == ("failed", "stuck_or_timeout_failure")
    assert build["duration"] == 600
    trace = call(svc, "GET", f"{WEBSITE}/jobs/{build['id']}/trace").body.decode()
    assert trace.rstrip().endswith("execution took longer than 10m0s seconds")
