"""Issue 12, item 3: the ``canceling`` job state: canceling a running job of a ``timed``
runner goes through ``canceling`` until the runner acknowledges at its next poll; other
modes and other states cancel at once."""

from __future__ import annotations

import gitlab
from support.calls import ROOT, call
from support.services import stamp

from fakeservice import FakeService

WEBSITE = "/projects/acme%2Fwebsite"


def running_build(svc: FakeService) -> int:
    svc.runner.set_mode("timed")
    created = call(svc, "POST", f"{WEBSITE}/pipeline", json_body={"ref": "main"}).json()
    svc.clock.advance(seconds=10)
    jobs = call(svc, "GET", f"{WEBSITE}/pipelines/{created['id']}/jobs").json()
    return next(j["id"] for j in jobs if j["status"] == "running")


def test_a_running_timed_job_goes_through_canceling() -> None:
    svc = stamp("default", "default")
    job = running_build(svc)
    canceled = call(svc, "POST", f"{WEBSITE}/jobs/{job}/cancel")
    assert (canceled.status, canceled.json()["status"]) == (201, "canceling")
    assert canceled.json()["finished_at"] is None
    assert canceled.json()["detailed_status"]["text"] == "Canceling"
    again = call(svc, "POST", f"{WEBSITE}/jobs/{job}/cancel")
    assert again.json()["status"] == "canceling"
    svc.clock.advance(seconds=4)
    assert call(svc, "GET", f"{WEBSITE}/jobs/{job}").json()["status"] == "canceling"
    svc.clock.advance(seconds=1)  # the runner's next poll (5 s)
    done = call(svc, "GET", f"{WEBSITE}/jobs/{job}").json()
    assert (done["status"], done["finished_at"]) == ("canceled", "2026-01-01T09:00:15Z")


def test_manual_mode_and_pending_jobs_cancel_at_once() -> None:
    svc = stamp("default", "default")
    created = call(svc, "POST", f"{WEBSITE}/pipeline", json_body={"ref": "main"}).json()
    jobs = call(svc, "GET", f"{WEBSITE}/pipelines/{created['id']}/jobs").json()
    pending = next(j["id"] for j in jobs if j["status"] == "pending")
    svc.runner.start(pending)
    assert call(svc, "POST", f"{WEBSITE}/jobs/{pending}/cancel").json()["status"] == "canceled"


def test_python_gitlab_sees_canceling() -> None:
    svc = stamp("default", "default")
    job_id = running_build(svc)
    gl = gitlab.Gitlab(svc.url, private_token=ROOT, session=svc.requests_session())
    job = gl.projects.get("acme/website").jobs.get(job_id)
    job.cancel()
    assert gl.projects.get("acme/website").jobs.get(job_id).status == "canceling"
    svc.clock.advance(seconds=5)
    assert gl.projects.get("acme/website").jobs.get(job_id).status == "canceled"


def test_a_pipeline_cancel_puts_running_jobs_through_canceling() -> None:
    svc = stamp("default", "default")
    job = running_build(svc)
    pipeline_id = call(svc, "GET", f"{WEBSITE}/jobs/{job}").json()["pipeline"]["id"]
    answer = call(svc, "POST", f"{WEBSITE}/pipelines/{pipeline_id}/cancel")
    assert answer.status == 200
    jobs = {
        j["name"]: j["status"]
        for j in call(svc, "GET", f"{WEBSITE}/pipelines/{pipeline_id}/jobs").json()
    }
    assert jobs == {"build": "canceling", "test": "canceled", "deploy": "canceled"}
    assert answer.json()["status"] == "canceling"
    svc.clock.advance(seconds=5)
    assert call(svc, "GET", f"{WEBSITE}/pipelines/{pipeline_id}").json()["status"] == "canceled"
