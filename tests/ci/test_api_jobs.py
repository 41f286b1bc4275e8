"""Jobs over raw HTTP (seed 000 §2.4, §2.5, §3, §4.1): lists and every ``scope``, one job
field by field, logs, cancel, retry, play, bridges, and the job-token endpoints."""

from __future__ import annotations

from typing import Any

import pytest

from fakeservice import FakeService

from .ci_support import (
    ALICE,
    BOB,
    CAROL,
    PROJECT,
    ROOT,
    body,
    call,
    create_pipeline,
    job_named,
    jobs_of,
    new_service,
    pipeline,
)

JOB_KEYS = [
    "id",
    "status",
    "stage",
    "name",
    "ref",
    "tag",
    "coverage",
    "allow_failure",
    "created_at",
    "started_at",
    "finished_at",
    "erased_at",
    "duration",
    "queued_duration",
    "user",
    "commit",
    "pipeline",
    "web_url",
    "detailed_status",
    "project",
    "artifacts",
    "runner",
    "runner_manager",
    "artifacts_expire_at",
    "archived",
    "tag_list",
]


@pytest.fixture
def ran(svc: FakeService) -> dict[str, Any]:
    """A finished pipeline: build, test, lint succeeded; deploy manual; child bridge."""
    created = create_pipeline(svc)
    svc.runner.run_all(created["id"])
    return created


def test_new_pipeline_jobs_start_in_stage_order(svc: FakeService) -> None:
    created = create_pipeline(svc)
    jobs = jobs_of(svc, created["id"])
    assert [(j["name"], j["status"]) for j in jobs] == [
        ("deploy", "created"),
        ("lint", "created"),
        ("test", "created"),
        ("build", "pending"),
    ]
    assert [j["id"] for j in jobs] == sorted((j["id"] for j in jobs), reverse=True)
    build = jobs[-1]
    assert build["queued_duration"] == 0.0 and build["duration"] is None
    assert build["started_at"] is None and build["runner"] is None
    assert jobs[0]["queued_duration"] is None


def test_job_fields(svc: FakeService, ran: dict[str, Any]) -> None:
    build = job_named(svc, ran["id"], "build")
    response = call(svc, "GET", f"/projects/{PROJECT}/jobs/{build['id']}")
    assert response.status == 200
    assert response.header("Content-Type") == "application/json"
    job = body(response)
    assert list(job) == [
        *JOB_KEYS[:17],
        "web_url",
        "detailed_status",
        "project",
        "artifacts_file",
        *JOB_KEYS[20:],
    ]
    assert job["status"] == "success" and job["stage"] == "build" and job["ref"] == "main"
    assert job["tag"] is False and job["allow_failure"] is False
    assert job["web_url"] == f"http://fakeservice.test/acme/pipes/-/jobs/{job['id']}"
    assert job["pipeline"] == {
        "id": ran["id"],
        "project_id": ran["project_id"],
        "ref": "main",
        "sha": ran["sha"],
        "status": "success",
    }
    commit = job["commit"]
    assert commit["id"] == ran["sha"] and commit["short_id"] == ran["sha"][:8]
    assert commit["title"] == "Initial commit" and commit["author_name"] == "Administrator"
    assert set(commit) >= {"id", "short_id", "title", "message", "author_name", "author_email"}
    user = job["user"]
    assert user["username"] == "root" and "created_at" in user and "bio" in user
    assert job["runner"]["id"] == 1 and job["tag_list"] == []
    assert job["artifacts_file"] == {
        "filename": "artifacts.zip",
        "size": job["artifacts"][0]["size"],
    }
    assert [a["file_type"] for a in job["artifacts"]] == ["archive", "metadata", "trace", "junit"]
    assert "failure_reason" not in job


def test_list_project_jobs_newest_first_with_pagination(svc: FakeService) -> None:
    create_pipeline(svc)
    create_pipeline(svc)
    response = call(svc, "GET", f"/projects/{PROJECT}/jobs", query={"per_page": 3})
    assert response.status == 200
    ids = [j["id"] for j in body(response)]
    assert ids == [9, 8, 7]  # bridges (5, 10) are not builds
    assert response.header("X-Total") == "8" and response.header("X-Total-Pages") == "3"
    assert response.header("X-Next-Page") == "2" and response.header("X-Prev-Page") == ""
    link = response.header("Link") or ""
    assert 'rel="next"' in link and "per_page=3" in link


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("scope=pending", ["build"]),
        ("scope[]=pending", ["build"]),
        ("scope[]=created&scope[]=pending", ["deploy", "lint", "test", "build"]),
        ("scope=success", []),
    ],
)
def test_scope_string_or_array(svc: FakeService, query: str, expected: list[str]) -> None:
    create_pipeline(svc)
    response = call(svc, "GET", f"/projects/{PROJECT}/jobs?{query}")
    assert response.status == 200
    assert [j["name"] for j in body(response)] == expected


def test_scope_values_are_checked(svc: FakeService) -> None:
    for query in ("scope=bogus", "scope[]=success&scope[]=bogus"):
        response = call(svc, "GET", f"/projects/{PROJECT}/jobs?{query}")
        assert response.status == 400
        assert body(response) == {"error": "scope does not have a valid value"}


def test_every_scope_after_a_mixed_run(svc: FakeService) -> None:
    svc.runner.set_outcome(
        "test", {"status": "failed", "failure_reason": "script_failure"}, project="acme/pipes"
    )
    created = create_pipeline(svc)
    svc.runner.run_all(created["id"])
    second = create_pipeline(svc)
    call(svc, "POST", f"/projects/{PROJECT}/pipelines/{second['id']}/cancel")
    seen: dict[str, list[str]] = {}
    for scope in (
        "created",
        "pending",
        "running",
        "failed",
        "success",
        "canceled",
        "skipped",
        "manual",
    ):
        response = call(svc, "GET", f"/projects/{PROJECT}/jobs", query={"scope": scope})
        seen[scope] = [f"{j['pipeline']['id']}:{j['name']}" for j in body(response)]
    assert seen == {
        "created": [],
        "pending": [],
        "running": [],
        "failed": ["1:test"],
        "success": ["1:lint", "1:build"],
        "canceled": ["2:deploy", "2:lint", "2:test", "2:build"],
        "skipped": ["1:deploy"],
        "manual": [],
    }


def test_failed_job_has_failure_reason(svc: FakeService) -> None:
    created = create_pipeline(svc)
    build = job_named(svc, created["id"], "build")
    svc.runner.finish(build["id"], "failed", failure_reason="stuck_or_timeout_failure")
    job = body(call(svc, "GET", f"/projects/{PROJECT}/jobs/{build['id']}"))
    assert job["status"] == "failed" and job["failure_reason"] == "stuck_or_timeout_failure"
    assert job_named(svc, created["id"], "test")["status"] == "skipped"
    assert pipeline(svc, created["id"])["status"] == "failed"


def test_get_job_errors(svc: FakeService, ran: dict[str, Any]) -> None:
    assert body(call(svc, "GET", f"/projects/{PROJECT}/jobs/9999")) == {"message": "404 Not found"}
    response = call(svc, "GET", f"/projects/{PROJECT}/jobs/abc")
    assert response.status == 400 and body(response) == {"error": "job_id is invalid"}
    response = call(svc, "GET", "/projects/acme%2Fnope/jobs/1")
    assert response.status == 404 and body(response) == {"message": "404 Project Not Found"}
    bridge = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{ran['id']}/bridges"))[0]
    response = call(svc, "GET", f"/projects/{PROJECT}/jobs/{bridge['id']}")
    assert response.status == 404
    other = body(call(svc, "GET", "/projects/acme%2Fwebsite"))
    response = call(svc, "GET", f"/projects/{other['id']}/jobs/1")
    assert response.status == 404 and body(response) == {"message": "404 Not found"}


def test_trace(svc: FakeService) -> None:
    created = create_pipeline(svc)
    build = job_named(svc, created["id"], "build")
    response = call(svc, "GET", f"/projects/{PROJECT}/jobs/{build['id']}/trace")
    assert response.status == 404 and body(response) == {"message": "404 Not found"}
    svc.runner.start(build["id"])
    running = call(svc, "GET", f"/projects/{PROJECT}/jobs/{build['id']}/trace")
    assert running.status == 200
    assert running.header("Content-Type") == "text/plain; charset=utf-8"
    assert running.body.decode().splitlines()[-1] == "$ make"
    svc.runner.finish(build["id"])
    text = call(svc, "GET", f"/projects/{PROJECT}/jobs/{build['id']}/trace").body.decode()
    assert text.endswith("$ make\ncompiled 3 files\nJob succeeded\n")
    assert text.startswith("Running with fakeservice-runner")
    job = body(call(svc, "GET", f"/projects/{PROJECT}/jobs/{build['id']}"))
    trace = next(a for a in job["artifacts"] if a["file_type"] == "trace")
    assert trace == {
        "file_type": "trace",
        "size": len(text.encode()),
        "filename": "job.log",
        "file_format": "raw",
    }


def test_cancel(svc: FakeService) -> None:
    created = create_pipeline(svc)
    build = job_named(svc, created["id"], "build")
    svc.clock.advance(seconds=7)
    response = call(svc, "POST", f"/projects/{PROJECT}/jobs/{build['id']}/cancel")
    assert response.status == 201
    job = body(response)
    assert job["status"] == "canceled" and job["finished_at"] == "2026-01-01T09:00:07Z"
    assert pipeline(svc, created["id"])["status"] == "canceled"
    again = call(svc, "POST", f"/projects/{PROJECT}/jobs/{build['id']}/cancel")
    assert again.status == 201 and body(again) == job


def test_cancel_finished_job_is_unchanged(svc: FakeService, ran: dict[str, Any]) -> None:
    build = job_named(svc, ran["id"], "build")
    response = call(svc, "POST", f"/projects/{PROJECT}/jobs/{build['id']}/cancel")
    assert response.status == 201 and body(response) == build


def test_retry_clones_into_a_new_job(svc: FakeService) -> None:
    created = create_pipeline(svc)
    first = job_named(svc, created["id"], "build")
    svc.runner.set_outcome(job_id=first["id"], status="failed")
    svc.runner.run_all(created["id"])
    old = job_named(svc, created["id"], "build")
    assert old["status"] == "failed"
    assert pipeline(svc, created["id"])["status"] == "failed"
    svc.clock.advance(seconds=60)
    response = call(svc, "POST", f"/projects/{PROJECT}/jobs/{old['id']}/retry", ALICE)
    assert response.status == 201
    new = body(response)
    assert new["id"] > old["id"] and new["name"] == "build" and new["status"] == "pending"
    assert new["user"]["username"] == "alice"
    assert new["created_at"] == "2026-01-01T09:01:00Z"
    names = [(j["name"], j["status"]) for j in jobs_of(svc, created["id"])]
    assert names == [
        ("build", "pending"),
        ("deploy", "created"),
        ("lint", "created"),
        ("test", "created"),
    ]
    with_retried = jobs_of(svc, created["id"], "?include_retried=true")
    assert [j["id"] for j in with_retried][-1] == old["id"]
    assert pipeline(svc, created["id"])["status"] == "pending"
    refused = call(svc, "POST", f"/projects/{PROJECT}/jobs/{old['id']}/retry")
    assert refused.status == 403
    assert body(refused) == {"message": "403 Forbidden - Job is not retryable"}
    svc.runner.run_all(created["id"])
    assert pipeline(svc, created["id"])["status"] == "success"


def test_retry_of_unfinished_job_is_forbidden(svc: FakeService) -> None:
    created = create_pipeline(svc)
    build = job_named(svc, created["id"], "build")
    response = call(svc, "POST", f"/projects/{PROJECT}/jobs/{build['id']}/retry")
    assert response.status == 403
    assert body(response) == {"message": "403 Forbidden - Job is not retryable"}


def test_play(svc: FakeService, ran: dict[str, Any]) -> None:
    deploy = job_named(svc, ran["id"], "deploy")
    assert deploy["status"] == "manual" and deploy["allow_failure"] is True
    build = job_named(svc, ran["id"], "build")
    refused = call(svc, "POST", f"/projects/{PROJECT}/jobs/{build['id']}/play")
    assert refused.status == 400
    assert body(refused) == {"message": "400 Bad request - Unplayable Job"}
    response = call(svc, "POST", f"/projects/{PROJECT}/jobs/{deploy['id']}/play", ALICE)
    assert response.status == 201
    played = body(response)
    assert played["status"] == "pending" and played["user"]["username"] == "alice"
    assert pipeline(svc, ran["id"])["status"] == "running"


def test_write_permissions(svc: FakeService, ran: dict[str, Any]) -> None:
    build = job_named(svc, ran["id"], "build")
    for action in ("cancel", "retry", "play"):
        anonymous = call(svc, "POST", f"/projects/{PROJECT}/jobs/{build['id']}/{action}", None)
        assert anonymous.status == 401
        reporter = call(svc, "POST", f"/projects/{PROJECT}/jobs/{build['id']}/{action}", BOB)
        assert reporter.status == 403
    developer = svc.request(
        "POST",
        f"/projects/{PROJECT}/jobs/{build['id']}/retry",
        token=ROOT,
        headers={"Sudo": "dev003"},
    )
    assert developer.status == 201


def test_public_jobs_are_readable_anonymously(svc: FakeService, ran: dict[str, Any]) -> None:
    assert call(svc, "GET", f"/projects/{PROJECT}/jobs", None).status == 200
    from fakeservice.projects.models import find_project

    project = find_project(svc.store, "acme/pipes")
    project.public_jobs = False
    svc.answers.clear()  # a record changed in place, outside the store: forget kept answers
    response = call(svc, "GET", f"/projects/{PROJECT}/jobs", None)
    assert response.status == 403 and body(response) == {"message": "403 Forbidden"}
    assert call(svc, "GET", f"/projects/{PROJECT}/jobs", BOB).status == 200


def test_private_project_is_not_found(svc: FakeService) -> None:
    response = call(svc, "GET", "/projects/acme%2Fsecret-ops%2Fvault/jobs", CAROL)
    assert response.status == 404 and body(response) == {"message": "404 Project Not Found"}


def test_pipeline_jobs_errors(svc: FakeService) -> None:
    response = call(svc, "GET", f"/projects/{PROJECT}/pipelines/77/jobs")
    assert response.status == 404 and body(response) == {"message": "404 Pipeline Not Found"}
    response = call(svc, "GET", f"/projects/{PROJECT}/pipelines/x/jobs")
    assert response.status == 400 and body(response) == {"error": "pipeline_id is invalid"}
    created = create_pipeline(svc)
    response = call(
        svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/jobs?include_retried=maybe"
    )
    assert response.status == 400 and body(response) == {"error": "include_retried is invalid"}


def test_bridges_and_child_pipelines(svc: FakeService, ran: dict[str, Any]) -> None:
    response = call(svc, "GET", f"/projects/{PROJECT}/pipelines/{ran['id']}/bridges")
    assert response.status == 200
    (bridge,) = body(response)
    assert bridge["name"] == "child" and bridge["status"] == "success"
    for absent in ("artifacts", "runner", "tag_list", "artifacts_file"):
        assert absent not in bridge
    assert set(bridge["pipeline"]) == {
        "id",
        "project_id",
        "ref",
        "sha",
        "status",
        "created_at",
        "updated_at",
        "web_url",
    }
    downstream = bridge["downstream_pipeline"]
    assert set(downstream) == {"id", "sha", "ref", "status", "created_at", "updated_at", "web_url"}
    assert downstream["status"] == "success" and downstream["ref"] == "main"
    child = pipeline(svc, downstream["id"])
    assert child["source"] == "parent_pipeline"
    child_jobs = jobs_of(svc, downstream["id"])
    assert sorted(j["name"] for j in child_jobs) == ["build", "inner"]
    listed = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines"))
    assert [p["id"] for p in listed] == [ran["id"]]
    scoped = call(svc, "GET", f"/projects/{PROJECT}/pipelines/{ran['id']}/bridges?scope=failed")
    assert body(scoped) == []


def test_depending_bridge_follows_its_child(svc: FakeService) -> None:
    svc.runner.set_outcome("inner", {"status": "failed"}, project="acme/pipes")
    created = create_pipeline(svc)
    svc.runner.run_all(created["id"])
    bridge = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/bridges"))[0]
    assert bridge["status"] == "failed" and bridge["downstream_pipeline"]["status"] == "failed"
    assert pipeline(svc, created["id"])["status"] == "failed"


def test_job_token_endpoints() -> None:
    svc = new_service()
    created = create_pipeline(svc)
    build = job_named(svc, created["id"], "build")
    from fakeservice.ci.models import jobs

    token = jobs(svc.store).rows[build["id"]].token
    assert call(svc, "GET", "/job", None, headers={"JOB-TOKEN": token}).status == 401
    svc.runner.start(build["id"])
    for kw in (
        {"headers": {"JOB-TOKEN": token}},
        {"headers": {"Authorization": f"Bearer {token}"}},
        {"query": {"job_token": token}},
    ):
        response = call(svc, "GET", "/job", None, **kw)
        assert response.status == 200, kw
        assert body(response)["id"] == build["id"] and body(response)["status"] == "running"
    agents = body(call(svc, "GET", "/job/allowed_agents", None, headers={"JOB-TOKEN": token}))
    assert agents["allowed_agents"] == []
    assert agents["job"] == {
        "id": build["id"],
        "name": "build",
        "stage": "build",
        "project_id": created["project_id"],
        "project_name": "Pipes",
    }
    assert set(agents["pipeline"]) == {
        "id",
        "project_id",
        "sha",
        "ref",
        "status",
        "created_at",
        "updated_at",
        "web_url",
    }
    assert agents["project"]["path_with_namespace"] == "acme/pipes"
    assert agents["user"]["username"] == "root"
    personal = call(svc, "GET", "/job", ROOT)
    assert personal.status == 404 and body(personal) == {"message": "404 Job Not Found"}
    assert call(svc, "GET", "/job", None).status == 401
    assert call(svc, "GET", "/job", None, headers={"JOB-TOKEN": "nope"}).status == 401
    refused = call(svc, "GET", f"/projects/{PROJECT}/jobs", None, headers={"JOB-TOKEN": token})
    assert refused.status == 200  # public project: the job token is simply not read here
    svc.runner.finish(build["id"])
    assert call(svc, "GET", "/job", None, headers={"JOB-TOKEN": token}).status == 401
