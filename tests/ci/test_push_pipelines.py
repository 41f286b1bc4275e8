"""Pipelines on push (opt-in): git pushes over HTTP and commits through the files and
commits APIs create ``push`` pipelines when the project has a CI file at the new head.
Off by default; per project or for the service; scenario keys, control plane, replay
action; raw HTTP, python-gitlab and the git CLI over a live server."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any
from urllib.parse import quote

import gitlab
import pytest
from support.gitcli import git as _git

from fakeservice import FakeService
from fakeservice.repository.git import ZERO_SHA

from .ci_support import ALICE, PROJECT, SCENARIO, body, call, commit_file, jobs_of, new_service


def pipelines_of(svc: FakeService, project: str = PROJECT) -> list[dict[str, Any]]:
    """The project's pipelines, oldest first, each as ``GET .../pipelines/:id`` answers."""
    listed = call(svc, "GET", f"/projects/{project}/pipelines", query={"sort": "asc"})
    assert listed.status == 200, listed.body
    return [
        body(call(svc, "GET", f"/projects/{project}/pipelines/{item['id']}"))
        for item in body(listed)
    ]


def head(svc: FakeService, ref: str = "main", project: str = PROJECT) -> str:
    branch = call(svc, "GET", f"/projects/{project}/repository/branches/{quote(ref, safe='')}")
    return body(branch)["commit"]["id"]


def write_file(
    svc: FakeService,
    path: str,
    content: str,
    *,
    branch: str = "main",
    message: str = "Change a file",
    token: str = ALICE,
    project: str = PROJECT,
    **extra: Any,
) -> None:
    response = call(
        svc,
        "POST",
        f"/projects/{project}/repository/files/{quote(path, safe='')}",
        token,
        json_body={"branch": branch, "content": content, "commit_message": message, **extra},
    )
    assert response.status == 201, response.body


def pushing_service() -> FakeService:
    svc = new_service()
    svc.runner.set_pipelines_on_push(project="acme/pipes")
    return svc


def test_off_by_default(svc: FakeService) -> None:
    assert svc.runner.pipelines_on_push() is False
    assert svc.runner.pipelines_on_push("acme/pipes") is False
    write_file(svc, "notes.txt", "hello\n")
    assert body(call(svc, "GET", f"/projects/{PROJECT}/pipelines")) == []
    created = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"})
    assert body(created)["id"] == 1 and body(created)["iid"] == 1


def test_a_files_api_write_creates_a_push_pipeline() -> None:
    svc = pushing_service()
    before = head(svc)
    write_file(svc, "notes.txt", "hello\n")
    after = head(svc)
    (pipeline,) = pipelines_of(svc)
    assert {key: pipeline[key] for key in ("id", "iid", "source", "ref", "sha", "before_sha")} == {
        "id": 1,
        "iid": 1,
        "source": "push",
        "ref": "main",
        "sha": after,
        "before_sha": before,
    }
    assert (pipeline["tag"], pipeline["status"], pipeline["yaml_errors"]) == (
        False,
        "pending",
        None,
    )
    assert pipeline["user"]["username"] == "alice"
    assert [job["name"] for job in jobs_of(svc, pipeline["id"])] == [
        "deploy",
        "lint",
        "test",
        "build",
    ]
    builds = [job for job in jobs_of(svc, pipeline["id"]) if job["name"] == "build"]
    assert builds[0]["commit"]["id"] == after and builds[0]["user"]["username"] == "alice"


def test_a_new_branch_through_the_commits_api_has_a_blank_before_sha() -> None:
    svc = pushing_service()
    response = call(
        svc,
        "POST",
        f"/projects/{PROJECT}/repository/commits",
        ALICE,
        json_body={
            "branch": "feature/new",
            "start_branch": "main",
            "commit_message": "Start a feature",
            "actions": [{"action": "create", "file_path": "f.txt", "content": "f"}],
        },
    )
    assert response.status == 201, response.body
    (pipeline,) = pipelines_of(svc)
    assert (pipeline["ref"], pipeline["before_sha"]) == ("feature/new", ZERO_SHA)
    assert pipeline["sha"] == body(response)["id"]


def test_branches_and_tags_created_through_the_api_count_as_pushes() -> None:
    svc = pushing_service()
    main = head(svc)
    branch = call(
        svc,
        "POST",
        f"/projects/{PROJECT}/repository/branches",
        ALICE,
        json_body={"branch": "release/1", "ref": "main"},
    )
    assert branch.status == 201, branch.body
    tag = call(
        svc,
        "POST",
        f"/projects/{PROJECT}/repository/tags",
        ALICE,
        json_body={"tag_name": "v1.0.0", "ref": "main", "message": "Release"},
    )
    assert tag.status == 201, tag.body
    deleted = call(svc, "DELETE", f"/projects/{PROJECT}/repository/branches/release%2F1", ALICE)
    assert deleted.status == 204
    assert [
        (p["ref"], p["tag"], p["source"], p["sha"], p["before_sha"]) for p in pipelines_of(svc)
    ] == [
        ("release/1", False, "push", main, ZERO_SHA),
        ("v1.0.0", True, "push", main, ZERO_SHA),
    ]


def test_skip_ci_records_a_skipped_pipeline_without_jobs() -> None:
    svc = pushing_service()
    write_file(svc, "a.txt", "a", message="Docs only [skip ci]")
    write_file(svc, "b.txt", "b", message="[CI SKIP] more docs")
    first, second = pipelines_of(svc)
    assert (first["status"], second["status"]) == ("skipped", "skipped")
    assert first["source"] == "push" and first["finished_at"] is None
    assert jobs_of(svc, first["id"]) == []
    created = call(svc, "POST", f"/projects/{PROJECT}/pipeline", json_body={"ref": "main"})
    assert body(created)["status"] == "pending"  # the API ignores [skip ci]


def test_a_broken_ci_file_records_a_failed_pipeline_and_the_write_succeeds() -> None:
    svc = pushing_service()
    update = call(
        svc,
        "PUT",
        f"/projects/{PROJECT}/repository/files/.gitlab-ci.yml",
        ALICE,
        json_body={
            "branch": "main",
            "content": "build:\n  stage: nowhere\n",
            "commit_message": "Break",
        },
    )
    assert update.status == 200 and body(update) == {
        "file_path": ".gitlab-ci.yml",
        "branch": "main",
    }
    (pipeline,) = pipelines_of(svc)
    assert pipeline["status"] == "failed" and pipeline["source"] == "push"
    assert pipeline["yaml_errors"] == (
        "jobs build config should implement the script:, run:, or trigger: keyword, "
        "jobs config should contain at least one visible job"
    )
    assert jobs_of(svc, pipeline["id"]) == []


def test_no_pipeline_without_a_ci_file_or_without_jobs() -> None:
    svc = new_service()
    svc.runner.set_pipelines_on_push()
    write_file(svc, "README.md", "# API\n", project="acme%2Fplatform%2Fapi", token="root-token")
    assert body(call(svc, "GET", "/projects/acme%2Fplatform%2Fapi/pipelines")) == []
    commit_file(
        svc, ".gitlab-ci.yml", "workflow:\n  rules: [{when: never}]\nbuild:\n  script: [x]\n"
    )
    assert body(call(svc, "GET", f"/projects/{PROJECT}/pipelines")) == []


def test_instant_mode_finishes_push_pipelines_at_once() -> None:
    svc = new_service()
    svc.runner.set_mode("instant", project="acme/pipes", pipelines_on_push=True)
    write_file(svc, "notes.txt", "n")
    (pipeline,) = pipelines_of(svc)
    assert pipeline["status"] == "success"  # the manual deploy may fail, so it is ignored
    statuses = {job["name"]: job["status"] for job in jobs_of(svc, pipeline["id"])}
    assert statuses == {
        "build": "success",
        "test": "success",
        "lint": "success",
        "deploy": "manual",
    }


def test_a_project_setting_wins_over_the_service_one() -> None:
    svc = new_service()
    svc.runner.set_pipelines_on_push(True)
    svc.runner.set_pipelines_on_push(False, project="acme/pipes")
    assert svc.runner.pipelines_on_push() is True
    assert svc.runner.pipelines_on_push("acme/pipes") is False
    write_file(svc, "x.txt", "x")
    assert pipelines_of(svc) == []
    write_file(svc, "y.txt", "y", project="acme%2Fwebsite")
    assert [p["source"] for p in pipelines_of(svc, "acme%2Fwebsite")] == ["push"]


def test_control_plane_runner_endpoint() -> None:
    svc = new_service()
    answer = call(
        svc,
        "POST",
        "/_fake/ci/runner",
        None,
        json_body={"pipelines_on_push": True, "project": "acme/pipes"},
    )
    project_id = body(call(svc, "GET", f"/projects/{PROJECT}"))["id"]
    assert answer.status == 200
    assert body(answer) == {
        "mode": "manual",
        "pickup_seconds": 5.0,
        "pipelines_on_push": False,
        "projects": {
            str(project_id): {"mode": "manual", "pickup_seconds": 5.0, "pipelines_on_push": True}
        },
    }
    service_wide = call(
        svc, "POST", "/_fake/ci/runner", None, json_body={"pipelines_on_push": False}
    )
    assert body(service_wide)["pipelines_on_push"] is False
    assert body(call(svc, "GET", "/_fake/ci/runner", None)) == body(service_wide)
    for payload, message in (
        (
            {},
            "mode, pickup_seconds, pipelines_on_push are missing, "
            "at least one parameter must be provided",
        ),
        ({"pipelines_on_push": "maybe"}, "pipelines_on_push is invalid"),
    ):
        refused = call(svc, "POST", "/_fake/ci/runner", None, json_body=payload)
        assert refused.status == 400 and body(refused) == {"error": message}
    write_file(svc, "z.txt", "z")
    assert [p["source"] for p in pipelines_of(svc)] == ["push"]


def test_scenario_keys_and_the_replay_action() -> None:
    scenario = {
        **SCENARIO,
        "runner": {"pipelines_on_push": True},
        "projects": [
            {**SCENARIO["projects"][0], "ci": {"runner": {"pipelines_on_push": False}}},
            {
                "path": "acme/pushy",
                "visibility": "public",
                "files": {".gitlab-ci.yml": "one:\n  script: [x]\n"},
                "commits": [{"message": "More", "files": {"more.txt": "m"}}],
            },
        ],
    }
    svc = new_service(scenario, key="push-scenario")
    assert body(call(svc, "GET", "/projects/acme%2Fpushy/pipelines")) == []  # content, not pushes
    assert svc.runner.pipelines_on_push("acme/pushy") is True
    assert svc.runner.pipelines_on_push("acme/pipes") is False
    write_file(svc, "n.txt", "n", project="acme%2Fpushy", token="root-token")
    assert [p["status"] for p in pipelines_of(svc, "acme%2Fpushy")] == ["pending"]
    write_file(svc, "n.txt", "n")
    assert pipelines_of(svc) == []
    svc.sections.sections("action")["runner"].handler(
        svc, {"pipelines_on_push": True, "project": "acme/pipes"}, {}
    )
    write_file(svc, "m.txt", "m")
    assert len(pipelines_of(svc)) == 1


def test_same_pushes_same_bytes() -> None:
    def run() -> list[bytes]:
        svc = pushing_service()
        svc.runner.set_mode("timed")
        write_file(svc, "a.txt", "a")
        svc.clock.advance(seconds=20)
        write_file(svc, "b.txt", "b", branch="side", start_branch="main")
        svc.clock.advance(seconds=300)
        return [
            call(svc, "GET", f"/projects/{PROJECT}/pipelines").body,
            call(svc, "GET", f"/projects/{PROJECT}/jobs", query={"per_page": 100}).body,
            *(call(svc, "GET", f"/projects/{PROJECT}/pipelines/{p}").body for p in (1, 2)),
        ]

    assert run() == run()


def test_python_gitlab_file_create_then_pipelines() -> None:
    svc = pushing_service()
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ALICE)
        project = gl.projects.get("acme/pipes")
        project.files.create(
            {"file_path": "docs/a.md", "branch": "main", "content": "a", "commit_message": "Docs"}
        )
        (pipeline,) = project.pipelines.list(get_all=True)
        assert (pipeline.source, pipeline.ref, pipeline.status) == ("push", "main", "pending")
        detail = project.pipelines.get(pipeline.id)
        assert detail.user["username"] == "alice" and detail.before_sha != ZERO_SHA
    assert svc.server_errors == []


# -- git push over HTTP ------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("git") is None, reason="needs the git CLI")
def test_a_git_push_of_branches_and_a_tag(tmp_path: Path) -> None:
    svc = pushing_service()
    old_main = head(svc)
    with svc.serve() as url:
        scheme, _, rest = url.partition("://")
        remote = f"{scheme}://alice:{ALICE}@{rest}/acme/pipes.git"
        work = tmp_path / "work"
        _git(tmp_path, "clone", "-q", remote, str(work))
        (work / "pushed.txt").write_text("pushed\n")
        _git(tmp_path, "add", "pushed.txt", cwd=work)
        _git(tmp_path, "commit", "-q", "-m", "Pushed over git", cwd=work)
        new_main = _git(tmp_path, "rev-parse", "HEAD", cwd=work)
        _git(tmp_path, "tag", "-a", "v2.0", "-m", "Release 2.0", cwd=work)
        _git(tmp_path, "push", "-q", "origin", "main", "main:topic", "v2.0", cwd=work)
        _git(tmp_path, "push", "-q", "origin", "--delete", "topic", cwd=work)
    main, topic, tag = pipelines_of(svc)  # in the order of the ref names; none on delete
    assert [(p["ref"], p["tag"], p["sha"]) for p in (main, topic, tag)] == [
        ("main", False, new_main),
        ("topic", False, new_main),
        ("v2.0", True, new_main),
    ]
    assert (main["before_sha"], topic["before_sha"], tag["before_sha"]) == (
        old_main,
        ZERO_SHA,
        ZERO_SHA,
    )
    assert {p["user"]["username"] for p in (topic, main, tag)} == {"alice"}
    assert {p["source"] for p in (topic, main, tag)} == {"push"}
    assert svc.server_errors == []
