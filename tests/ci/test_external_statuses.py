"""External commit statuses joining a CI pipeline: they sit in the ``external`` stage,
count for the pipeline's composite status, stay out of the build lists and are never run
or retried by the pipeline."""

from __future__ import annotations

from fakeservice import FakeService

from .ci_support import PROJECT, ROOT, body, call, create_pipeline, jobs_of, pipeline


def test_status_joins_the_pipeline_of_its_commit(svc: FakeService) -> None:
    made = create_pipeline(svc)
    sha = made["sha"]
    before = [job["id"] for job in jobs_of(svc, made["id"])]
    posted = call(
        svc, "POST", f"/projects/{PROJECT}/statuses/{sha}", ROOT,
        json_body={"state": "failed", "name": "ext", "ref": "main"},
    )  # fmt: skip
    assert posted.status == 201
    status = body(posted)
    assert status["pipeline_id"] == made["id"]
    assert [job["id"] for job in jobs_of(svc, made["id"])] == before
    assert status["id"] not in [
        j["id"] for j in body(call(svc, "GET", f"/projects/{PROJECT}/jobs"))
    ]
    listed = body(call(svc, "GET", f"/projects/{PROJECT}/repository/commits/{sha}/statuses"))
    assert status["id"] in [s["id"] for s in listed]
    assert {s["name"] for s in listed} >= {"build", "ext"}
    svc.runner.run_all(made["id"])
    after = pipeline(svc, made["id"])
    assert after["status"] == "failed"  # the external failure is not allowed to fail
    retried = call(svc, "POST", f"/projects/{PROJECT}/pipelines/{made['id']}/retry", ROOT)
    assert retried.status == 201
    again = body(call(svc, "GET", f"/projects/{PROJECT}/repository/commits/{sha}/statuses"))
    assert [s["status"] for s in again if s["name"] == "ext"] == ["failed"]
    svc.runner.run_all(made["id"])
    assert pipeline(svc, made["id"])["status"] == "failed"
    fixed = call(
        svc, "POST", f"/projects/{PROJECT}/statuses/{sha}", ROOT,
        json_body={"state": "success", "name": "ext", "pipeline_id": made["id"]},
    )  # fmt: skip
    assert body(fixed)["pipeline_id"] == made["id"]
    assert pipeline(svc, made["id"])["status"] == "success"
