"""git over HTTP at a project's path without ``.git`` (``/<namespace>/<project>``): clone,
fetch and push reach the same repository, and the answers carry git's media types."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import requests

from fakeservice import FakeService

from .test_git_http import SCENARIO as SCENARIO  # the module's scenario (see conftest)
from .test_git_http import Git, api_head, remote

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git CLI not installed")


@pytest.fixture
def url(served: tuple[FakeService, str], svc: FakeService) -> str:
    return served[1]


@pytest.fixture
def git(tmp_path: Path) -> Git:
    return Git(tmp_path)


def test_push_and_fetch_without_the_suffix(svc: FakeService, url: str, git: Git) -> None:
    git.ok("clone", "-q", remote(url, "acme/web", "maint-token"), "web")
    work = git.home / "web"
    sha = git.commit_file(work, "plain.txt", "plain\n", "No suffix")
    git.ok("push", "-q", "origin", "HEAD:main", cwd=work)
    assert api_head(svc, "acme%2Fweb") == sha
    git.ok("fetch", "-q", "origin", cwd=work)
    assert git.ok("rev-parse", "origin/main", cwd=work) == sha


def test_media_types(svc: FakeService, url: str) -> None:
    for service in ("git-upload-pack", "git-receive-pack"):
        answer = requests.get(
            f"{url}/acme/web/info/refs",
            params={"service": service},
            auth=("maint", "maint-token"),
            timeout=30,
        )
        assert answer.status_code == 200
        assert answer.headers["Content-Type"] == f"application/x-{service}-advertisement"
        line = f"# service={service}\n".encode()
        assert answer.content.startswith(b"%04x" % (len(line) + 4) + line + b"0000")
