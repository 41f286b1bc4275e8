"""Jobs run on runner records: the runner that picks a build up (active, with the build's
tags, available to the project, on protected refs when asked), stuck builds that wait
for a runner in every mode, a runner's jobs, and ``contacted_at``."""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import call

from fakeservice import FakeService
from fakeservice.ci.runner.simulation import RunnerError

from .helpers import WEBSITE, group_token, ids, jobs_of, pipeline, project_token, register

TAGGED_CI = """\
build:
  script: [make]
  tags: [docker]
test:
  script: [make test]
"""


def write_ci(svc: FakeService, content: str, branch: str = "main") -> None:
    answer = call(
        svc, "PUT", f"{WEBSITE}/repository/files/.gitlab-ci.yml",
        json_body={"branch": branch, "content": content, "commit_message": "ci"},
    )  # fmt: skip
    assert answer.status == 200, answer.body


def pause(svc: FakeService, runner: int, paused: bool = True) -> None:
    answer = call(svc, "PUT", f"/runners/{runner}", json_body={"paused": paused})
    assert answer.status == 200


def status(svc: FakeService, pipeline_id: int) -> str:
    return str(call(svc, "GET", f"{WEBSITE}/pipelines/{pipeline_id}").json()["status"])


def runner_ids(jobs: dict[str, dict[str, Any]]) -> dict[str, int | None]:
    return {name: (job["runner"] or {}).get("id") for name, job in jobs.items()}


def test_jobs_show_the_runner_that_ran_them(svc: FakeService) -> None:
    svc.runner.set_mode("instant")
    made = pipeline(svc)
    jobs = jobs_of(svc, made["id"])
    assert runner_ids(jobs) == {"build": 1, "test": 1, "deploy": None}
    assert jobs["build"]["runner"] == call(svc, "GET", "/runners/all").json()[0]
    listed = call(svc, "GET", "/runners/1/jobs")
    assert ids(listed) == [jobs["test"]["id"], jobs["build"]["id"]]
    assert listed.json()[0]["project"]["path_with_namespace"] == "acme/website"
    ascending = call(svc, "GET", "/runners/1/jobs", query={"sort": "asc", "status": "success"})
    assert ids(ascending) == [jobs["build"]["id"], jobs["test"]["id"]]
    assert ids(call(svc, "GET", "/runners/1/jobs", query={"status": "running"})) == []
    assert ids(call(svc, "GET", "/runners/1/jobs", token="bob-read-token")) == []
    bad = call(svc, "GET", "/runners/1/jobs", query={"order_by": "name"})
    assert bad.json() == {"error": "order_by does not have a valid value"}
    trace = call(svc, "GET", f"{WEBSITE}/jobs/{jobs['build']['id']}/trace").body.decode()
    assert "on fakeservice-runner #1" in trace


def test_pausing_every_runner_stops_pipelines_and_resuming_restarts_them(
    svc: FakeService,
) -> None:
    svc.runner.set_mode("instant")
    pause(svc, 1)
    made = pipeline(svc)
    assert status(svc, made["id"]) == "pending"
    jobs = jobs_of(svc, made["id"])
    assert {jobs[n]["status"] for n in ("build",)} == {"pending"}
    assert jobs["build"]["runner"] is None
    svc.clock.advance(hours=1)
    assert status(svc, made["id"]) == "pending"
    pause(svc, 1, False)
    assert status(svc, made["id"]) == "success"
    assert runner_ids(jobs_of(svc, made["id"]))["build"] == 1


def test_timed_runners_pick_stuck_jobs_up_when_one_can(svc: FakeService) -> None:
    svc.runner.set_mode("timed")
    pause(svc, 1)
    made = pipeline(svc)
    svc.clock.advance(seconds=600)
    assert jobs_of(svc, made["id"])["build"]["status"] == "pending"
    pause(svc, 1, False)
    build = jobs_of(svc, made["id"])["build"]
    assert build["status"] == "running"  # overdue: picked up at once
    assert build["started_at"] == "2026-01-01T09:10:00Z"
    svc.clock.advance(seconds=200)
    assert status(svc, made["id"]) == "success"
    detail = call(svc, "GET", "/runners/1").json()
    assert detail["contacted_at"] == "2026-01-01T09:10:35Z"  # test: queued at :30, +5 s


def test_manual_runner_commands_refuse_stuck_jobs(svc: FakeService) -> None:
    pause(svc, 1)
    made = pipeline(svc)
    build = jobs_of(svc, made["id"])["build"]
    with pytest.raises(RunnerError) as caught:
        svc.runner.start(build["id"])
    assert caught.value.status == 409
    assert str(caught.value) == f"job {build['id']} is stuck: no active runner can run it"
    assert svc.runner.job(build["id"]).status == "pending"
    pause(svc, 1, False)
    assert svc.runner.start(build["id"]).runner_id == 1


def test_tags_choose_the_runner(svc: FakeService) -> None:
    write_ci(svc, TAGGED_CI)
    svc.runner.set_mode("instant")
    first = pipeline(svc)
    assert {n: j["status"] for n, j in jobs_of(svc, first["id"]).items()} == {
        "build": "pending",
        "test": "success",
    }
    docker = register(svc, tag_list="docker,linux", run_untagged=False).json()["id"]
    assert runner_ids(jobs_of(svc, first["id"])) == {"build": docker, "test": 1}
    assert status(svc, first["id"]) == "success"
    pause(svc, 1)
    second = pipeline(svc)
    assert jobs_of(svc, second["id"])["test"]["status"] == "pending"  # docker: tagged only
    call(svc, "PUT", f"/runners/{docker}", json_body={"run_untagged": True})
    assert runner_ids(jobs_of(svc, second["id"])) == {"build": docker, "test": docker}


def test_runners_available_to_the_project(svc: FakeService) -> None:
    svc.runner.set_mode("instant")
    pause(svc, 1)
    other = register(svc, group_token(svc, "oss")).json()["id"]
    elsewhere = register(svc, project_token(svc, "/projects/alice%2Fdotfiles")).json()["id"]
    made = pipeline(svc)
    assert status(svc, made["id"]) == "pending"
    enabled = call(svc, "POST", f"{WEBSITE}/runners", json_body={"runner_id": elsewhere})
    assert enabled.status == 201
    assert runner_ids(jobs_of(svc, made["id"]))["build"] == elsewhere
    call(svc, "DELETE", f"{WEBSITE}/runners/{elsewhere}")
    pause(svc, 1, False)
    call(svc, "PUT", WEBSITE, json_body={"shared_runners_enabled": False})
    second = pipeline(svc)
    assert status(svc, second["id"]) == "pending"
    group = register(svc, group_token(svc)).json()["id"]
    assert runner_ids(jobs_of(svc, second["id"]))["build"] == group
    assert other not in {
        j["runner"]["id"] for j in jobs_of(svc, second["id"]).values() if j["runner"]
    }


def test_ref_protected_runners_run_protected_refs_only(svc: FakeService) -> None:
    svc.runner.set_mode("instant")
    pause(svc, 1)
    guarded = register(svc, access_level="ref_protected").json()["id"]
    protected = call(svc, "POST", f"{WEBSITE}/protected_branches", json_body={"name": "main"})
    assert protected.status in (201, 409)
    on_main = pipeline(svc)
    assert runner_ids(jobs_of(svc, on_main["id"]))["build"] == guarded
    on_branch = pipeline(svc, "feature/dark-mode")
    assert status(svc, on_branch["id"]) == "pending"


def test_a_deleted_runner_leaves_its_jobs_without_runner(svc: FakeService) -> None:
    svc.runner.set_mode("instant")
    made = pipeline(svc)
    assert call(svc, "DELETE", "/runners/1").status == 204
    assert runner_ids(jobs_of(svc, made["id"]))["build"] is None
    second = pipeline(svc)
    assert status(svc, second["id"]) == "pending"
