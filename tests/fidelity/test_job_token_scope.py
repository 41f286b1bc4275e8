"""Issue 12, item 3: the CI/CD job token scope: settings, project and group allowlists
(Maintainer; paginated), the scenario key, and its effect: a job token of another project
reaches this project's artifacts only when allowlisted."""

from __future__ import annotations

from typing import Any

import gitlab
from support.calls import ROOT, call
from support.services import stamp

from fakeservice import FakeService
from fakeservice.scenarios.check import check

CI = "build:\n  script: make\n  artifacts:\n    paths: [out.txt]\n"
SCENARIO: dict[str, Any] = {
    "users": [
        {"username": "root", "admin": True, "tokens": [{"token": ROOT}]},
        {"username": "dev", "tokens": [{"token": "dev-token"}]},
    ],
    "groups": [
        {"path": "acme", "visibility": "public", "members": [{"user": "dev", "role": "developer"}]},
        {"path": "other", "visibility": "public"},
    ],
    "projects": [
        {"path": "acme/lib", "visibility": "public", "files": {".gitlab-ci.yml": CI}},
        {"path": "acme/app", "visibility": "public", "files": {".gitlab-ci.yml": CI}},
        {
            "path": "other/tool",
            "visibility": "public",
            "files": {".gitlab-ci.yml": CI},
            "job_token_scope": {"allowlist": ["acme/app"]},
        },
    ],
}
LIB, APP, TOOL = "/projects/acme%2Flib", "/projects/acme%2Fapp", "/projects/other%2Ftool"


def service() -> FakeService:
    return stamp(SCENARIO, "job-token-scope")


def built(svc: FakeService, project: str) -> int:
    created = call(svc, "POST", f"{project}/pipeline", json_body={"ref": "main"}).json()
    job = call(svc, "GET", f"{project}/pipelines/{created['id']}/jobs").json()[0]["id"]
    svc.runner.finish(job, "success")
    return job


def running_token(svc: FakeService, project: str) -> str:
    created = call(svc, "POST", f"{project}/pipeline", json_body={"ref": "main"}).json()
    job = call(svc, "GET", f"{project}/pipelines/{created['id']}/jobs").json()[0]["id"]
    svc.runner.start(job)
    return svc.runner.job_token(job)


def download(svc: FakeService, project: str, job: int, token: str) -> int:
    return call(
        svc, "GET", f"{project}/jobs/{job}/artifacts", None, headers={"JOB-TOKEN": token}
    ).status


def test_settings_and_allowlists_round_trip() -> None:
    svc = service()
    assert call(svc, "GET", f"{LIB}/job_token_scope").json() == {
        "inbound_enabled": True,
        "outbound_enabled": False,
    }
    assert call(svc, "PATCH", f"{LIB}/job_token_scope", json_body={"enabled": False}).status == 204
    assert call(svc, "GET", f"{LIB}/job_token_scope").json()["inbound_enabled"] is False
    app_id = call(svc, "GET", APP).json()["id"]
    added = call(
        svc, "POST", f"{LIB}/job_token_scope/allowlist", json_body={"target_project_id": app_id}
    )
    assert (added.status, added.json()["target_project_id"]) == (201, app_id)
    again = call(
        svc, "POST", f"{LIB}/job_token_scope/allowlist", json_body={"target_project_id": app_id}
    )
    assert again.json() == {
        "message": "400 Bad request - Target project is already in the job token scope"
    }
    listed = call(svc, "GET", f"{LIB}/job_token_scope/allowlist")
    assert [p["path_with_namespace"] for p in listed.json()] == ["acme/lib", "acme/app"]
    assert listed.header("X-Total") == "2"
    group_id = call(svc, "GET", "/groups/other").json()["id"]
    call(
        svc,
        "POST",
        f"{LIB}/job_token_scope/groups_allowlist",
        json_body={"target_group_id": group_id},
    )
    assert [
        g["full_path"] for g in call(svc, "GET", f"{LIB}/job_token_scope/groups_allowlist").json()
    ] == ["other"]
    assert call(svc, "DELETE", f"{LIB}/job_token_scope/groups_allowlist/{group_id}").status == 204
    assert call(svc, "DELETE", f"{LIB}/job_token_scope/allowlist/{app_id}").status == 204
    assert call(svc, "DELETE", f"{LIB}/job_token_scope/allowlist/{app_id}").status == 404
    assert call(svc, "GET", f"{LIB}/job_token_scope", "dev-token").status == 403
    assert (
        call(
            svc, "POST", f"{LIB}/job_token_scope/allowlist", json_body={"target_project_id": 999}
        ).status
        == 404
    )


def test_job_tokens_of_other_projects_need_the_allowlist() -> None:
    svc = service()
    lib_job, tool_job = built(svc, LIB), built(svc, TOOL)
    app_token = running_token(svc, APP)
    assert download(svc, LIB, lib_job, app_token) == 403  # inbound limit, not allowlisted
    assert download(svc, TOOL, tool_job, app_token) == 200  # allowlisted by the scenario
    app_id = call(svc, "GET", APP).json()["id"]
    call(svc, "POST", f"{LIB}/job_token_scope/allowlist", json_body={"target_project_id": app_id})
    assert download(svc, LIB, lib_job, app_token) == 200
    lib_token = running_token(svc, LIB)
    assert download(svc, LIB, lib_job, lib_token) == 200  # its own project
    assert download(svc, TOOL, tool_job, lib_token) == 403
    acme = call(svc, "GET", "/groups/acme").json()["id"]
    call(
        svc, "POST", f"{TOOL}/job_token_scope/groups_allowlist", json_body={"target_group_id": acme}
    )
    assert download(svc, TOOL, tool_job, lib_token) == 200
    call(svc, "PATCH", f"{APP}/job_token_scope", json_body={"enabled": False})
    assert download(svc, APP, built(svc, APP), lib_token) == 200


def test_python_gitlab_job_token_scope() -> None:
    svc = service()
    gl = gitlab.Gitlab(svc.url, private_token=ROOT, session=svc.requests_session())
    project = gl.projects.get("acme/lib")
    scope = project.job_token_scope.get()
    assert scope.inbound_enabled is True
    scope.enabled = False
    scope.save()
    assert project.job_token_scope.get().inbound_enabled is False
    allowlist = project.job_token_scope.get().allowlist
    allowlist.create({"target_project_id": gl.projects.get("acme/app").id})
    assert [p.path for p in allowlist.list(get_all=True)] == ["lib", "app"]


def test_the_scenario_key_is_checked() -> None:
    problems = check(
        {
            "groups": [{"path": "x"}],
            "projects": [{"path": "x/y", "job_token_scope": {"allowlist": ["no/such"]}}],
        }
    )
    assert problems and "no project 'no/such'" in problems[0].message
