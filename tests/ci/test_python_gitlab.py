"""The reference client (python-gitlab) against a live server: pipelines, jobs, logs,
artifacts, lint, pipeline schedules, and a client-side polling loop under the timed runner."""

from __future__ import annotations

import io
import zipfile

import gitlab
import pytest
import requests
from gitlab.v4.objects import Project

from fakeservice import FakeService

FINISHED = ("success", "failed", "canceled", "skipped", "manual")


def project_of(gl: gitlab.Gitlab) -> Project:
    return gl.projects.get("acme/pipes")


def test_pipeline_lifecycle(live: tuple[FakeService, gitlab.Gitlab]) -> None:
    svc, gl = live
    project = project_of(gl)
    pipeline = project.pipelines.create(
        {
            "ref": "main",
            "variables": [
                {"key": "A", "value": "1"},
                {"key": "CERT", "value": "pem", "variable_type": "file"},
            ],
        }
    )
    assert pipeline.status == "pending" and pipeline.ref == "main"
    assert [(v.key, v.variable_type) for v in pipeline.variables.list()] == [
        ("A", "env_var"),
        ("CERT", "file"),
    ]
    jobs = pipeline.jobs.list(get_all=True)
    assert [j.name for j in jobs] == ["deploy", "lint", "test", "build"]
    build = project.jobs.get(jobs[-1].id)
    svc.runner.start(build.id)
    build.refresh()
    assert build.status == "running"
    assert "$ make" in build.trace().decode()
    svc.runner.run_all(pipeline.id)
    pipeline.refresh()
    assert pipeline.status == "success" and pipeline.coverage == "87.50"
    listed = project.pipelines.list(status="success", get_all=True)
    assert [p.id for p in listed] == [pipeline.id]
    assert project.pipelines.list(scope="branches", get_all=True)[0].id == pipeline.id
    bridges = pipeline.bridges.list()
    assert bridges[0].downstream_pipeline["status"] == "success"
    report = pipeline.test_report.get()
    assert report.total_count == 3 and report.failed_count == 1
    summary = pipeline.test_report_summary.get()
    assert summary.total["count"] == 3


def test_retry_cancel_delete(live: tuple[FakeService, gitlab.Gitlab]) -> None:
    svc, gl = live
    project = project_of(gl)
    pipeline = project.pipelines.create({"ref": "feature/x"})
    build = pipeline.jobs.list(get_all=True)[-1]
    svc.runner.finish(build.id, "failed", failure_reason="script_failure")
    pipeline.refresh()
    assert pipeline.status == "failed"
    job = project.jobs.get(build.id)
    assert job.failure_reason == "script_failure"
    retried = job.retry()
    assert retried["id"] != build.id and retried["status"] == "pending"
    with pytest.raises(gitlab.exceptions.GitlabJobRetryError) as refused:
        job.retry()
    assert refused.value.response_code == 403
    assert "Job is not retryable" in str(refused.value)
    assert len(pipeline.jobs.list(include_retried=True, get_all=True)) == 5
    pipeline.cancel()
    pipeline.refresh()
    assert pipeline.status == "canceled"
    pipeline.retry()
    pipeline.refresh()
    assert pipeline.status == "pending"
    with pytest.raises(gitlab.exceptions.GitlabJobPlayError) as unplayable:
        project.jobs.get(retried["id"]).play()
    assert unplayable.value.response_code == 400
    pipeline.delete()
    with pytest.raises(gitlab.exceptions.GitlabGetError) as gone:
        project.pipelines.get(pipeline.id)
    assert gone.value.response_code == 404


def test_scope_filters(live: tuple[FakeService, gitlab.Gitlab]) -> None:
    _svc, gl = live
    project = project_of(gl)
    pipeline = project.pipelines.create({"ref": "main"})
    assert [j.name for j in project.jobs.list(scope="pending", get_all=True)] == ["build"]
    both = project.jobs.list(scope=["pending", "created"], get_all=True)
    assert [j.name for j in both] == ["deploy", "lint", "test", "build"]
    assert [j.name for j in pipeline.jobs.list(scope=["created"], get_all=True)] == [
        "deploy",
        "lint",
        "test",
    ]


def test_artifacts(live: tuple[FakeService, gitlab.Gitlab]) -> None:
    svc, gl = live
    project = project_of(gl)
    for ref in ("main", "feature/x"):
        pipeline = project.pipelines.create({"ref": ref})
        svc.runner.run_all(pipeline.id)
    build = project.jobs.get(pipeline.jobs.list(get_all=True)[-1].id)
    archive = zipfile.ZipFile(io.BytesIO(build.artifacts()))
    assert "dist/app.bin" in archive.namelist()
    assert build.artifact("dist/docs/index.html") == b"<h1>docs</h1>"
    by_ref = project.artifacts.download(ref_name="feature/x", job="build")
    assert zipfile.ZipFile(io.BytesIO(by_ref)).read("dist/app.bin") == b"BINARY"
    assert project.artifacts.raw("feature/x", "dist/app.bin", "build") == b"BINARY"
    assert project.artifacts.raw("main", "dist/docs/index.html", "build") == b"<h1>docs</h1>"
    with pytest.raises(gitlab.exceptions.GitlabGetError) as missing:
        build.artifact("dist/nothing")
    assert missing.value.response_code == 404
    build.keep_artifacts()
    assert project.jobs.get(build.id).artifacts_expire_at is None
    build.delete_artifacts()
    with pytest.raises(gitlab.exceptions.GitlabGetError):
        build.artifacts()


def test_encoded_artifact_paths_over_the_wire(server: tuple[FakeService, str]) -> None:
    svc, url = server
    svc.reset()
    session = requests.Session()
    session.headers["PRIVATE-TOKEN"] = "root-token"
    created = session.post(
        f"{url}/api/v4/projects/acme%2Fpipes/pipeline", json={"ref": "feature/x"}
    )
    svc.runner.run_all(created.json()["id"])
    response = session.get(
        f"{url}/api/v4/projects/acme%2Fpipes/jobs/artifacts/feature%2Fx/raw/dist%2Fapp.bin",
        params={"job": "build"},
    )
    assert response.status_code == 200 and response.content == b"BINARY"
    trace = session.get(f"{url}/api/v4/projects/acme%2Fpipes/jobs/1/trace")
    assert trace.headers["Content-Type"].startswith("text/plain")


def test_lint(live: tuple[FakeService, gitlab.Gitlab]) -> None:
    _svc, gl = live
    result = gl.ci_lint.create({"content": "build:\n  script: [make]\n", "include_jobs": True})
    assert result.status == "valid" and result.jobs[0]["name"] == "build"
    gl.ci_lint.validate({"content": "build:\n  script: [make]\n"})
    with pytest.raises(gitlab.exceptions.GitlabCiLintError) as invalid:
        gl.ci_lint.validate({"content": "build:\n  script: [make]\n  bogus: 1\n"})
    assert "unknown keys: bogus" in str(invalid.value)
    project = project_of(gl)
    own = project.ci_lint.get()
    assert own.valid is True and own.merged_yaml.startswith("---\n")
    checked = project.ci_lint.create({"content": "include:\n  - local: ci/child.yml\n"})
    assert checked.valid is True and checked.includes[0]["location"] == "ci/child.yml"
    dry = project.ci_lint.create(
        {"content": "t:\n  script: [x]\n  only: [tags]\n", "dry_run": True, "ref": "v1.0"}
    )
    assert dry.valid is True


def test_polling_until_done_under_the_timed_runner(live: tuple[FakeService, gitlab.Gitlab]) -> None:
    svc, gl = live
    svc.runner.set_mode("timed", pickup_seconds=5)
    project = project_of(gl)
    pipeline = project.pipelines.create({"ref": "main"})
    seen = [pipeline.status]
    polls = 0
    while pipeline.status not in FINISHED:
        polls += 1
        assert polls < 100, seen
        svc.clock.advance(seconds=10)
        pipeline.refresh()
        if pipeline.status != seen[-1]:
            seen.append(pipeline.status)
    assert seen == ["pending", "running", "success"]
    assert pipeline.started_at == "2026-01-01T09:00:05Z"
    assert (
        pipeline.finished_at == "2026-01-01T09:01:55Z" and pipeline.duration == 105
    )  # 5..35, 40..115
    jobs = {j.name: j for j in pipeline.jobs.list(get_all=True)}
    assert jobs["test"].duration == 40.0 and jobs["deploy"].status == "manual"


def test_job_token_from_inside_a_job(live: tuple[FakeService, gitlab.Gitlab]) -> None:
    svc, gl = live
    project = project_of(gl)
    pipeline = project.pipelines.create({"ref": "main"})
    build = pipeline.jobs.list(get_all=True)[-1]
    svc.runner.start(build.id)
    from fakeservice.ci.models import jobs

    token = jobs(svc.store).rows[build.id].token
    inside = gitlab.Gitlab(gl.url, job_token=token)
    current = inside.http_get("/job")
    assert current["id"] == build.id and current["status"] == "running"


def test_polling_with_the_control_plane_over_http(server: tuple[FakeService, str]) -> None:
    svc, url = server
    svc.reset()
    control = requests.Session()
    assert control.post(f"{url}/_fake/ci/runner", json={"mode": "timed"}).status_code == 200
    gl = gitlab.Gitlab(url, private_token="alice-token")
    pipeline = gl.projects.get("acme/pipes").pipelines.create({"ref": "feature/x"})
    statuses = []
    while pipeline.status not in FINISHED:
        moved = control.post(f"{url}/_fake/clock", json={"seconds": 15})
        assert moved.status_code == 200
        pipeline.refresh()
        statuses.append(pipeline.status)
    assert statuses[-1] == "success" and len(statuses) == 8
    assert pipeline.finished_at == "2026-01-01T09:01:55Z"
    assert svc.server_errors == []


def test_pipeline_schedule_lifecycle(live: tuple[FakeService, gitlab.Gitlab]) -> None:
    _svc, gl = live
    url = gl.url
    alice = gitlab.Gitlab(url, private_token="alice-token").projects.get("acme/pipes")
    root = gitlab.Gitlab(url, private_token="root-token").projects.get("acme/pipes")
    schedule = alice.pipelineschedules.create(
        {"description": "nightly", "ref": "main", "cron": "0 1 * * *"}
    )
    assert schedule.cron_timezone == "UTC" and schedule.owner["username"] == "alice"
    assert schedule.next_run_at == "2026-01-02T01:00:00Z"

    schedule.cron = "15 * * * *"
    schedule.save()
    fetched = alice.pipelineschedules.get(schedule.id)
    assert fetched.cron == "15 * * * *" and fetched.next_run_at == "2026-01-01T09:15:00Z"

    variable = fetched.variables.create({"key": "MODE", "value": "nightly"})
    variable.value = "full"
    variable.save()
    assert alice.pipelineschedules.get(schedule.id).attributes["variables"] == [
        {"key": "MODE", "value": "full", "variable_type": "env_var"}
    ]

    assert fetched.play() == {"message": "201 Created"}
    runs = fetched.pipelines.list(get_all=True)
    assert [p.source for p in runs] == ["schedule"]
    assert alice.pipelines.get(runs[0].id).variables.list()[0].value == "full"
    assert alice.pipelineschedules.get(schedule.id).last_pipeline["id"] == runs[0].id

    theirs = root.pipelineschedules.get(schedule.id)
    theirs.take_ownership()
    assert theirs.owner["username"] == "root"
    with pytest.raises(gitlab.GitlabUpdateError):
        fetched.description = "not mine any more"
        fetched.save()

    assert [s.id for s in alice.pipelineschedules.list(scope="active")] == [schedule.id]
    alice.pipelineschedules.delete(schedule.id)
    assert alice.pipelineschedules.list() == []
