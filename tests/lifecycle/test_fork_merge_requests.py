"""Merge requests from a fork into its upstream: they live in the upstream with
``source_project_id`` the fork; diffs, mergeability and the merge read the fork's branch
(fetched into the upstream as ``refs/merge-requests/<iid>/head``); pushes to the fork's
branch refresh them; a target outside the fork network is refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import gitlab
import pytest
from repository.test_git_http import Git, remote
from support.calls import call_as

from fakeservice import FakeService

APP = "/projects/studio%2Fapp"


def _commit(
    svc: FakeService, project: int, branch: str, path: str, content: str, **extra: str
) -> str:
    body = {
        "branch": branch,
        "commit_message": f"add {path}",
        "actions": [{"action": "create", "file_path": path, "content": content}],
        **extra,
    }
    found = call_as(svc, "POST", f"/projects/{project}/repository/commits", "frank", body)
    assert found.status == 201, found.json()
    return found.json()["id"]


@pytest.fixture
def fork(svc: FakeService) -> dict:
    svc.runner.set_mode("instant")
    made = call_as(svc, "POST", f"{APP}/fork", "frank", {})
    assert made.status == 201
    return made.json()


def _open(svc: FakeService, fork: dict, **extra: object) -> dict:
    body = {
        "source_branch": "feature",
        "target_branch": "main",
        "title": "From my fork",
        "target_project_id": fork["forked_from_project"]["id"],
        **extra,
    }
    found = call_as(svc, "POST", f"/projects/{fork['id']}/merge_requests", "frank", body)
    assert found.status == 201, found.json()
    return found.json()


def test_the_merge_request_lives_in_the_upstream(svc: FakeService, fork: dict) -> None:
    head = _commit(svc, fork["id"], "feature", "fork.py", "print('fork')\n", start_branch="main")
    mr = _open(svc, fork)
    upstream = fork["forked_from_project"]["id"]
    assert (mr["project_id"], mr["target_project_id"], mr["source_project_id"]) == (
        upstream,
        upstream,
        fork["id"],
    )
    assert mr["sha"] == head
    assert mr["merge_status"] == "can_be_merged"
    assert mr["diff_refs"]["head_sha"] == head
    changes = call_as(
        svc, "GET", f"/projects/{upstream}/merge_requests/{mr['iid']}/changes", "frank"
    ).json()
    assert [c["new_path"] for c in changes["changes"]] == ["fork.py"]
    commits = call_as(
        svc, "GET", f"/projects/{upstream}/merge_requests/{mr['iid']}/commits", "frank"
    ).json()
    assert [c["id"] for c in commits] == [head]
    assert call_as(svc, "GET", f"/projects/{fork['id']}/merge_requests", "frank").json() == []
    listed = call_as(svc, "GET", f"/projects/{upstream}/merge_requests", "frank").json()
    assert [m["iid"] for m in listed] == [mr["iid"]]


def test_a_push_to_the_fork_refreshes_and_the_merge_brings_the_commits(
    svc: FakeService, fork: dict
) -> None:
    _commit(svc, fork["id"], "feature", "one.txt", "1\n", start_branch="main")
    mr = _open(svc, fork)
    upstream = fork["forked_from_project"]["id"]
    second = _commit(svc, fork["id"], "feature", "two.txt", "2\n")
    single = f"/projects/{upstream}/merge_requests/{mr['iid']}"
    now = call_as(svc, "GET", single, "frank").json()
    assert (now["sha"], now["changes_count"]) == (second, "2")
    merged = call_as(svc, "PUT", f"{single}/merge", "root", {"should_remove_source_branch": False})
    assert merged.status == 200, merged.json()
    assert merged.json()["state"] == "merged"
    main = call_as(svc, "GET", f"{APP}/repository/commits", "frank", ref_name="main").json()
    assert main[0]["parent_ids"][1] == second
    assert (
        call_as(svc, "GET", f"{APP}/repository/files/two.txt/raw", "frank", ref="main").body
        == b"2\n"
    )
    assert (
        call_as(svc, "GET", f"/projects/{fork['id']}/repository/branches/feature", "frank").status
        == 200
    )


def test_merging_removes_the_fork_branch_not_an_upstream_one(svc: FakeService, fork: dict) -> None:
    call_as(svc, "POST", f"{APP}/repository/branches", "root", branch="feature", ref="main")
    _commit(svc, fork["id"], "feature", "one.txt", "1\n", start_branch="main")
    mr = _open(svc, fork, remove_source_branch=True)
    upstream = fork["forked_from_project"]["id"]
    merged = call_as(svc, "PUT", f"/projects/{upstream}/merge_requests/{mr['iid']}/merge", "root")
    assert merged.status == 200
    assert (
        call_as(svc, "GET", f"/projects/{fork['id']}/repository/branches/feature", "frank").status
        == 404
    )
    assert call_as(svc, "GET", f"{APP}/repository/branches/feature", "frank").status == 200


def test_conflicts_with_the_upstream_are_found(svc: FakeService, fork: dict) -> None:
    _commit(svc, fork["id"], "feature", "same.txt", "fork\n", start_branch="main")
    call_as(
        svc,
        "POST",
        f"{APP}/repository/files/same.txt",
        "root",
        {"branch": "main", "content": "upstream\n", "commit_message": "clash"},
    )
    mr = _open(svc, fork)
    assert mr["merge_status"] == "cannot_be_merged"
    assert mr["has_conflicts"] is True


def test_rebase_writes_the_fork_branch(svc: FakeService, fork: dict) -> None:
    _commit(svc, fork["id"], "feature", "mine.txt", "m\n", start_branch="main")
    mr = _open(svc, fork)
    upstream = fork["forked_from_project"]["id"]
    call_as(
        svc,
        "POST",
        f"{APP}/repository/files/theirs.txt",
        "root",
        {"branch": "main", "content": "t\n", "commit_message": "up"},
    )
    single = f"/projects/{upstream}/merge_requests/{mr['iid']}"
    assert call_as(svc, "PUT", f"{single}/rebase", "frank").status == 202
    target = call_as(svc, "GET", f"{APP}/repository/branches/main", "frank").json()["commit"]["id"]
    head = call_as(
        svc, "GET", f"/projects/{fork['id']}/repository/branches/feature", "frank"
    ).json()["commit"]
    assert head["parent_ids"] == [target]
    assert call_as(svc, "GET", single, "frank").json()["sha"] == head["id"]


def test_only_toward_the_fork_network(svc: FakeService, fork: dict) -> None:
    _commit(svc, fork["id"], "feature", "x.txt", "x\n", start_branch="main")
    other = call_as(svc, "GET", "/projects/acme%2Fwebsite", "frank").json()["id"]
    body = {
        "source_branch": "feature",
        "target_branch": "main",
        "title": "t",
        "target_project_id": other,
    }
    refused = call_as(svc, "POST", f"/projects/{fork['id']}/merge_requests", "frank", body)
    assert (refused.status, refused.json()) == (
        400,
        {"message": ["Source project is not a fork of the target project"]},
    )
    missing = {
        **body,
        "target_project_id": fork["forked_from_project"]["id"],
        "source_branch": "nope",
    }
    bad = call_as(svc, "POST", f"/projects/{fork['id']}/merge_requests", "frank", missing)
    assert (bad.status, bad.json()) == (400, {"message": ['Source branch "nope" does not exist']})
    assert call_as(svc, "GET", f"{APP}/merge_requests", "root").json() == []
    _open(svc, fork)
    again = call_as(
        svc,
        "POST",
        f"/projects/{fork['id']}/merge_requests",
        "frank",
        {**body, "target_project_id": fork["forked_from_project"]["id"]},
    )
    assert again.status == 409


def test_python_gitlab_fork_merge_request(svc: FakeService, fork: dict) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="frank-token", session=svc.requests_session())
    mine = gl.projects.get(fork["id"])
    upstream = gl.projects.get("studio/app")
    mine.branches.create({"branch": "feature", "ref": "main"})
    mine.files.create(
        {"file_path": "gl.txt", "branch": "feature", "content": "gl\n", "commit_message": "gl"}
    )
    mr = mine.mergerequests.create(
        {
            "source_branch": "feature",
            "target_branch": "main",
            "title": "gl",
            "target_project_id": upstream.id,
        }
    )
    assert (mr.project_id, mr.source_project_id) == (upstream.id, mine.id)
    fetched = upstream.mergerequests.get(mr.iid)
    assert [c["new_path"] for c in fetched.changes()["changes"]] == ["gl.txt"]
    root = gitlab.Gitlab(svc.url, private_token="root-token", session=svc.requests_session())
    root.projects.get(upstream.id).mergerequests.get(mr.iid).merge()
    assert upstream.files.raw("gl.txt", ref="main") == b"gl\n"


@pytest.mark.skipif(shutil.which("git") is None, reason="git CLI not installed")
def test_a_git_push_to_the_fork_refreshes_the_merge_request(
    fork: dict, svc: FakeService, tmp_path: Path
) -> None:
    _commit(svc, fork["id"], "feature", "one.txt", "1\n", start_branch="main")
    mr = _open(svc, fork)
    git = Git(tmp_path)
    with svc.serve() as url:
        git.ok("clone", "-q", "-b", "feature", remote(url, "frank/app.git", "frank-token"), "app")
        pushed = git.commit_file(tmp_path / "app", "pushed.txt", "p\n", "pushed")
        git.ok("push", "-q", "origin", "feature", cwd=tmp_path / "app")
        cloned = git.ok(
            "ls-remote", remote(url, "studio/app.git"), f"refs/merge-requests/{mr['iid']}/head"
        )
    upstream = fork["forked_from_project"]["id"]
    assert (
        call_as(svc, "GET", f"/projects/{upstream}/merge_requests/{mr['iid']}", "frank").json()[
            "sha"
        ]
        == pushed
    )
    assert cloned.split()[0] == pushed


def test_a_merge_request_pipeline_runs_in_the_fork(svc: FakeService, fork: dict) -> None:
    ci = "test:\n  script: echo fork\n  rules:\n    - if: $CI_PIPELINE_SOURCE\n"
    head = _commit(svc, fork["id"], "feature", ".gitlab-ci.yml", ci, start_branch="main")
    mr = _open(svc, fork)
    upstream = fork["forked_from_project"]["id"]
    base = f"/projects/{upstream}/merge_requests/{mr['iid']}"
    made = call_as(svc, "POST", f"{base}/pipelines", "frank", {})
    assert made.status == 201, made.json()
    pipeline = made.json()
    assert (pipeline["project_id"], pipeline["sha"], pipeline["ref"], pipeline["source"]) == (
        fork["id"],
        head,
        "feature",
        "merge_request_event",
    )
    listed = call_as(svc, "GET", f"{base}/pipelines", "frank").json()
    assert [p["id"] for p in listed] == [pipeline["id"]]
    assert call_as(svc, "GET", base, "frank").json()["head_pipeline"]["id"] == pipeline["id"]
    in_fork = call_as(svc, "GET", f"/projects/{fork['id']}/pipelines", "frank").json()
    assert [p["id"] for p in in_fork] == [pipeline["id"]]
