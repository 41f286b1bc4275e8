"""Shared scenario, fixtures and helpers of the CI API, runner and client tests.

The scenario extends the built-in default one with two CI projects:

* ``acme/pipes`` (public): a three-stage CI file with artifacts, JUnit, coverage, a manual
  deploy and a child pipeline, a ``feature/x`` branch and a ``v1.0`` tag;
* ``acme/platform/api`` (internal) is left without a repository.

Every service made here is checked after the test (the ``no_server_errors`` fixture of
the area's conftest): no request may have answered 500. Services are stamped from one
template per process (restoring a snapshot is fast).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from support.calls import ROOT, body, call
from support.services import stamp

from fakeservice import FakeService
from fakeservice.web.http import Response

PROJECT = "acme%2Fpipes"
ALICE = "alice-token"  # owner of acme
BOB = "bob-read-token"  # reporter in acme, read_api
CAROL = "carol-token"  # external; developer in acme/platform/api only

CI_FILE = """\
stages: [build, test, deploy]
variables:
  GLOBAL: "yes"
build:
  stage: build
  script: [make]
  artifacts:
    paths: [dist/]
    exclude: [dist/*.tmp]
    reports:
      junit: reports/junit.xml
    expire_in: 1 week
test:
  stage: test
  script: [make test]
  coverage: '/Coverage: \\d+\\.\\d+%/'
lint:
  stage: test
  script: [make lint]
  allow_failure: true
deploy:
  stage: deploy
  script: [make deploy]
  when: manual
child:
  stage: deploy
  trigger:
    include: ci/child.yml
    strategy: depend
"""
CHILD_FILE = """\
inner:
  script: [echo inner]
  artifacts:
    paths: [dist/]
build:
  script: [echo child build]
  artifacts:
    paths: [dist/]
"""
JUNIT = (
    '<?xml version="1.0"?>\n'
    '<testsuites><testsuite name="unit">'
    '<testcase classname="app.Calc" name="adds" time="0.25"/>'
    '<testcase classname="app.Calc" name="divides" time="0.5">'
    '<failure message="ZeroDivisionError">boom</failure></testcase>'
    '<testcase classname="app.Calc" name="later" time="0"><skipped/></testcase>'
    "</testsuite></testsuites>\n"
)
BUILD_FILES = {
    "dist/app.bin": "BINARY",
    "dist/docs/index.html": "<h1>docs</h1>",
    "dist/scratch.tmp": "scratch",
    "reports/junit.xml": JUNIT,
    "outside.txt": "not collected",
}

SCENARIO: dict[str, Any] = {
    "extends": "default",
    "projects": [
        {
            "path": "acme/pipes",
            "name": "Pipes",
            "visibility": "public",
            "default_branch": "main",
            "files": {".gitlab-ci.yml": CI_FILE, "ci/child.yml": CHILD_FILE},
            "branches": [{"name": "feature/x", "from": "main"}],
            "tags": [{"name": "v1.0", "ref": "main"}],
            "members": [{"user": "dev003", "role": "developer"}],
            "ci": {
                "outcomes": {
                    "build": {"artifacts": BUILD_FILES, "log": ["compiled 3 files"]},
                    "test": {"log": ["Coverage: 87.50%"], "duration": 40},
                },
            },
        },
    ],
}


def new_service(scenario: Mapping[str, Any] | None = None, key: str = "ci") -> FakeService:
    """A tracked service in the scenario's state (built once per process per key)."""
    return stamp(dict(scenario or SCENARIO), key)


def create_pipeline(
    svc: FakeService, ref: str = "main", token: str = ROOT, **extra: Any
) -> dict[str, Any]:
    response = call(
        svc, "POST", f"/projects/{PROJECT}/pipeline", token, json_body={"ref": ref, **extra}
    )
    assert response.status == 201, response.body
    return body(response)


def jobs_of(svc: FakeService, pipeline_id: int, query: str = "") -> list[dict[str, Any]]:
    response = call(svc, "GET", f"/projects/{PROJECT}/pipelines/{pipeline_id}/jobs{query}")
    assert response.status == 200, response.body
    return body(response)


def job_named(svc: FakeService, pipeline_id: int, name: str) -> dict[str, Any]:
    return next(job for job in jobs_of(svc, pipeline_id) if job["name"] == name)


def pipeline(svc: FakeService, pipeline_id: int) -> dict[str, Any]:
    response = call(svc, "GET", f"/projects/{PROJECT}/pipelines/{pipeline_id}")
    assert response.status == 200, response.body
    return body(response)


def commit_file(svc: FakeService, path: str, content: str, branch: str = "main") -> None:
    """Create or update one file of ``acme/pipes`` through the repository files API."""
    from urllib.parse import quote

    url = f"/projects/{PROJECT}/repository/files/{quote(path, safe='')}"
    payload = {"branch": branch, "content": content, "commit_message": f"Change {path}"}
    exists = call(svc, "GET", url, query={"ref": branch}).status == 200
    response = call(svc, "PUT" if exists else "POST", url, json_body=payload)
    assert response.status in (200, 201), response.body


Caller = Callable[..., Response]
