"""Issue 12: ``artifacts: untracked: true`` archives the files of the job's work tree that
git does not track (the simulated runner's files), minus ``exclude``."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import gitlab
from support.calls import ROOT, call
from support.services import stamp

from fakeservice import FakeService

CI = """\
only-untracked:
  script: make
  artifacts:
    untracked: true
    exclude: ["*.tmp"]
with-paths:
  script: make
  artifacts:
    untracked: true
    paths: [dist/]
by-default:
  script: make
  artifacts:
    untracked: true
"""
SCENARIO: dict[str, Any] = {
    "users": [{"username": "root", "admin": True, "tokens": [{"token": ROOT}]}],
    "groups": [{"path": "acme", "visibility": "public"}],
    "projects": [{"path": "acme/app", "visibility": "public", "files": {".gitlab-ci.yml": CI}}],
}
PROJECT = "/projects/acme%2Fapp"


def run(svc: FakeService) -> dict[str, int]:
    created = call(svc, "POST", f"{PROJECT}/pipeline", json_body={"ref": "main"}).json()
    jobs = {
        j["name"]: j["id"]
        for j in call(svc, "GET", f"{PROJECT}/pipelines/{created['id']}/jobs").json()
    }
    produced = {"build/out.bin": "bin", "notes.tmp": "tmp", "dist/app.whl": "whl"}
    svc.runner.finish(jobs["only-untracked"], "success", artifacts=produced)
    svc.runner.finish(jobs["with-paths"], "success", artifacts=produced)
    svc.runner.finish(jobs["by-default"], "success")
    return jobs


def members(svc: FakeService, job_id: int) -> list[str]:
    archive = call(svc, "GET", f"{PROJECT}/jobs/{job_id}/artifacts")
    assert archive.status == 200
    return sorted(
        n for n in zipfile.ZipFile(io.BytesIO(archive.body)).namelist() if not n.endswith("/")
    )


def test_untracked_files_are_archived() -> None:
    svc = stamp(SCENARIO, "untracked")
    jobs = run(svc)
    assert members(svc, jobs["only-untracked"]) == ["build/out.bin", "dist/app.whl"]
    assert members(svc, jobs["with-paths"]) == ["build/out.bin", "dist/app.whl", "notes.tmp"]
    assert members(svc, jobs["by-default"]) == ["by-default.out"]


def test_python_gitlab_downloads_the_untracked_archive() -> None:
    svc = stamp(SCENARIO, "untracked")
    jobs = run(svc)
    gl = gitlab.Gitlab(svc.url, private_token=ROOT, session=svc.requests_session())
    job = gl.projects.get("acme/app").jobs.get(jobs["only-untracked"])
    data = job.artifacts()
    assert zipfile.ZipFile(io.BytesIO(data)).read("build/out.bin") == b"bin"
