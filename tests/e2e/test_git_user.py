"""A git user: clones a private project over HTTP with a token, pushes a commit, and
sees it through the files API (content, metadata headers, blame) and the commits API."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from .conftest import Live

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs the git CLI")

VAULT = "acme/secret-ops/vault"


class Git:
    def __init__(self, home: Path, base_url: str) -> None:
        self.home = home
        self.base = urlsplit(base_url)
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(
            HOME=str(home),
            XDG_CONFIG_HOME=str(home / ".config"),
            GIT_CONFIG_NOSYSTEM="1",
            GIT_TERMINAL_PROMPT="0",
            GIT_ASKPASS="",
            SSH_ASKPASS="",
            LC_ALL="C",
        )
        self.env = env

    def url(self, path: str, user: str | None = None, token: str | None = None) -> str:
        auth = f"{user}:{token}@" if token else ""
        return f"{self.base.scheme}://{auth}{self.base.netloc}/{path}.git"

    def run(
        self, *args: str, cwd: Path | None = None, check: bool = True, **env: str
    ) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            ["git", "-c", "credential.helper=", "-c", "init.defaultBranch=main", *args],
            cwd=cwd or self.home,
            env={**self.env, **env},
            capture_output=True,
            text=True,
            timeout=30,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed:\n{done.stderr}")
        return done


@pytest.fixture
def git(tmp_path: Path, live: Live) -> Git:
    return Git(tmp_path, live.url)


def test_clone_push_and_read_back_through_the_api(live: Live, git: Git) -> None:
    gl = live.gitlab("alice-token")
    vault = gl.projects.get(VAULT)
    assert (vault.visibility, vault.empty_repo) == ("private", True)

    # Someone commits through the API first (at 09:00:00).
    vault.files.create(
        {
            "file_path": "config/app.env",
            "branch": "main",
            "content": "HOST=db\nPORT=5432\n",
            "commit_message": "Add config",
        }
    )
    first = vault.files.get("config/app.env", ref="main").last_commit_id

    # An hour later alice clones with her token, changes a line, adds a file, pushes.
    assert live.advance(3600) == "2026-01-01T10:00:00Z"
    work = git.home / "vault"
    git.run("clone", "-q", git.url(VAULT, "oauth2", "alice-token"), str(work))
    assert (work / "config" / "app.env").read_text() == "HOST=db\nPORT=5432\n"
    log = git.run("log", "--format=%H %s", cwd=work).stdout.splitlines()
    assert log == [f"{first} Add config"]

    (work / "config" / "app.env").write_text("HOST=db\nPORT=6543\n")
    (work / "docs").mkdir()
    (work / "docs" / "ops.md").write_text("# Operations\n")
    git.run("add", "-A", cwd=work)
    identity = {
        "GIT_AUTHOR_NAME": "Alice Liddell",
        "GIT_AUTHOR_EMAIL": "alice@example.com",
        "GIT_COMMITTER_NAME": "Alice Liddell",
        "GIT_COMMITTER_EMAIL": "alice@example.com",
        "GIT_AUTHOR_DATE": "2026-01-01T10:00:00Z",
        "GIT_COMMITTER_DATE": "2026-01-01T10:00:00Z",
    }
    git.run("commit", "-q", "-m", "Change the port", cwd=work, **identity)
    pushed = git.run("rev-parse", "HEAD", cwd=work).stdout.strip()
    blob = git.run("rev-parse", "HEAD:config/app.env", cwd=work).stdout.strip()
    push = git.run("push", "origin", "main", cwd=work)
    assert f"{first[:7]}..{pushed[:7]}  main -> main" in push.stderr

    # The files API sees the push.
    vault = gl.projects.get(VAULT)
    assert vault.last_activity_at == "2026-01-01T10:00:00Z"
    changed = vault.files.get("config/app.env", ref="main")
    assert changed.decode() == b"HOST=db\nPORT=6543\n"
    assert (changed.commit_id, changed.last_commit_id, changed.blob_id) == (pushed, pushed, blob)
    assert changed.content_sha256 == hashlib.sha256(b"HOST=db\nPORT=6543\n").hexdigest()
    assert (changed.size, changed.encoding, changed.ref) == (18, "base64", "main")
    assert vault.files.raw("docs/ops.md", ref="main") == b"# Operations\n"
    assert vault.files.get("config/app.env", ref=first).decode() == b"HOST=db\nPORT=5432\n"

    head = live.http.head(
        f"{live.url}/api/v4/projects/acme%2Fsecret-ops%2Fvault/repository/files/config%2Fapp.env",
        params={"ref": "main"},
        headers={"PRIVATE-TOKEN": "alice-token"},
    )
    assert head.status_code == 200
    assert head.headers["X-Service-Last-Commit-Id"] == pushed
    assert head.headers["X-Service-Blob-Id"] == blob
    assert head.headers["X-Service-File-Path"] == "config/app.env"
    assert head.headers["X-Service-Size"] == "18"

    # Blame: line 1 from the API commit, line 2 from the pushed one.
    blame = vault.files.blame("config/app.env", ref="main")
    assert [(r["commit"]["id"], r["lines"]) for r in blame] == [
        (first, ["HOST=db"]),
        (pushed, ["PORT=6543"]),
    ]
    mine = blame[1]["commit"]
    assert mine["message"].strip() == "Change the port"
    assert mine["parent_ids"] == [first]
    assert (mine["author_name"], mine["author_email"]) == ("Alice Liddell", "alice@example.com")
    assert (mine["authored_date"], mine["committed_date"]) == (
        "2026-01-01T10:00:00Z",
        "2026-01-01T10:00:00Z",
    )

    commits = vault.commits.list(ref_name="main", get_all=True)
    assert [(c.id, c.title) for c in commits] == [
        (pushed, "Change the port"),
        (first, "Add config"),
    ]

    # And a fresh clone of main has both commits.
    again = git.home / "again"
    git.run("clone", "-q", git.url(VAULT, "alice", "alice-token"), str(again))
    assert git.run("rev-parse", "HEAD", cwd=again).stdout.strip() == pushed


def test_who_may_clone_and_push(live: Live, git: Git) -> None:
    gl = live.gitlab("alice-token")
    gl.projects.get(VAULT).files.create(
        {"file_path": "a.txt", "branch": "main", "content": "a\n", "commit_message": "a"}
    )

    anonymous = git.run("ls-remote", git.url(VAULT), check=False)
    assert anonymous.returncode != 0
    assert "could not read Username" in anonymous.stderr  # 401: git asks for credentials

    wrong = git.run("ls-remote", git.url(VAULT, "oauth2", "not-a-token"), check=False)
    assert wrong.returncode != 0
    assert "HTTP Basic: Access denied" in wrong.stderr

    # carol (external, no access to the vault) is told it does not exist.
    hidden = git.run("ls-remote", git.url(VAULT, "oauth2", "carol-token"), check=False)
    assert hidden.returncode != 0
    assert (
        "The project you were looking for could not be found "
        "or you don't have permission to view it." in hidden.stderr
    )

    # carol can clone the public website, but not push to it.
    work = git.home / "website"
    git.run("clone", "-q", git.url("acme/website", "oauth2", "carol-token"), str(work))
    (work / "index.html").write_text("<h1>defaced</h1>\n")
    git.run(
        "-c", "user.name=Carol", "-c", "user.email=carol@example.com",
        "commit", "-q", "-am", "deface", cwd=work,
    )  # fmt: skip
    refused = git.run("push", "origin", "main", cwd=work, check=False)
    assert refused.returncode != 0
    assert "You are not allowed to push code to this project." in refused.stderr
    assert gl.projects.get("acme/website").files.raw("index.html", ref="main") == (
        b"<h1>ACME</h1>\n"
    )


def test_a_reporter_with_a_read_api_token_can_clone(live: Live, git: Git) -> None:
    live.gitlab("alice-token").projects.get(VAULT).files.create(
        {"file_path": "a.txt", "branch": "main", "content": "a\n", "commit_message": "a"}
    )
    work = git.home / "bob"
    git.run("clone", "-q", git.url(VAULT, "bob", "bob-read-token"), str(work))
    assert (work / "a.txt").read_text() == "a\n"
