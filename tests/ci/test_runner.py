"""The simulated runner: manual, timed and instant modes, scripted outcomes, the control
plane under ``/_fake/ci/``, scenario keys, replay actions and determinism."""

from __future__ import annotations

from typing import Any

import pytest

from fakeservice import FakeService
from fakeservice.ci.runner.simulation import RunnerError

from .ci_support import (
    PROJECT,
    SCENARIO,
    body,
    call,
    commit_file,
    create_pipeline,
    job_named,
    jobs_of,
    new_service,
    pipeline,
)

DAG = """\
stages: [build, test, deploy]
a:
  stage: build
  script: [a]
b:
  stage: build
  script: [b]
needs_a:
  stage: test
  needs: [a]
  script: [c]
after_all:
  stage: test
  script: [d]
ship:
  stage: deploy
  script: [e]
"""


def _timeline(svc: FakeService, pipeline_id: int) -> dict[str, tuple[Any, ...]]:
    return {
        job["name"]: (job["status"], job["started_at"], job["finished_at"])
        for job in jobs_of(svc, pipeline_id)
    }


def _dag_service(**runner: Any) -> tuple[FakeService, dict[str, Any]]:
    svc = new_service()
    commit_file(svc, ".gitlab-ci.yml", DAG)
    svc.runner.set_mode("timed", project="acme/pipes", **runner)
    svc.runner.set_outcome("a", {"duration": 10}, project="acme/pipes")
    svc.runner.set_outcome("b", {"duration": 60}, project="acme/pipes")
    return svc, create_pipeline(svc)


def test_manual_mode_moves_only_when_told(svc: FakeService) -> None:
    assert svc.runner.mode() == "manual" and svc.runner.mode("acme/pipes") == "manual"
    created = create_pipeline(svc)
    svc.clock.advance(hours=1)
    build = job_named(svc, created["id"], "build")
    assert build["status"] == "pending"
    started = svc.runner.start(build["id"])
    assert started.status == "running"
    svc.clock.advance(seconds=12)
    finished = svc.runner.finish(build["id"], "failed", failure_reason="script_failure")
    assert finished.status == "failed" and finished.failure_reason == "script_failure"
    job = job_named(svc, created["id"], "build")
    assert job["started_at"] == "2026-01-01T10:00:00Z" and job["duration"] == 12.0
    assert job["queued_duration"] == 3600.0
    assert pipeline(svc, created["id"])["status"] == "failed"


def test_manual_mode_errors(svc: FakeService) -> None:
    created = create_pipeline(svc)
    test = job_named(svc, created["id"], "test")
    with pytest.raises(RunnerError, match="only a pending job can start"):
        svc.runner.start(test["id"])
    with pytest.raises(RunnerError, match="unknown job 999"):
        svc.runner.finish(999)
    with pytest.raises(RunnerError, match="status must be one of"):
        svc.runner.finish(job_named(svc, created["id"], "build")["id"], "done")
    with pytest.raises(RunnerError, match="unknown runner mode"):
        svc.runner.set_mode("fast")
    with pytest.raises(RunnerError, match="duration must be"):
        svc.runner.set_outcome("build", {"duration": -1})
    with pytest.raises(RunnerError, match="coverage must be a percentage, from 0 to 100"):
        svc.runner.set_outcome("build", {"coverage": 150})


def test_finish_a_waiting_job_as_skipped(svc: FakeService) -> None:
    created = create_pipeline(svc)
    build = job_named(svc, created["id"], "build")
    svc.runner.finish(build["id"], "skipped")
    assert job_named(svc, created["id"], "build")["status"] == "skipped"
    assert job_named(svc, created["id"], "test")["status"] == "pending"


def test_timed_mode_follows_stages_and_needs() -> None:
    svc, created = _dag_service()
    svc.clock.advance(seconds=300)
    timeline = _timeline(svc, created["id"])
    assert timeline == {
        "a": ("success", "2026-01-01T09:00:05Z", "2026-01-01T09:00:15Z"),
        "b": ("success", "2026-01-01T09:00:05Z", "2026-01-01T09:01:05Z"),
        "needs_a": ("success", "2026-01-01T09:00:20Z", "2026-01-01T09:00:50Z"),
        "after_all": ("success", "2026-01-01T09:01:10Z", "2026-01-01T09:01:40Z"),
        "ship": ("success", "2026-01-01T09:01:45Z", "2026-01-01T09:02:15Z"),
    }
    done = pipeline(svc, created["id"])
    assert done["status"] == "success" and done["finished_at"] == "2026-01-01T09:02:15Z"


def test_timed_mode_is_the_same_in_small_steps() -> None:
    big, first = _dag_service()
    big.clock.advance(seconds=300)
    small, second = _dag_service()
    for _ in range(300):
        small.clock.advance(seconds=1)
    assert _timeline(big, first["id"]) == _timeline(small, second["id"])
    assert (
        call(big, "GET", f"/projects/{PROJECT}/jobs").body
        == call(small, "GET", f"/projects/{PROJECT}/jobs").body
    )


def test_timed_mode_pickup_delay() -> None:
    svc, created = _dag_service(pickup_seconds=0)
    svc.clock.advance(seconds=10)
    timeline = _timeline(svc, created["id"])
    assert timeline["a"] == ("success", "2026-01-01T09:00:00Z", "2026-01-01T09:00:10Z")
    assert timeline["needs_a"][1] == "2026-01-01T09:00:10Z"
    assert svc.runner.settings()["projects"][str(created["project_id"])] == {
        "mode": "timed",
        "pickup_seconds": 0.0,
        "pipelines_on_push": False,
    }


def test_timed_failure_skips_later_stages() -> None:
    svc, created = _dag_service()
    svc.runner.set_outcome("a", {"status": "failed", "duration": 1}, project="acme/pipes")
    svc.clock.advance(seconds=600)
    statuses = {name: value[0] for name, value in _timeline(svc, created["id"]).items()}
    assert statuses == {
        "a": "failed",
        "b": "success",
        "needs_a": "skipped",
        "after_all": "skipped",
        "ship": "skipped",
    }
    assert pipeline(svc, created["id"])["status"] == "failed"


def test_switching_to_timed_picks_up_waiting_jobs(svc: FakeService) -> None:
    created = create_pipeline(svc)
    svc.clock.advance(seconds=100)
    svc.runner.set_mode("timed")
    build = job_named(svc, created["id"], "build")  # overdue: picked up at once
    assert build["status"] == "running" and build["started_at"] == "2026-01-01T09:01:40Z"
    svc.clock.advance(seconds=30)
    assert job_named(svc, created["id"], "build")["status"] == "success"
    test = job_named(svc, created["id"], "test")
    assert test["status"] == "pending" and test["queued_duration"] == 0.0
    svc.runner.set_mode("manual")
    svc.clock.advance(hours=1)
    assert job_named(svc, created["id"], "test")["status"] == "pending"


def test_instant_mode(svc: FakeService) -> None:
    svc.runner.set_mode("instant", project="acme/pipes")
    created = create_pipeline(svc)
    assert created["status"] == "success"
    assert created["started_at"] == created["finished_at"] == "2026-01-01T09:00:00Z"
    assert job_named(svc, created["id"], "deploy")["status"] == "manual"
    played = call(
        svc,
        "POST",
        f"/projects/{PROJECT}/jobs/{job_named(svc, created['id'], 'deploy')['id']}/play",
    )
    assert body(played)["status"] == "success"


def test_outcomes_per_attempt_and_by_id(svc: FakeService) -> None:
    svc.runner.set_outcome(
        "lint", [{"status": "failed"}, {"status": "canceled"}, {"status": "success"}], project=1
    )
    svc.runner.set_outcome("lint", {"status": "failed"}, project="acme/pipes")
    svc.runner.set_outcome(
        "test",
        [{"status": "failed", "failure_reason": "stuck_or_timeout_failure"}, "success"],
        project="acme/pipes",
    )
    created = create_pipeline(svc)
    svc.runner.run_all(created["id"])
    test = job_named(svc, created["id"], "test")
    assert test["status"] == "failed" and test["failure_reason"] == "stuck_or_timeout_failure"
    retried = body(call(svc, "POST", f"/projects/{PROJECT}/jobs/{test['id']}/retry"))
    svc.runner.set_outcome(job_id=retried["id"], status="canceled")
    svc.runner.run_all(created["id"])
    assert job_named(svc, created["id"], "test")["status"] == "canceled"
    lint = job_named(svc, created["id"], "lint")
    assert lint["status"] == "failed" and lint["allow_failure"] is True


def test_control_plane_endpoints(svc: FakeService) -> None:
    settings = call(svc, "GET", "/_fake/ci/runner", None)
    assert settings.status == 200
    assert body(settings) == {
        "mode": "manual",
        "pickup_seconds": 5.0,
        "pipelines_on_push": False,
        "projects": {},
    }
    changed = call(
        svc,
        "POST",
        "/_fake/ci/runner",
        None,
        json_body={"mode": "timed", "pickup_seconds": 2, "project": "acme/pipes"},
    )
    assert changed.status == 200 and body(changed)["projects"] != {}
    call(
        svc, "POST", "/_fake/ci/runner", None, json_body={"mode": "manual", "project": "acme/pipes"}
    )
    outcome = call(
        svc,
        "POST",
        "/_fake/ci/outcomes",
        None,
        json_body={
            "job_name": "lint",
            "project": "acme/pipes",
            "status": "failed",
            "log": ["lint!"],
        },
    )
    assert outcome.status == 200
    created = create_pipeline(svc)
    build = job_named(svc, created["id"], "build")
    started = call(svc, "POST", f"/_fake/ci/jobs/{build['id']}/start", None)
    assert started.status == 200 and body(started)["status"] == "running"
    finished = call(
        svc,
        "POST",
        f"/_fake/ci/jobs/{build['id']}/finish",
        None,
        json_body={"status": "success", "log": ["done"], "artifacts": {"dist/x.txt": "x"}},
    )
    assert body(finished)["status"] == "success"
    archive = call(svc, "GET", f"/projects/{PROJECT}/jobs/{build['id']}/artifacts/dist/x.txt")
    assert archive.body == b"x"
    ran = call(svc, "POST", f"/_fake/ci/pipelines/{created['id']}/run", None)
    assert body(ran) == {"id": created["id"], "status": "success"}
    lint = job_named(svc, created["id"], "lint")
    assert lint["status"] == "failed"
    trace = call(svc, "GET", f"/projects/{PROJECT}/jobs/{lint['id']}/trace").body.decode()
    assert "lint!\nERROR: Job failed: exit code 1\n" in trace
    with pytest.raises(RunnerError, match="only a running job can finish"):
        svc.finish_job(lint["id"], "success")  # the control plane's protocol
    assert call(svc, "POST", "/_fake/ci/catch_up", None).status == 200


def test_control_plane_errors(svc: FakeService) -> None:
    cases = [
        ("/_fake/ci/runner", {"mode": "fast"}, 400, {"error": "mode does not have a valid value"}),
        ("/_fake/ci/runner", {"mode": "timed", "project": "no/such"}, 404, None),
        ("/_fake/ci/outcomes", {"status": "failed"}, 400, {"error": "give a job_name or a job_id"}),
        ("/_fake/ci/outcomes", {"job_name": "x", "status": "exploded"}, 400, None),
        ("/_fake/ci/outcomes", {"job_id": 12345, "status": "failed"}, 404, None),
        ("/_fake/ci/jobs/12345/start", {}, 404, {"error": "unknown job 12345"}),
        ("/_fake/ci/jobs/1/finish", {"artifacts": ["x"]}, 400, None),
        ("/_fake/ci/pipelines/777/run", {}, 404, {"error": "unknown pipeline 777"}),
    ]
    create_pipeline(svc)
    for path, payload, status, expected in cases:
        response = call(svc, "POST", path, None, json_body=payload)
        assert response.status == status, (path, response.body)
        if expected is not None:
            assert body(response) == expected


def test_scenario_keys() -> None:
    scenario = {
        **SCENARIO,
        "runner": {"mode": "timed", "pickup_seconds": 1, "outcomes": {"ship": "failed"}},
        "projects": [
            {
                **SCENARIO["projects"][0],
                "ci": {
                    "outcomes": {"build": {"duration": 5}},
                    "pipelines": [
                        {"ref": "main", "run": "complete", "user": "alice"},
                        {"ref": "feature/x", "variables": {"X": "1"}},
                        {"ref": "nowhere", "config": {"only_job": {"script": ["x"]}}},
                        {"ref": "main", "config": "broken:\n  script: [x]\n  nope: 1\n"},
                    ],
                },
            },
            {
                "path": "acme/instant",
                "visibility": "public",
                "ci": {
                    "runner": {"mode": "instant"},
                    "pipelines": [{"config": {"one": {"script": ["x"]}}, "ref": "main"}],
                },
            },
        ],
    }
    svc = new_service(scenario, key="scenario-keys")
    listed = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines", query={"sort": "asc"}))
    first, feature, nowhere, broken = (pipeline(svc, p["id"]) for p in listed)
    assert first["status"] == "success" and first["user"]["username"] == "alice"
    assert first["source"] == "push"
    assert feature["status"] == "pending" and feature["ref"] == "feature/x"
    variables = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{feature['id']}/variables"))
    assert variables == [{"key": "X", "variable_type": "env_var", "value": "1"}]
    assert nowhere["ref"] == "nowhere" and [j["name"] for j in jobs_of(svc, nowhere["id"])] == [
        "only_job"
    ]
    assert broken["status"] == "failed" and broken["yaml_errors"]
    instant = body(call(svc, "GET", "/projects/acme%2Finstant/pipelines"))
    assert [p["status"] for p in instant] == ["success"]
    assert svc.runner.mode() == "timed" and svc.runner.mode("acme/instant") == "instant"
    svc.clock.advance(seconds=60)
    assert pipeline(svc, feature["id"])["status"] in ("running", "success", "manual")


def test_scenario_errors() -> None:
    from fakeservice.scenarios.loader import ScenarioError

    base = {"extends": "default", "projects": [{"path": "acme/bad", "visibility": "public"}]}
    for ci, message in (
        ({"pipelines": [{"ref": "main"}]}, "Reference not found"),
        ({"runner": {"mode": "slow"}}, "mode"),
        ({"outcomes": {"x": {"status": "weird"}}}, "status"),
        (
            {"pipelines": [{"ref": "main", "config": {"a": {"script": ["x"], "only": ["tags"]}}}]},
            "No stages",
        ),
    ):
        scenario = {**base, "projects": [{**base["projects"][0], "ci": ci}]}
        with pytest.raises(ScenarioError, match=message):
            FakeService(scenario)


def test_replay_actions() -> None:
    svc = new_service()
    actions = svc.sections.sections("action")
    for name in ("runner", "job_outcome", "start_job", "run_pipeline"):
        assert name in actions
    created = create_pipeline(svc)
    build = job_named(svc, created["id"], "build")
    actions["job_outcome"].handler(svc, {"job_id": build["id"], "status": "failed"}, {})
    actions["start_job"].handler(svc, build["id"], {})
    actions["run_pipeline"].handler(svc, created["id"], {})
    assert job_named(svc, created["id"], "build")["status"] == "failed"
    actions["runner"].handler(svc, {"mode": "instant", "project": "acme/pipes"}, {})
    assert svc.runner.mode("acme/pipes") == "instant"


def test_find_job_for_replays(svc: FakeService) -> None:
    first = create_pipeline(svc)
    second = create_pipeline(svc)
    newest = job_named(svc, second["id"], "build")["id"]
    assert svc.runner.find_job("acme/pipes", "build") == newest
    assert (
        svc.runner.find_job("acme/pipes", "build", first["iid"])
        == job_named(svc, first["id"], "build")["id"]
    )
    with pytest.raises(RunnerError):
        svc.runner.find_job("acme/pipes", "nope")


def test_same_inputs_same_bytes() -> None:
    def run() -> list[bytes]:
        svc = new_service()
        svc.runner.set_mode("timed")
        created = create_pipeline(svc)
        svc.clock.advance(seconds=45)
        retried = call(svc, "POST", f"/projects/{PROJECT}/pipelines/{created['id']}/cancel")
        again = call(svc, "POST", f"/projects/{PROJECT}/pipelines/{created['id']}/retry")
        svc.clock.advance(seconds=500)
        return [
            retried.body,
            again.body,
            call(svc, "GET", f"/projects/{PROJECT}/jobs?per_page=100").body,
            call(svc, "GET", f"/projects/{PROJECT}/pipelines").body,
        ]

    assert run() == run()


def test_snapshot_restore_keeps_runner_state(svc: FakeService) -> None:
    svc.runner.set_mode("timed")
    created = create_pipeline(svc)
    snap = svc.snapshot()
    svc.clock.advance(seconds=500)
    done = pipeline(svc, created["id"])["status"]
    svc.restore(snap)
    assert pipeline(svc, created["id"])["status"] == "pending"
    svc.clock.advance(seconds=500)
    assert pipeline(svc, created["id"])["status"] == done


def test_real_clock_catches_up_on_requests() -> None:
    from fakeservice.core.clock import Clock

    ticks = [1_000_000.0]
    clock = Clock("real", wall=lambda: ticks[0])
    scenario = {
        "users": [{"username": "root", "admin": True, "tokens": [{"token": "root-token"}]}],
        "groups": [{"path": "acme", "visibility": "public"}],
        "projects": [
            {
                "path": "acme/pipes",
                "visibility": "public",
                "files": {".gitlab-ci.yml": "build:\n  script: [make]\n"},
            }
        ],
        "runner": {"mode": "timed"},
    }
    svc = FakeService(scenario, clock=clock)
    created = create_pipeline(svc)
    ticks[0] += 7
    build = job_named(svc, created["id"], "build")
    assert build["status"] == "running"
    assert svc.server_errors == []


def test_delayed_jobs_wait_for_their_start(svc: FakeService) -> None:
    commit_file(
        svc, ".gitlab-ci.yml", "later:\n  script: [x]\n  when: delayed\n  start_in: 30 seconds\n"
    )
    svc.runner.set_mode("timed", pickup_seconds=0)
    created = create_pipeline(svc)
    assert created["status"] == "scheduled"
    svc.clock.advance(seconds=29)
    assert job_named(svc, created["id"], "later")["status"] == "scheduled"
    svc.clock.advance(seconds=1)
    job = job_named(svc, created["id"], "later")
    assert job["status"] == "running" and job["started_at"] == "2026-01-01T09:00:30Z"


def test_retry_keyword_and_timeouts(svc: FakeService) -> None:
    commit_file(
        svc,
        ".gitlab-ci.yml",
        "flaky:\n  script: [x]\n  retry: 2\n"
        "picky:\n  script: [y]\n  retry: {max: 2, when: [runner_system_failure]}\n"
        "slow:\n  script: [z]\n  timeout: 90 seconds\n",
    )
    svc.runner.set_mode("timed", pickup_seconds=0)
    svc.runner.set_outcome(
        "flaky", [{"status": "failed"}, {"status": "failed"}, {}], project="acme/pipes"
    )
    svc.runner.set_outcome("picky", {"status": "failed"}, project="acme/pipes")
    svc.runner.set_outcome("slow", {"duration": 600}, project="acme/pipes")
    created = create_pipeline(svc)
    svc.clock.advance(seconds=200)
    every = jobs_of(svc, created["id"], "?include_retried=true")
    flaky = [j["status"] for j in every if j["name"] == "flaky"]
    assert flaky == ["success", "failed", "failed"]
    assert [j["status"] for j in every if j["name"] == "picky"] == ["failed"]
    slow = job_named(svc, created["id"], "slow")
    assert slow["status"] == "failed" and slow["failure_reason"] == "stuck_or_timeout_failure"
    assert slow["duration"] == 90.0
    trace = call(svc, "GET", f"/projects/{PROJECT}/jobs/{slow['id']}/trace").body.decode()
    assert trace.endswith("ERROR: Job failed: execution took longer than 1m30s seconds\n")
