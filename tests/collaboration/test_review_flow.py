"""The review flow through python-gitlab over a live server, and a ``git clone`` whose
history agrees with every API answer."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import gitlab
import pytest

from fakeservice import FakeService


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "HOME": str(cwd), "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_python_gitlab_review_flow_and_git_clone(svc: FakeService, tmp_path: Path) -> None:
    svc.runner.set_mode("instant")
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="dora-token")
        project = gl.projects.get("acme/shopfloor/shop")
        mr = project.mergerequests.create(
            {
                "source_branch": "feature",
                "target_branch": "main",
                "title": "Checkout",
                "description": "Closes #1",
            }
        )
        assert (mr.iid, mr.project_id, mr.merge_status) == (1, project.id, "can_be_merged")
        changes = mr.changes()
        assert [c["new_path"] for c in changes["changes"]] == ["checkout.py"]
        assert [c.title for c in mr.commits()] == ["Add checkout"]
        assert [i.iid for i in mr.closes_issues()] == [1]
        mr.labels = ["feature"]
        mr.save()
        assert project.mergerequests.get(1).labels == ["feature"]
        assert [m.iid for m in project.mergerequests.list(labels=["feature"], get_all=True)] == [1]

        maya = gitlab.Gitlab(url, private_token="maya-token")
        theirs = maya.projects.get(project.id).mergerequests.get(1)
        with pytest.raises(gitlab.GitlabMRClosedError):
            theirs.merge(sha="0" * 40)
        theirs.merge(should_remove_source_branch=True)
        assert theirs.state == "merged"
        assert project.issues.get(1).state == "closed"
        merge_sha = theirs.merge_commit_sha

    with svc.serve() as url:
        scheme, _, rest = url.partition("://")
        remote = f"{scheme}://oauth2:maya-token@{rest}/acme/shopfloor/shop.git"
        work = tmp_path / "clone"
        git(tmp_path, "clone", "-q", remote, str(work))
        assert git(work, "rev-parse", "HEAD") == merge_sha
        parents = git(work, "log", "-1", "--format=%P").split()
        assert len(parents) == 2
        assert (work / "checkout.py").read_text() == "def checkout():\n    return True\n"
        assert "feature" not in git(work, "branch", "-r")


def test_git_push_to_the_source_branch_updates_the_merge_request(
    svc: FakeService, tmp_path: Path
) -> None:
    svc.runner.set_mode("instant")
    created = svc.request(
        "POST",
        "/projects/acme%2Fshopfloor%2Fshop/merge_requests",
        token="dora-token",
        json_body={"title": "Draft: Checkout", "source_branch": "feature", "target_branch": "main"},
    ).json()
    draft = svc.request(
        "PUT", "/projects/acme%2Fshopfloor%2Fshop/merge_requests/1/merge", token="maya-token"
    )
    assert (draft.status, draft.json()) == (405, {"message": "405 Method Not Allowed"})
    with svc.serve() as url:
        scheme, _, rest = url.partition("://")
        remote = f"{scheme}://oauth2:dora-token@{rest}/acme/shopfloor/shop.git"
        work = tmp_path / "clone"
        git(tmp_path, "clone", "-q", "--branch", "feature", remote, str(work))
        (work / "pay.py").write_text("pay = True\n")
        git(work, "add", "pay.py")
        git(
            work,
            "-c",
            "user.name=Dora",
            "-c",
            "user.email=dora@example.com",
            "commit",
            "-qm",
            "Pay",
        )
        git(work, "push", "-q", "origin", "feature")
        pushed = git(work, "rev-parse", "HEAD")
    shown = svc.request(
        "GET", "/projects/acme%2Fshopfloor%2Fshop/merge_requests/1", token="dora-token"
    ).json()
    assert shown["sha"] == pushed != created["sha"]
    assert shown["diff_refs"]["head_sha"] == pushed and shown["changes_count"] == "2"
    notes = svc.request(
        "GET", "/projects/acme%2Fshopfloor%2Fshop/merge_requests/1/notes", token="dora-token"
    ).json()
    assert notes[0]["system"] and notes[0]["body"].endswith(" - Pay")
