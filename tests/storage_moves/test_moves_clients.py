"""Storage moves through python-gitlab (it has no manager for them: its raw ``http_*``
calls, as its users do) and the real git CLI: a push is refused while the repository
moves and accepted after."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import gitlab
import pytest
from support.calls import ROOT, call

from fakeservice import FakeService

from .conftest import READ_ONLY


def test_python_gitlab_schedules_and_polls(svc: FakeService) -> None:
    call(svc, "POST", "/_fake/background", None, json_body={"mode": "timed", "step_seconds": 30})
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ROOT)
        project = gl.projects.get("acme/website")
        move = gl.http_post(
            f"/projects/{project.id}/repository_storage_moves",
            post_data={"destination_storage_name": "storage2"},
        )
        assert isinstance(move, dict)
        assert move["state"] == "scheduled"
        with pytest.raises(gitlab.GitlabCreateError) as refused:
            project.files.create(
                {"file_path": "x.md", "branch": "main", "content": "x", "commit_message": "x"}
            )
        assert refused.value.response_code == 400
        assert refused.value.error_message == READ_ONLY
        seen = []
        while not seen or seen[-1] != "finished":
            svc.advance_clock(seconds=30)
            seen.append(gl.http_get(f"/project_repository_storage_moves/{move['id']}")["state"])
        assert seen == ["started", "replicated", "finished"]
        assert gl.projects.get(project.id).repository_storage == "storage2"
        listed = gl.http_list("/project_repository_storage_moves", get_all=True)
        assert [m["id"] for m in listed] == [move["id"]]
        accepted = gl.http_post(
            "/project_repository_storage_moves", post_data={"source_storage_name": "storage2"}
        )
        assert accepted == {"message": "202 Accepted"}


@pytest.mark.skipif(shutil.which("git") is None, reason="git CLI not installed")
def test_git_push_is_refused_while_moving(svc: FakeService, tmp_path: Path) -> None:
    call(svc, "POST", "/_fake/background", None, json_body={"mode": "manual"})
    env = {"GIT_TERMINAL_PROMPT": "0", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}

    def git(*args: str, cwd: Path = tmp_path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
        )

    with svc.serve() as url:
        remote = url.replace("://", "://root:root-token@") + "/acme/website.git"
        assert git("clone", remote, "work").returncode == 0
        work = tmp_path / "work"
        (work / "new.txt").write_text("new\n")
        git("add", "new.txt", cwd=work)
        git("-c", "user.name=R", "-c", "user.email=r@x", "commit", "-m", "new", cwd=work)
        call(svc, "POST", "/projects/1/repository_storage_moves")
        refused = git("push", "origin", "main", cwd=work)
        assert refused.returncode != 0
        assert READ_ONLY in refused.stderr
        call(svc, "POST", "/_fake/storage_moves/1/fire", None, json_body={"event": "start"})
        call(
            svc,
            "POST",
            "/_fake/storage_moves/1/fire",
            None,
            json_body={"event": "finish_replication"},
        )
        pushed = git("push", "origin", "main", cwd=work)
        assert pushed.returncode == 0, pushed.stderr
