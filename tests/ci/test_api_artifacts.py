"""Job artifacts over raw HTTP (seed 000 §4.3): the real zip, downloads by job and by ref,
single files with raw or encoded paths, traversal, keep, delete, expiry, and the
parent-before-child lookup."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest

from fakeservice import FakeService
from fakeservice.ci.artifacts.archive import read_metadata

from .ci_support import (
    ALICE,
    PROJECT,
    body,
    call,
    create_pipeline,
    job_named,
    jobs_of,
)


@pytest.fixture
def ran(svc: FakeService) -> dict[str, Any]:
    created = create_pipeline(svc)
    svc.runner.run_all(created["id"])
    return job_named(svc, created["id"], "build")


def test_archive_is_a_real_zip_of_the_matched_paths(svc: FakeService, ran: dict[str, Any]) -> None:
    response = call(svc, "GET", f"/projects/{PROJECT}/jobs/{ran['id']}/artifacts")
    assert response.status == 200
    assert response.header("Content-Type") == "application/zip"
    assert response.header("Content-Disposition") == (
        "attachment; filename=\"artifacts.zip\"; filename*=UTF-8''artifacts.zip"
    )
    archive = zipfile.ZipFile(io.BytesIO(response.body))
    assert archive.namelist() == ["dist/", "dist/app.bin", "dist/docs/", "dist/docs/index.html"]
    assert archive.read("dist/app.bin") == b"BINARY"
    assert len(response.body) == ran["artifacts_file"]["size"]
    from fakeservice.ci.models import jobs

    record = jobs(svc.store).rows[ran["id"]]
    assert record.metadata is not None
    paths = [path for path, _ in read_metadata(record.metadata)]
    assert paths == ["dist/", "dist/app.bin", "dist/docs/", "dist/docs/index.html"]


def test_archives_are_deterministic(svc: FakeService, ran: dict[str, Any]) -> None:
    from .ci_support import new_service

    other = new_service()
    created = create_pipeline(other)
    other.runner.run_all(created["id"])
    first = call(svc, "GET", f"/projects/{PROJECT}/jobs/{ran['id']}/artifacts").body
    second = call(other, "GET", f"/projects/{PROJECT}/jobs/{ran['id']}/artifacts").body
    assert first == second


def test_no_archive_is_a_404(svc: FakeService, ran: dict[str, Any]) -> None:
    test = job_named(svc, ran["pipeline"]["id"], "test")
    for path in ("artifacts", "artifacts/dist/app.bin"):
        response = call(svc, "GET", f"/projects/{PROJECT}/jobs/{test['id']}/{path}")
        assert response.status == 404 and body(response) == {"message": "404 Not found"}
    assert "artifacts_file" not in test
    assert call(svc, "GET", f"/projects/{PROJECT}/jobs/999/artifacts").status == 404


@pytest.mark.parametrize(
    "path", ["dist/docs/index.html", "dist%2Fdocs%2Findex.html", "dist/docs%2Findex.html"]
)
def test_single_file_by_job_raw_or_encoded(
    svc: FakeService, ran: dict[str, Any], path: str
) -> None:
    response = call(svc, "GET", f"/projects/{PROJECT}/jobs/{ran['id']}/artifacts/{path}")
    assert response.status == 200 and response.body == b"<h1>docs</h1>"
    assert response.header("Content-Type") == "text/html"
    assert response.header(
        "Content-Disposition",
    ).startswith('attachment; filename="index.html"')


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("dist/missing.txt", 404),
        ("dist/scratch.tmp", 404),
        ("outside.txt", 404),
        ("dist", 404),
        ("..%2F..%2Fetc%2Fpasswd", 400),
        ("dist%2F..%2F..%2Fsecret", 400),
        ("%2Fetc%2Fpasswd", 400),
    ],
)
def test_single_file_errors(svc: FakeService, ran: dict[str, Any], path: str, status: int) -> None:
    response = call(svc, "GET", f"/projects/{PROJECT}/jobs/{ran['id']}/artifacts/{path}")
    assert response.status == status
    expected = {"message": "400 Bad request"} if status == 400 else {"message": "404 Not found"}
    assert body(response) == expected


@pytest.mark.parametrize("ref", ["main", "feature/x", "feature%2Fx"])
def test_download_by_ref(svc: FakeService, ref: str) -> None:
    real = ref.replace("%2F", "/")
    created = create_pipeline(svc, ref=real)
    svc.runner.run_all(created["id"])
    response = call(
        svc, "GET", f"/projects/{PROJECT}/jobs/artifacts/{ref}/download", query={"job": "build"}
    )
    assert response.status == 200 and response.header("Content-Type") == "application/zip"
    assert "dist/app.bin" in zipfile.ZipFile(io.BytesIO(response.body)).namelist()
    single = call(
        svc,
        "GET",
        f"/projects/{PROJECT}/jobs/artifacts/{ref}/raw/dist/app.bin",
        query={"job": "build"},
    )
    assert single.status == 200 and single.body == b"BINARY"
    assert single.header("Content-Type") == "application/octet-stream"


def test_by_ref_uses_the_latest_successful_pipeline(svc: FakeService) -> None:
    first = create_pipeline(svc)
    svc.runner.run_all(first["id"])
    old_build = job_named(svc, first["id"], "build")
    second = create_pipeline(svc)
    build = job_named(svc, second["id"], "build")
    svc.runner.finish(build["id"], artifacts={"dist/app.bin": "NEWER"})
    path = f"/projects/{PROJECT}/jobs/artifacts/main/raw/dist/app.bin"
    assert call(svc, "GET", path, query={"job": "build"}).body == b"BINARY"
    svc.runner.run_all(second["id"])
    assert call(svc, "GET", path, query={"job": "build"}).body == b"NEWER"
    assert old_build["id"] != build["id"]


def test_by_ref_prefers_the_parent_over_the_child(svc: FakeService) -> None:
    created = create_pipeline(svc)
    svc.runner.set_outcome("build", {"artifacts": {"dist/app.bin": "CHILD"}}, project="acme/pipes")
    for name in ("build",):
        job = job_named(svc, created["id"], name)
        svc.runner.finish(job["id"], artifacts={"dist/app.bin": "PARENT"})
    svc.runner.run_all(created["id"])
    bridge = body(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{created['id']}/bridges"))[0]
    child_build = next(
        j for j in jobs_of(svc, bridge["downstream_pipeline"]["id"]) if j["name"] == "build"
    )
    child_file = call(
        svc, "GET", f"/projects/{PROJECT}/jobs/{child_build['id']}/artifacts/dist/app.bin"
    )
    assert child_file.body == b"CHILD"
    path = f"/projects/{PROJECT}/jobs/artifacts/main/raw/dist/app.bin"
    assert call(svc, "GET", path, query={"job": "build"}).body == b"PARENT"
    inner = call(svc, "GET", path, query={"job": "inner"})
    assert inner.status == 404  # the child's inner job produced no dist/ files


def test_by_ref_errors(svc: FakeService, ran: dict[str, Any]) -> None:
    base = f"/projects/{PROJECT}/jobs/artifacts"
    missing = call(svc, "GET", f"{base}/main/download")
    assert missing.status == 400 and body(missing) == {"error": "job is missing"}
    for path, query in (
        (f"{base}/main/download", {"job": "nope"}),
        (f"{base}/nope/download", {"job": "build"}),
        (f"{base}/v1.0/download", {"job": "build"}),
        (f"{base}/main/raw/dist/nope", {"job": "build"}),
    ):
        response = call(svc, "GET", path, query=query)
        assert response.status == 404 and body(response) == {"message": "404 Not found"}, path
    bad = call(svc, "GET", f"{base}/main/raw/..%2Fx", query={"job": "build"})
    assert bad.status == 400


def test_keep_and_expiry(svc: FakeService, ran: dict[str, Any]) -> None:
    assert ran["artifacts_expire_at"] == "2026-01-08T09:00:00Z"
    svc.clock.advance(days=7)
    path = f"/projects/{PROJECT}/jobs/{ran['id']}"
    expired = body(call(svc, "GET", path))
    assert "artifacts_file" not in expired
    assert [a["file_type"] for a in expired["artifacts"]] == ["trace"]
    assert expired["artifacts_expire_at"] == "2026-01-08T09:00:00Z"
    assert call(svc, "GET", f"{path}/artifacts").status == 404
    report = body(
        call(svc, "GET", f"/projects/{PROJECT}/pipelines/{ran['pipeline']['id']}/test_report")
    )
    assert report["total_count"] == 0


def test_keep_prevents_expiry(svc: FakeService, ran: dict[str, Any]) -> None:
    path = f"/projects/{PROJECT}/jobs/{ran['id']}"
    response = call(svc, "POST", f"{path}/artifacts/keep", ALICE)
    assert response.status == 201
    kept = body(response)
    assert kept["artifacts_expire_at"] is None
    assert (
        kept["download_url"]
        == f"http://fakeservice.test/acme/pipes/-/jobs/{ran['id']}/artifacts/download"
    )
    svc.clock.advance(days=60)
    assert call(svc, "GET", f"{path}/artifacts").status == 200
    assert call(svc, "POST", f"{path}/artifacts/keep", None).status == 401


def test_delete_needs_maintainer(svc: FakeService, ran: dict[str, Any]) -> None:
    path = f"/projects/{PROJECT}/jobs/{ran['id']}/artifacts"
    developer = svc.request("DELETE", path, token="root-token", headers={"Sudo": "dev003"})
    assert developer.status == 403 and body(developer) == {"message": "403 Forbidden"}
    response = call(svc, "DELETE", path, ALICE)
    assert response.status == 204 and response.body == b""
    assert call(svc, "GET", path).status == 404
    job = body(call(svc, "GET", f"/projects/{PROJECT}/jobs/{ran['id']}"))
    assert [a["file_type"] for a in job["artifacts"]] == ["trace"]
    assert call(svc, "GET", f"/projects/{PROJECT}/jobs/{ran['id']}/trace").status == 200


def test_job_token_downloads(svc: FakeService, ran: dict[str, Any]) -> None:
    from fakeservice.projects.models import find_project

    find_project(svc.store, "acme/pipes").visibility = "private"
    anonymous = call(svc, "GET", f"/projects/{PROJECT}/jobs/{ran['id']}/artifacts", None)
    assert anonymous.status == 404
    created = create_pipeline(svc)
    runner_job = job_named(svc, created["id"], "build")
    svc.runner.start(runner_job["id"])
    token = svc.runner.job_token(runner_job["id"])
    for kw in ({"headers": {"JOB-TOKEN": token}}, {"query": {"job_token": token}}):
        response = call(svc, "GET", f"/projects/{PROJECT}/jobs/{ran['id']}/artifacts", None, **kw)
        assert response.status == 200, kw
        by_ref = call(
            svc,
            "GET",
            f"/projects/{PROJECT}/jobs/artifacts/main/raw/dist/app.bin",
            None,
            query={"job": "build", **kw.get("query", {})},
            headers=kw.get("headers"),
        )
        assert by_ref.status == 200 and by_ref.body == b"BINARY"
    svc.runner.finish(runner_job["id"])
    after = call(
        svc,
        "GET",
        f"/projects/{PROJECT}/jobs/{ran['id']}/artifacts",
        None,
        headers={"JOB-TOKEN": token},
    )
    assert after.status == 401
