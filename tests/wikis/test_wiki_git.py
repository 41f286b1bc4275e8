"""A project wiki over git HTTP with the real git CLI: clone what the API wrote, push a
page the API then serves; the wiki's access rules and roles on the git side."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from support.calls import body, call_as

from fakeservice import FakeService

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git CLI not installed")


def _git(home: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "HOME": str(home),
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Dan",
        "GIT_AUTHOR_EMAIL": "dan@example.com",
        "GIT_COMMITTER_NAME": "Dan",
        "GIT_COMMITTER_EMAIL": "dan@example.com",
    }
    return subprocess.run(
        ["git", *args], cwd=cwd or home, env=env, capture_output=True, text=True, timeout=60
    )


def _remote(url: str, who: str) -> str:
    scheme, _, rest = url.partition("://")
    return f"{scheme}://oauth2:{who}-token@{rest}/docs/site.wiki.git"


def test_clone_and_push_a_page(svc: FakeService, tmp_path: Path) -> None:
    with svc.serve() as url:
        cloned = _git(tmp_path, "clone", "-q", _remote(url, "dan"), "wiki")
        assert cloned.returncode == 0, cloned.stderr
        work = tmp_path / "wiki"
        assert (work / "home.md").read_text() == "# Welcome\n\nStart *here*."
        assert (work / "ops" / "On-Call.asciidoc").read_text() == "= Pager"
        (work / "Pushed-Page.md").write_text("from git")
        assert _git(tmp_path, "add", ".", cwd=work).returncode == 0
        assert _git(tmp_path, "commit", "-q", "-m", "add a page", cwd=work).returncode == 0
        pushed = _git(tmp_path, "push", "-q", "origin", "HEAD:main", cwd=work)
        assert pushed.returncode == 0, pushed.stderr
        page = body(call_as(svc, "GET", "/projects/docs%2Fsite/wikis/Pushed-Page", "otto"))
        assert (page["title"], page["content"]) == ("Pushed Page", "from git")
        refused = _git(tmp_path, "push", "-q", _remote(url, "rita"), "HEAD:main", cwd=work)
        assert refused.returncode != 0


def _info_refs(svc: FakeService, who: str | None) -> int:
    headers = {}
    if who is not None:
        secret = base64.b64encode(f"oauth2:{who}-token".encode()).decode()
        headers["Authorization"] = f"Basic {secret}"
    path = "/docs/site.wiki.git/info/refs?service=git-upload-pack"
    return svc.request("GET", path, headers=headers).status


def test_git_side_follows_the_wiki_access_level(svc: FakeService) -> None:
    assert _info_refs(svc, None) == 200
    assert _info_refs(svc, "otto") == 200
    call_as(svc, "PUT", "/projects/docs%2Fsite", "olga", body={"wiki_access_level": "private"})
    assert _info_refs(svc, None) == 401
    assert _info_refs(svc, "otto") == 403
    assert _info_refs(svc, "rita") == 200
    secret = svc.request("GET", "/docs/secret.wiki.git/info/refs?service=git-upload-pack")
    assert secret.status == 401
    # the project's own repository is still served at its own path
    assert svc.request("GET", "/docs/site.git/info/refs?service=git-upload-pack").status == 200
