"""git over HTTP against a live server with the real git CLI: clone, fetch and push,
HTTP Basic with tokens and passwords, and the protected branch rules of pushes."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from fakeservice import FakeService
from fakeservice.web.http import Response

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git CLI not installed")

SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-01-01T09:00:00Z"},
    "users": [
        {"username": "root", "admin": True, "tokens": [{"token": "root-token"}]},
        {"username": "maint", "name": "Mai Maintainer", "tokens": [{"token": "maint-token"}],
         "oauth_tokens": [{"token": "maint-oauth"}]},
        {"username": "dev", "password": "dev-password-123", "tokens": [
            {"token": "dev-token"},
            {"token": "dev-readrepo", "scopes": ["read_repository"]},
            {"token": "dev-writerepo", "scopes": ["write_repository"]},
            {"token": "dev-readapi", "scopes": ["read_api"]},
            {"token": "dev-expired", "expires_at": "2025-01-01"},
        ]},
        {"username": "guest", "tokens": [{"token": "guest-token"}]},
        {"username": "outsider", "tokens": [{"token": "outsider-token"}]},
        {"username": "blocked", "state": "blocked", "tokens": [{"token": "blocked-token"}]},
    ],
    "groups": [
        {"path": "acme", "visibility": "public",
         "subgroups": [{"path": "sub", "visibility": "public"}]},
    ],
    "projects": [
        {"path": "acme/web", "visibility": "public",
         "members": [{"user": "maint", "role": "maintainer"}, {"user": "dev", "role": "developer"},
                     {"user": "guest", "role": "guest"}],
         "files": {"README.md": "# Web\n"},
         "branches": [{"name": "release/1"}],
         "protected_branches": [{"name": "release/*"}],
         "protected_tags": [{"name": "release-*"}]},
        {"path": "acme/sub/lib", "visibility": "public", "files": {"lib.py": "x = 1\n"}},
        {"path": "acme/vault", "visibility": "private",
         "members": [{"user": "maint", "role": "maintainer"}, {"user": "dev", "role": "developer"},
                     {"user": "guest", "role": "guest"}, {"user": "blocked", "role": "developer"}],
         "files": {"secret.txt": "s3cret\n"}},
        {"path": "acme/empty", "visibility": "public",
         "members": [{"user": "maint", "role": "maintainer"}, {"user": "dev", "role": "developer"}]},
    ],
}  # fmt: skip

CHALLENGE = 'Basic realm="GitLab"'


@pytest.fixture
def url(served: tuple[FakeService, str], svc: FakeService) -> str:
    return served[1]


class Git:
    """The git CLI in an isolated home, never prompting."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.env = {
            **os.environ,
            "HOME": str(home),
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "Tester",
            "GIT_AUTHOR_EMAIL": "tester@example.com",
            "GIT_COMMITTER_NAME": "Tester",
            "GIT_COMMITTER_EMAIL": "tester@example.com",
        }

    def run(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", *args],
            cwd=cwd or self.home,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    def ok(self, *args: str, cwd: Path | None = None) -> str:
        result = self.run(*args, cwd=cwd)
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    def commit_file(self, repo: Path, name: str, content: str, message: str) -> str:
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(content)
        self.ok("add", name, cwd=repo)
        self.ok("commit", "-q", "-m", message, cwd=repo)
        return self.ok("rev-parse", "HEAD", cwd=repo)


@pytest.fixture
def git(tmp_path: Path) -> Git:
    return Git(tmp_path)


def remote(url: str, path: str, secret: str | None = None, user: str = "oauth2") -> str:
    if secret is None:
        return f"{url}/{path}"
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{user}:{secret}@{rest}/{path}"


def api_head(svc: FakeService, project: str, branch: str = "main") -> str | None:
    response = svc.request(
        "GET", f"/projects/{project}/repository/branches/{branch}", token="root-token"
    )
    return response.json()["commit"]["id"] if response.status == 200 else None


def basic(user: str, secret: str) -> dict[str, str]:
    value = base64.b64encode(f"{user}:{secret}".encode()).decode()
    return {"Authorization": f"Basic {value}"}


def refs(svc: FakeService, path: str, headers: dict[str, str] | None = None) -> Response:
    return svc.request("GET", f"/{path}/info/refs?service=git-upload-pack", headers=headers)


# -- pulling ------------------------------------------------------------------------------


def test_clone_public_anonymously(svc: FakeService, url: str, git: Git) -> None:
    git.ok("clone", "-q", remote(url, "acme/web.git"), "web")
    assert (git.home / "web" / "README.md").read_text() == "# Web\n"
    assert git.ok("rev-parse", "HEAD", cwd=git.home / "web") == api_head(svc, "acme%2Fweb")
    branches = git.ok("branch", "-r", cwd=git.home / "web")
    assert "origin/release/1" in branches


def test_nested_namespace_with_and_without_suffix(url: str, git: Git) -> None:
    git.ok("clone", "-q", remote(url, "acme/sub/lib.git"), "a")
    git.ok("clone", "-q", remote(url, "acme/sub/lib"), "b")
    assert (git.home / "a" / "lib.py").read_text() == (git.home / "b" / "lib.py").read_text()


def test_private_clone_needs_credentials(svc: FakeService, url: str, git: Git) -> None:
    refused = git.run("clone", "-q", remote(url, "acme/vault.git"), "nope")
    assert refused.returncode != 0
    assert "could not read Username" in refused.stderr
    git.ok("clone", "-q", remote(url, "acme/vault.git", "dev-token"), "vault")
    assert (git.home / "vault" / "secret.txt").read_text() == "s3cret\n"


@pytest.mark.parametrize(
    ("user", "secret"),
    [("oauth2", "maint-oauth"), ("anything", "dev-readrepo"), ("dev", "dev-password-123"),
     ("x", "dev-writerepo"), ("x", "root-token")],
)  # fmt: skip
def test_credentials_that_may_clone(url: str, git: Git, user: str, secret: str) -> None:
    git.ok("clone", "-q", remote(url, "acme/vault.git", secret, user), "vault")


def test_challenge_and_refusals(svc: FakeService) -> None:
    anonymous = refs(svc, "acme/vault.git")
    assert anonymous.status == 401
    assert anonymous.header("WWW-Authenticate") == CHALLENGE
    assert anonymous.body.startswith(b"HTTP Basic: Access denied.")
    for user, secret in [
        ("oauth2", "wrong"),
        ("dev", "wrong-password"),
        ("x", "dev-expired"),
        ("x", "blocked-token"),
    ]:
        response = refs(svc, "acme/vault.git", basic(user, secret))
        assert (response.status, response.header("WWW-Authenticate")) == (401, CHALLENGE), secret
    garbage = refs(svc, "acme/vault.git", {"Authorization": "Basic %%%"})
    assert garbage.status == 401
    hidden = refs(svc, "acme/vault.git", basic("x", "outsider-token"))
    assert (hidden.status, hidden.body) == (
        404,
        b"The project you were looking for could not be found or you don't have permission "
        b"to view it.\n",
    )
    assert refs(svc, "acme/nope.git").status == 401
    assert refs(svc, "acme/nope.git", basic("x", "dev-token")).status == 404
    denied = refs(svc, "acme/vault.git", basic("x", "guest-token"))
    assert (denied.status, denied.body) == (
        403,
        b"You are not allowed to download code from this project.\n",
    )
    # read_api carries the read-only abilities, downloading code among them
    assert refs(svc, "acme/vault.git", basic("x", "dev-readapi")).status == 200


def test_public_refs_with_wrong_credentials_are_refused(svc: FakeService) -> None:
    assert refs(svc, "acme/web.git").status == 200
    assert refs(svc, "acme/web.git", basic("x", "wrong")).status == 401


def test_ref_advertisement(svc: FakeService) -> None:
    response = refs(svc, "acme/web.git")
    assert response.header("Content-Type") == "application/x-git-upload-pack-advertisement"
    head = api_head(svc, "acme%2Fweb")
    assert response.body.startswith(b"001e# service=git-upload-pack\n0000")
    assert f"{head} refs/heads/main".encode() in response.body


def test_fetch_sees_api_commits(svc: FakeService, url: str, git: Git) -> None:
    git.ok("clone", "-q", remote(url, "acme/web.git"), "web")
    body = {"branch": "main", "content": "new\n", "commit_message": "API commit"}
    response = svc.request(
        "POST", "/projects/acme%2Fweb/repository/files/new.txt", token="maint-token", json_body=body
    )
    assert response.status == 201
    git.ok("fetch", "-q", cwd=git.home / "web")
    assert git.ok("rev-parse", "origin/main", cwd=git.home / "web") == api_head(svc, "acme%2Fweb")


# -- pushing ------------------------------------------------------------------------------


def clone_web(url: str, git: Git, secret: str) -> Path:
    git.ok("clone", "-q", remote(url, "acme/web.git", secret), "web")
    return git.home / "web"


def test_developer_pushes_to_unprotected_branches_only(
    svc: FakeService, url: str, git: Git
) -> None:
    work = clone_web(url, git, "dev-token")
    sha = git.commit_file(work, "dev.txt", "dev\n", "Dev work")
    refused = git.run("push", "origin", "HEAD:main", cwd=work)
    assert refused.returncode != 0
    assert (
        "You are not allowed to push code to protected branches on this project." in refused.stderr
    )
    assert api_head(svc, "acme%2Fweb") != sha
    created = git.run("push", "origin", "HEAD:refs/heads/release/2", cwd=work)
    assert "You are not allowed to create protected branches on this project." in created.stderr
    git.ok("push", "-q", "origin", "HEAD:topic", cwd=work)
    assert api_head(svc, "acme%2Fweb", "topic") == sha
    file = svc.request("GET", "/projects/acme%2Fweb/repository/files/dev.txt?ref=topic")
    assert file.json()["last_commit_id"] == sha
    git.ok("push", "-q", "origin", "HEAD:refs/tags/v1", cwd=work)
    assert svc.request("GET", "/projects/acme%2Fweb/repository/tags/v1").json()["target"] == sha
    git.ok("push", "-q", "origin", ":topic", cwd=work)
    assert api_head(svc, "acme%2Fweb", "topic") is None


def test_maintainer_pushes_to_main(svc: FakeService, url: str, git: Git) -> None:
    svc.clock.advance(seconds=120)
    work = clone_web(url, git, "maint-token")
    sha = git.commit_file(work, "m.txt", "m\n", "Maintainer work")
    git.ok("push", "-q", "origin", "HEAD:main", cwd=work)
    assert api_head(svc, "acme%2Fweb") == sha
    project = svc.request("GET", "/projects/acme%2Fweb", token="root-token").json()
    assert project["last_activity_at"] == "2026-01-01T09:02:00Z"


def test_push_needs_a_write_scope_and_a_developer(url: str, git: Git) -> None:
    for secret in ("dev-readrepo", "guest-token"):
        work = git.home / secret
        git.ok("clone", "-q", remote(url, "acme/web.git", secret), secret)
        git.commit_file(work, "x.txt", "x\n", "x")
        refused = git.run("push", "origin", "HEAD:topic", cwd=work)
        assert refused.returncode != 0
        assert "403" in refused.stderr, refused.stderr
    work = git.home / "writer"
    git.ok("clone", "-q", remote(url, "acme/web.git", "dev-writerepo"), "writer")
    git.commit_file(work, "w.txt", "w\n", "w")
    git.ok("push", "-q", "origin", "HEAD:topic", cwd=work)


def test_anonymous_push_is_challenged(svc: FakeService, url: str, git: Git) -> None:
    work = git.home / "web"
    git.ok("clone", "-q", remote(url, "acme/web.git"), "web")
    git.commit_file(work, "a.txt", "a\n", "a")
    refused = git.run("push", "origin", "HEAD:topic", cwd=work)
    assert refused.returncode != 0 and "could not read Username" in refused.stderr
    raw = svc.request("GET", "/acme/web.git/info/refs?service=git-receive-pack")
    assert (raw.status, raw.header("WWW-Authenticate")) == (401, CHALLENGE)


def test_force_push_and_deletion_of_protected_branches(
    svc: FakeService, url: str, git: Git
) -> None:
    work = clone_web(url, git, "maint-token")
    git.ok("checkout", "-q", "-b", "rewrite", "origin/release/1", cwd=work)
    git.ok("commit", "-q", "--amend", "-m", "Rewritten", cwd=work)
    forced = git.run("push", "-f", "origin", "HEAD:release/1", cwd=work)
    assert (
        "You are not allowed to force push code to a protected branch on this project."
        in forced.stderr
    )
    deleted = git.run("push", "origin", ":release/1", cwd=work)
    assert "You can only delete protected branches using the web interface." in deleted.stderr
    default = git.run("push", "origin", ":main", cwd=work)
    assert "The default branch of a project cannot be deleted." in default.stderr
    rule = {"name": "release/1", "allow_force_push": True}
    assert (
        svc.request(
            "POST", "/projects/acme%2Fweb/protected_branches", token="maint-token", json_body=rule
        ).status
        == 201
    )
    git.ok("push", "-q", "-f", "origin", "HEAD:release/1", cwd=work)
    assert api_head(svc, "acme%2Fweb", "release%2F1") == git.ok("rev-parse", "HEAD", cwd=work)


def test_push_into_an_empty_repository(svc: FakeService, url: str, git: Git) -> None:
    work = git.home / "empty"
    git.ok("init", "-q", "-b", "main", str(work))
    sha = git.commit_file(work, "README.md", "# Empty\n", "First")
    refused = git.run("push", remote(url, "acme/empty.git", "dev-token"), "main", cwd=work)
    assert "You are not allowed to push code to protected branches" in refused.stderr
    project = svc.request("GET", "/projects/acme%2Fempty", token="root-token").json()
    assert project["empty_repo"] is True
    git.ok("push", "-q", remote(url, "acme/empty.git", "maint-token"), "main", cwd=work)
    project = svc.request("GET", "/projects/acme%2Fempty", token="root-token").json()
    assert (project["empty_repo"], project["default_branch"]) == (False, "main")
    assert project["readme_url"] == f"{project['web_url']}/-/blob/main/README.md"
    assert api_head(svc, "acme%2Fempty") == sha
    rules = svc.request(
        "GET", "/projects/acme%2Fempty/protected_branches", token="maint-token"
    ).json()
    assert [rule["name"] for rule in rules] == ["main"]


def test_clone_of_an_empty_repository(url: str, git: Git) -> None:
    result = git.run("clone", remote(url, "acme/empty.git"), "empty")
    assert result.returncode == 0
    assert "empty repository" in result.stderr


def test_protected_tags_over_git(svc: FakeService, url: str, git: Git) -> None:
    work = clone_web(url, git, "dev-token")
    git.commit_file(work, "t.txt", "t\n", "Tagged")
    git.ok("push", "-q", "origin", "HEAD:topic", cwd=work)
    refused = git.run("push", "origin", "HEAD:refs/tags/release-1", cwd=work)
    assert "You are not allowed to create this tag as it is protected." in refused.stderr
    tag = svc.request("GET", "/projects/acme%2Fweb/repository/tags/release-1")
    assert tag.status == 404
    maint = git.home / "maint"
    git.ok("clone", "-q", remote(url, "acme/web.git", "maint-token"), str(maint))
    git.ok("fetch", "-q", "origin", "topic", cwd=maint)
    git.ok("push", "-q", "origin", "FETCH_HEAD:refs/tags/release-1", cwd=maint)
    git.ok("push", "-q", "origin", "HEAD:refs/tags/free", cwd=work)
    moved = git.run("push", "-f", "origin", "origin/main:refs/tags/release-1", cwd=maint)
    assert "You are not allowed to change existing tags on this project." in moved.stderr
    deleted = git.run("push", "origin", ":refs/tags/release-1", cwd=work)
    assert "You are not allowed to delete protected tags from this project." in deleted.stderr
    git.ok("push", "-q", "origin", ":refs/tags/release-1", cwd=maint)
