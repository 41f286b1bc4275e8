"""Resource groups through raw HTTP: jobs with ``resource_group:`` wait
(``waiting_for_resource``) while another job of the group holds it and get it in the
order of the group's ``process_mode``; list, get and edit with its round-trip,
``current_job`` and ``upcoming_jobs``, roles and bad input; and a hypothesis property:
whatever the runner does, a group never has two holders nor a waiting job while free."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.calls import body, call

from fakeservice import FakeService
from fakeservice.ci.models import jobs
from fakeservice.ci.resource_groups.models import HOLDING
from fakeservice.ci.runner.simulation import RunnerError

from .ci_support import BOB, PROJECT, commit_file, job_named, new_service

BASE = f"/projects/{PROJECT}/resource_groups"
CI_FILE = """\
stages: [build, deploy]
build:
  stage: build
  script: [make]
deploy:
  stage: deploy
  script: [deploy]
  resource_group: production
release:
  stage: deploy
  script: [release]
  when: manual
  resource_group: production
"""


def with_groups(svc: FakeService) -> FakeService:
    commit_file(svc, ".gitlab-ci.yml", CI_FILE)
    return svc


def new_pipeline(svc: FakeService) -> int:
    response = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"})
    assert response.status == 201, response.body
    pipeline_id: int = body(response)["id"]
    svc.runner.run_all(pipeline_id)  # build runs; deploy asks for the group
    return pipeline_id


def built_pipeline(svc: FakeService) -> int:
    """A new pipeline whose build finished: its deploy asks for the group."""
    response = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"})
    pipeline_id: int = body(response)["id"]
    svc.runner.finish(job_named(svc, pipeline_id, "build")["id"])
    return pipeline_id


def status_of(svc: FakeService, pipeline_id: int, name: str) -> str:
    return str(job_named(svc, pipeline_id, name)["status"])


def upcoming(svc: FakeService) -> list[int]:
    return [j["id"] for j in body(call(svc, "GET", f"{BASE}/production/upcoming_jobs"))]


def current(svc: FakeService) -> Any:
    return body(call(svc, "GET", f"{BASE}/production/current_job"))


def test_a_second_deploy_waits_until_the_first_is_done(svc: FakeService) -> None:
    with_groups(svc)
    first = new_pipeline(svc)
    # run_all finished the first deploy already: the group is free again
    assert status_of(svc, first, "deploy") == "success"
    assert current(svc) is None and upcoming(svc) == []
    holder = job_named(svc, built_pipeline(svc), "deploy")
    assert holder["status"] == "pending"
    third_id = built_pipeline(svc)
    waiting = job_named(svc, third_id, "deploy")
    assert waiting["status"] == "waiting_for_resource"
    assert current(svc)["id"] == holder["id"] and upcoming(svc) == [waiting["id"]]
    svc.runner.start(holder["id"])
    assert status_of(svc, third_id, "deploy") == "waiting_for_resource"
    svc.runner.finish(holder["id"], "failed")
    assert status_of(svc, third_id, "deploy") == "pending"
    assert current(svc)["id"] == waiting["id"] and upcoming(svc) == []


def test_process_mode_orders_the_waiting_jobs(svc: FakeService) -> None:
    with_groups(svc)
    ids = [job_named(svc, built_pipeline(svc), "deploy")["id"] for _ in range(3)]
    holder, second, third = ids
    assert upcoming(svc) == [second, third]
    edited = call(svc, "PUT", f"{BASE}/production", json_body={"process_mode": "newest_first"})
    assert edited.status == 200 and body(edited)["process_mode"] == "newest_first"
    assert upcoming(svc) == [third, second]
    svc.runner.finish(holder)
    assert current(svc)["id"] == third
    body(call(svc, "PUT", f"{BASE}/production", json_body={"process_mode": "oldest_first"}))
    assert upcoming(svc) == [second]


def test_settings_round_trip_and_bad_input(svc: FakeService) -> None:
    with_groups(svc)
    new_pipeline(svc)
    listed = body(call(svc, "GET", BASE))
    assert listed == [
        {
            "id": listed[0]["id"],
            "key": "production",
            "process_mode": "unordered",
            "created_at": "2026-01-01T09:00:00Z",
            "updated_at": "2026-01-01T09:00:00Z",
        }
    ]
    svc.clock.advance(30)
    for mode in ("oldest_first", "newest_first", "unordered"):
        edited = call(svc, "PUT", f"{BASE}/production", json_body={"process_mode": mode})
        assert edited.status == 200, edited.body
        for answer in (body(edited), body(call(svc, "GET", f"{BASE}/production"))):
            assert answer["process_mode"] == mode
            assert answer["updated_at"] == "2026-01-01T09:00:30Z"
        assert body(call(svc, "GET", BASE))[0]["process_mode"] == mode
    bad = call(svc, "PUT", f"{BASE}/production", json_body={"process_mode": "fifo"})
    assert bad.status == 400
    assert body(bad) == {"error": "process_mode does not have a valid value"}
    assert body(call(svc, "GET", f"{BASE}/production"))["process_mode"] == "unordered"
    assert body(call(svc, "GET", f"{BASE}/staging")) == {"message": "404 Not found"}
    assert (
        call(svc, "PUT", f"{BASE}/staging", json_body={"process_mode": "unordered"}).status == 404
    )
    assert call(svc, "GET", f"{BASE}/staging/upcoming_jobs").status == 404
    assert call(svc, "GET", BASE, BOB).status == 403  # a reporter
    assert call(svc, "GET", BASE, None).status == 401
    assert body(call(svc, "GET", "/projects/999999/resource_groups")) == {
        "message": "404 Project Not Found"
    }


def test_a_played_manual_job_of_a_busy_group_waits(svc: FakeService) -> None:
    with_groups(svc)
    made = built_pipeline(svc)
    holder = job_named(svc, made, "deploy")
    release = job_named(svc, made, "release")
    assert (holder["status"], release["status"]) == ("pending", "manual")
    played = call(svc, "POST", f"/projects/{PROJECT}/jobs/{release['id']}/play")
    assert played.status == 201, played.body
    assert body(played)["status"] == "waiting_for_resource"
    svc.runner.finish(holder["id"])
    assert status_of(svc, made, "release") == "pending"


def test_canceling_the_holder_hands_the_group_on(svc: FakeService) -> None:
    with_groups(svc)
    pipelines = [built_pipeline(svc), built_pipeline(svc)]
    canceled = call(svc, "POST", f"/projects/{PROJECT}/pipelines/{pipelines[0]}/cancel")
    assert canceled.status == 200
    assert status_of(svc, pipelines[1], "deploy") == "pending"


def _holders_and_waiting(svc: FakeService) -> tuple[int, int]:
    grouped = [j for j in jobs(svc.store).rows.values() if j.resource_group and not j.retried]
    holders = sum(1 for j in grouped if j.status in HOLDING)
    waiting = sum(1 for j in grouped if j.status == "waiting_for_resource")
    return holders, waiting


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.sampled_from(["pipeline", "finish", "start", "fail", "cancel", "play"]),
                  st.integers(0, 5)),
        max_size=12,
    )
)  # fmt: skip
def test_a_group_has_at_most_one_holder_and_no_idle_waiters(steps: list[tuple[str, int]]) -> None:
    svc = with_groups(new_service())
    made: list[int] = []
    for action, pick in steps:
        if action == "pipeline" or not made:
            response = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"})
            made.append(body(response)["id"])
            continue
        target = made[pick % len(made)]
        listed = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{target}/jobs"))
        job = listed[pick % len(listed)]
        try:
            if action == "finish":
                svc.runner.finish(job["id"])
            elif action == "fail":
                svc.runner.finish(job["id"], "failed")
            elif action == "start":
                svc.runner.start(job["id"])
            elif action == "play":
                call(svc, "POST", f"/projects/{PROJECT}/jobs/{job['id']}/play")
            else:
                call(svc, "POST", f"/projects/{PROJECT}/pipelines/{target}/cancel")
        except RunnerError:
            pass
        holders, waiting = _holders_and_waiting(svc)
        assert holders <= 1
        assert holders == 1 or waiting == 0
    assert svc.server_errors == []


DELAYED_FILE = """\
hold:
  script: [hold]
  resource_group: production
later:
  script: [later]
  when: delayed
  start_in: 1 minute
  resource_group: production
"""


def test_a_delayed_job_of_a_busy_group_waits_when_its_time_comes(svc: FakeService) -> None:
    commit_file(svc, ".gitlab-ci.yml", DELAYED_FILE)
    svc.runner.set_outcome("hold", {"status": "success", "duration": 600})
    svc.runner.set_mode("timed", pickup_seconds=1)
    made = body(call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"}))
    later = job_named(svc, made["id"], "later")
    assert later["status"] == "scheduled"
    svc.clock.advance(120)
    assert status_of(svc, made["id"], "hold") == "running"
    assert status_of(svc, made["id"], "later") == "waiting_for_resource"
    assert upcoming(svc) == [later["id"]]
    svc.clock.advance(600)
    assert status_of(svc, made["id"], "hold") == "success"
    assert status_of(svc, made["id"], "later") in ("pending", "running", "success")


def test_the_runner_does_not_start_a_delayed_job_of_a_busy_group(svc: FakeService) -> None:
    commit_file(svc, ".gitlab-ci.yml", DELAYED_FILE)
    made = body(call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"}))
    later = job_named(svc, made["id"], "later")
    try:
        svc.runner.start(later["id"])
    except RunnerError as error:
        assert "waits for resource group production" in str(error)
    else:
        raise AssertionError("a delayed job of a held group started")
    assert status_of(svc, made["id"], "later") == "scheduled"
    svc.runner.finish(job_named(svc, made["id"], "hold")["id"])
    assert svc.runner.start(later["id"]).status == "running"
