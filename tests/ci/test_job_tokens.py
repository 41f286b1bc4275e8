"""Job tokens from outside the store: ``svc.runner.job_token(job_id)`` and the control
plane's ``GET /_fake/ci/jobs/:id``; the token works on ``GET /job`` and the artifact
downloads only while its job runs. Raw HTTP and python-gitlab over a live server."""

from __future__ import annotations

import io
import zipfile

import gitlab
import pytest

from fakeservice import FakeService
from fakeservice.ci.runner.simulation import RunnerError

from .ci_support import PROJECT, body, call, create_pipeline, job_named, new_service


def test_the_token_is_public_and_valid_only_while_the_job_runs(svc: FakeService) -> None:
    created = create_pipeline(svc)
    build = job_named(svc, created["id"], "build")
    token = svc.runner.job_token(build["id"])
    assert token.startswith("glcbt-") and len(token) == len("glcbt-") + 24
    answer = call(svc, "GET", f"/_fake/ci/jobs/{build['id']}", None)
    assert answer.status == 200
    assert body(answer) == {
        "id": build["id"],
        "name": "build",
        "status": "pending",
        "pipeline_id": created["id"],
        "started_at": None,
        "finished_at": None,
        "failure_reason": None,
        "token": token,
    }
    pending = call(svc, "GET", "/job", None, headers={"JOB-TOKEN": token})
    assert pending.status == 401 and body(pending) == {"message": "401 Unauthorized"}
    started = call(svc, "POST", f"/_fake/ci/jobs/{build['id']}/start", None)
    assert body(started)["token"] == token and body(started)["status"] == "running"
    as_admin = call(svc, "GET", f"/projects/{PROJECT}/jobs/{build['id']}").body
    for kw in (
        {"headers": {"JOB-TOKEN": token}},
        {"query": {"job_token": token}},
        {"headers": {"Authorization": f"Bearer {token}"}},
    ):
        current = call(svc, "GET", "/job", None, **kw)
        assert current.status == 200, kw
        assert current.body == as_admin
    finished = call(svc, "POST", f"/_fake/ci/jobs/{build['id']}/finish", None, json_body={})
    assert body(finished)["status"] == "success" and body(finished)["token"] == token
    after = call(svc, "GET", "/job", None, headers={"JOB-TOKEN": token})
    assert after.status == 401
    assert call(svc, "GET", "/job", None).status == 401


def test_downloads_with_the_token_of_a_running_job(svc: FakeService) -> None:
    first = create_pipeline(svc)
    svc.runner.run_all(first["id"])
    built = job_named(svc, first["id"], "build")
    from fakeservice.projects.models import find_project

    project = find_project(svc.store, "acme/pipes")
    assert project is not None
    project.visibility = "private"
    second = create_pipeline(svc)
    deploying = job_named(svc, second["id"], "build")
    svc.runner.start(deploying["id"])
    token = svc.runner.job_token(deploying["id"])
    path = f"/projects/{PROJECT}/jobs/{built['id']}/artifacts"
    assert call(svc, "GET", path, None).status == 404
    download = call(svc, "GET", path, None, headers={"JOB-TOKEN": token})
    assert download.status == 200
    assert zipfile.ZipFile(io.BytesIO(download.body)).read("dist/app.bin") == b"BINARY"


def test_unknown_jobs_and_bridges(svc: FakeService) -> None:
    missing = call(svc, "GET", "/_fake/ci/jobs/999", None)
    assert missing.status == 404 and body(missing) == {"error": "unknown job 999"}
    invalid = call(svc, "GET", "/_fake/ci/jobs/abc", None)
    assert invalid.status == 400 and body(invalid) == {"error": "job_id is invalid"}
    with pytest.raises(RunnerError, match="unknown job 999"):
        svc.runner.job_token(999)
    created = create_pipeline(svc)
    bridges = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/bridges"))
    bridge = bridges[0]["id"]
    assert body(call(svc, "GET", f"/_fake/ci/jobs/{bridge}", None))["token"] is None
    with pytest.raises(RunnerError, match="bridges have no job token"):
        svc.runner.job_token(bridge)


def test_tokens_are_the_same_for_the_same_requests() -> None:
    def tokens() -> list[str]:
        svc = new_service()
        created = create_pipeline(svc)
        lint = job_named(svc, created["id"], "lint")["id"]
        svc.clock.advance(seconds=7)
        assert call(svc, "POST", f"/projects/{PROJECT}/jobs/{lint}/cancel").status == 201
        assert call(svc, "POST", f"/projects/{PROJECT}/jobs/{lint}/retry").status == 201
        listed = body(call(svc, "GET", f"/projects/{PROJECT}/jobs"))
        return [svc.runner.job_token(job["id"]) for job in listed]

    first = tokens()
    assert first == tokens() and len(set(first)) == len(first) == 5


def test_python_gitlab_with_a_job_token() -> None:
    svc = new_service()
    created = create_pipeline(svc)
    svc.runner.run_all(created["id"])
    built = job_named(svc, created["id"], "build")
    second = create_pipeline(svc)
    running = job_named(svc, second["id"], "test")
    svc.runner.start(job_named(svc, second["id"], "build")["id"])
    svc.runner.finish(job_named(svc, second["id"], "build")["id"])
    svc.runner.start(running["id"])
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, job_token=svc.runner.job_token(running["id"]))
        current = gl.http_get("/job")
        assert isinstance(current, dict)
        assert (current["id"], current["name"], current["status"]) == (
            running["id"],
            "test",
            "running",
        )
        project = gl.projects.get("acme/pipes", lazy=True)
        archive = project.jobs.get(built["id"], lazy=True).artifacts()
        assert zipfile.ZipFile(io.BytesIO(archive)).read("dist/app.bin") == b"BINARY"
        svc.runner.finish(running["id"])
        with pytest.raises(gitlab.GitlabAuthenticationError) as refused:
            gl.http_get("/job")
        assert refused.value.response_code == 401
    assert svc.server_errors == []
