"""Tests for git smart HTTP: a real ``git`` client clones, fetches and pushes."""

from __future__ import annotations

import datetime as dt
import gzip
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import attrs
import pytest

from fakeservice.repository.git import ZERO_SHA, Action, RefUpdate, Repository
from fakeservice.repository.smart_http import PUSH_FORBIDDEN, RefAuthorizer, handle

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git CLI not installed")

T0 = dt.datetime(2026, 1, 1, 9, 0, tzinfo=dt.UTC)
PREFIX = "/group/project.git"


@attrs.define
class Remote:
    """What the test server serves, and what it saw."""

    repo: Repository
    url: str = ""
    can_push: bool = True
    authorize: RefAuthorizer | None = None
    updates: list[list[RefUpdate]] = attrs.field(factory=list)
    lock: threading.Lock = attrs.field(factory=threading.Lock)


def make_handler(remote: Remote) -> type[BaseHTTPRequestHandler]:
    class GitHandler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self.dispatch("GET")

        def do_POST(self) -> None:
            self.dispatch("POST")

        def read_body(self) -> bytes:
            if self.headers.get("Transfer-Encoding", "").lower() != "chunked":
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))
            chunks = []
            while True:
                size = int(self.rfile.readline().strip(), 16)
                if size == 0:
                    self.rfile.readline()
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()

        def dispatch(self, method: str) -> None:
            url = urlsplit(self.path)
            body = self.read_body()
            if not url.path.startswith(PREFIX):
                status, headers, payload = 404, [], b"not found"
            else:
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                lowered = {k.lower(): v for k, v in self.headers.items()}
                with remote.lock:
                    status, headers, payload = handle(
                        remote.repo,
                        method,
                        url.path[len(PREFIX) :],
                        query,
                        lowered,
                        body,
                        can_push=remote.can_push,
                        on_ref_update=remote.updates.append,
                        authorize=remote.authorize,
                    )
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: object) -> None:
            return

    return GitHandler


def seeded_repository() -> Repository:
    repo = Repository()
    repo.commit(
        "main",
        [
            Action("create", "README.md", b"# project\n"),
            Action("create", "src/app.py", b"print('hi')\n", execute_filemode=True),
        ],
        message="Initial commit",
        author_name="Alice",
        author_email="alice@example.com",
        when=T0,
    )
    repo.commit(
        "main",
        [Action("update", "README.md", b"# project\n\nMore.\n")],
        message="Expand readme",
        author_name="Bob",
        author_email="bob@example.com",
        when=T0 + dt.timedelta(hours=1),
    )
    return repo


@pytest.fixture
def remote() -> Iterator[Remote]:
    state = Remote(seeded_repository())
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(state))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_port}{PREFIX}"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def git_env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        HOME=str(home),
        GIT_TERMINAL_PROMPT="0",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Carol",
        GIT_AUTHOR_EMAIL="carol@example.com",
        GIT_COMMITTER_NAME="Carol",
        GIT_COMMITTER_EMAIL="carol@example.com",
    )
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Carol\n\temail = carol@example.com\n[init]\n\tdefaultBranch = main\n"
    )
    return env


def git(env: dict[str, str], cwd: Path, *args: str, check: bool = True) -> str:
    result = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )
    if check and result.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed:\n{result.stderr}")
    return result.stdout + result.stderr if not check else result.stdout


def clone(remote: Remote, env: dict[str, str], tmp_path: Path) -> Path:
    git(env, tmp_path, "clone", remote.url, "work")
    return tmp_path / "work"


def commit_file(env: dict[str, str], work: Path, name: str, content: str, message: str) -> str:
    (work / name).write_text(content)
    git(env, work, "add", name)
    git(env, work, "commit", "-q", "-m", message)
    return git(env, work, "rev-parse", "HEAD").strip()


# -- through a real git client -----------------------------------------------------------


def test_clone_matches_the_repository(remote: Remote, git_env: dict, tmp_path: Path) -> None:
    work = clone(remote, git_env, tmp_path)
    log = git(git_env, work, "log", "--format=%H").split()
    assert log == [c.id for c in remote.repo.commits("main")]
    assert (work / "README.md").read_bytes() == remote.repo.raw("main", "README.md")
    assert os.access(work / "src" / "app.py", os.X_OK)
    blob = git(git_env, work, "rev-parse", "HEAD:src/app.py").strip()
    assert blob == remote.repo.read_file("main", "src/app.py").blob_id
    assert git(git_env, work, "symbolic-ref", "--short", "HEAD").strip() == "main"
    git(git_env, work, "fsck", "--strict")


def test_wide_chunked_trees_clone_push_and_fetch(
    remote: Remote, git_env: dict, tmp_path: Path
) -> None:
    """A directory wider than a chunk: cloned, pushed to and fetched from with real git."""
    files = [Action("create", f"wide/f{n:03d}.txt", b"%d\n" % n) for n in range(300)]
    when = T0 + dt.timedelta(hours=2)
    remote.repo.commit(
        "main", files, message="wide", author_name="A", author_email="a@x", when=when
    )
    work = clone(remote, git_env, tmp_path)
    git(git_env, work, "fsck", "--strict")
    assert len(git(git_env, work, "ls-tree", "HEAD", "wide/").split("\n")) == 301
    pushed = commit_file(git_env, work, "wide/f150.5.txt", "pushed\n", "push into wide")
    git(git_env, work, "push", "-q", "origin", "main")
    assert remote.repo.resolve("main") == pushed
    tree = remote.repo.get_commit("main").tree_id
    assert tree == git(git_env, work, "rev-parse", "HEAD^{tree}").strip()
    wide = remote.repo._tree_get(tree.encode(), b"wide")
    assert wide is not None and not isinstance(remote.repo._store.raw.tree(wide[1]), bytes)
    change = [Action("update", "wide/f150.5.txt", b"api\n")]
    sha = remote.repo.commit(
        "main", change, message="api", author_name="A", author_email="a@x", when=when
    )
    git(git_env, work, "pull", "-q", "--ff-only")
    assert git(git_env, work, "rev-parse", "HEAD").strip() == sha
    assert (work / "wide" / "f150.5.txt").read_text() == "api\n"
    git(git_env, work, "fsck", "--strict")


def test_shallow_clone(remote: Remote, git_env: dict, tmp_path: Path) -> None:
    git(git_env, tmp_path, "clone", "-q", "--depth", "1", remote.url, "shallow")
    log = git(git_env, tmp_path / "shallow", "log", "--format=%H").split()
    assert log == [remote.repo.resolve("main")]
    git(git_env, tmp_path / "shallow", "fetch", "-q", "--unshallow")
    log = git(git_env, tmp_path / "shallow", "log", "--format=%H").split()
    assert log == [c.id for c in remote.repo.commits("main")]


def test_push_to_a_branch_and_a_new_branch(remote: Remote, git_env: dict, tmp_path: Path) -> None:
    work = clone(remote, git_env, tmp_path)
    old = remote.repo.branch("main").commit_id  # type: ignore[union-attr]
    new = commit_file(git_env, work, "pushed.txt", "from the client\n", "Client commit")
    git(git_env, work, "push", "-q", "origin", "main")
    assert remote.repo.branch("main").commit_id == new  # type: ignore[union-attr]
    info = remote.repo.read_file("main", "pushed.txt")
    assert info.last_commit_id == new
    assert remote.repo.raw("main", "pushed.txt") == b"from the client\n"
    assert remote.repo.get_commit(new).author_name == "Carol"
    assert remote.updates[-1] == [RefUpdate("refs/heads/main", old, new)]

    git(git_env, work, "checkout", "-q", "-b", "feature")
    feature = commit_file(git_env, work, "feature.txt", "feature\n", "Feature work")
    git(git_env, work, "push", "-q", "origin", "feature")
    assert remote.repo.branch("feature").commit_id == feature  # type: ignore[union-attr]
    assert remote.repo.read_file("feature", "feature.txt").commit_id == feature
    assert not remote.repo.exists("main", "feature.txt")
    assert remote.updates[-1] == [RefUpdate("refs/heads/feature", ZERO_SHA, feature)]

    git(git_env, work, "tag", "-a", "v1.0", "-m", "First release")
    git(git_env, work, "push", "-q", "origin", "v1.0")
    tag = remote.repo.tag("v1.0")
    assert tag is not None
    assert (tag.commit_id, tag.message) == (feature, "First release")

    git(git_env, work, "push", "-q", "origin", "--delete", "feature")
    assert remote.repo.branch("feature") is None
    assert remote.updates[-1][0].deleted


def test_fetch_after_a_server_side_commit(remote: Remote, git_env: dict, tmp_path: Path) -> None:
    work = clone(remote, git_env, tmp_path)
    sha = remote.repo.commit(
        "main",
        [Action("create", "server.txt", b"made on the server\n")],
        message="Server commit",
        author_name="Service",
        author_email="service@example.com",
        when=T0 + dt.timedelta(hours=2),
    )
    git(git_env, work, "pull", "-q", "--ff-only")
    assert git(git_env, work, "rev-parse", "HEAD").strip() == sha
    assert (work / "server.txt").read_text() == "made on the server\n"
    log = git(git_env, work, "log", "--format=%H").split()
    assert log == [c.id for c in remote.repo.commits("main")]


def test_push_refused_without_permission(remote: Remote, git_env: dict, tmp_path: Path) -> None:
    work = clone(remote, git_env, tmp_path)
    before = remote.repo.refs()
    remote.can_push = False
    commit_file(git_env, work, "denied.txt", "no\n", "Denied")
    output = git(git_env, work, "push", "origin", "main", check=False)
    assert "403" in output or "not allowed" in output
    assert remote.repo.refs() == before
    assert remote.updates == []


def test_server_side_ref_rules(remote: Remote, git_env: dict, tmp_path: Path) -> None:
    work = clone(remote, git_env, tmp_path)
    before = remote.repo.refs()
    output = git(git_env, work, "push", "origin", "main:refs/merge-requests/1/head", check=False)
    assert "deny updating a hidden ref" in output
    output = git(git_env, work, "push", "origin", "--delete", "main", check=False)
    assert "The default branch of a project cannot be deleted." in output
    remote.authorize = lambda update: "protected branch" if update.branch == "main" else None
    commit_file(git_env, work, "x.txt", "x\n", "Blocked")
    output = git(git_env, work, "push", "origin", "main", check=False)
    assert "protected branch" in output
    assert remote.repo.refs() == before


def test_first_push_to_an_empty_repository(git_env: dict, tmp_path: Path) -> None:
    state = Remote(Repository(default_branch="main"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(state))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}{PREFIX}"
        git(git_env, tmp_path, "clone", "-q", url, "empty")
        work = tmp_path / "empty"
        git(git_env, work, "checkout", "-q", "-b", "trunk")
        sha = commit_file(git_env, work, "first.txt", "first\n", "First")
        git(git_env, work, "push", "-q", "origin", "trunk")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    assert state.repo.default_branch == "trunk"
    assert state.repo.resolve("HEAD") == sha
    assert state.repo.read_file("trunk", "first.txt").last_commit_id == sha


# -- the handler directly ----------------------------------------------------------------


def pkt(line: str) -> bytes:
    data = line.encode()
    return f"{len(data) + 4:04x}".encode() + data


def test_advertisement_format() -> None:
    repo = seeded_repository()
    status, headers, body = handle(
        repo, "GET", "/info/refs", {"service": "git-upload-pack"}, {}, b"", can_push=False
    )
    assert status == 200
    assert ("Content-Type", "application/x-git-upload-pack-advertisement") in headers
    assert body.startswith(b"001e# service=git-upload-pack\n0000")
    head = repo.resolve("HEAD")
    assert f"{head} refs/heads/main".encode() in body
    assert b"symref=HEAD:refs/heads/main" in body


def test_upload_pack_accepts_gzip_bodies() -> None:
    repo = seeded_repository()
    head = repo.resolve("HEAD")
    request = pkt(f"want {head} side-band-64k thin-pack ofs-delta\n") + b"0000" + pkt("done\n")
    plain = handle(repo, "POST", "/git-upload-pack", {}, {}, request, can_push=False)
    zipped = handle(
        repo,
        "POST",
        "/git-upload-pack",
        {},
        {"content-encoding": "gzip"},
        gzip.compress(request),
        can_push=False,
    )
    assert plain[0] == zipped[0] == 200
    assert ("Content-Type", "application/x-git-upload-pack-result") in plain[1]
    assert plain[2] == zipped[2]
    assert plain[2].startswith(b"0008NAK\n")
    assert b"PACK" in plain[2]


def test_refusals_and_unknown_paths() -> None:
    repo = seeded_repository()
    status, _, body = handle(
        repo, "GET", "/info/refs", {"service": "git-receive-pack"}, {}, b"", can_push=False
    )
    assert (status, body) == (403, PUSH_FORBIDDEN.encode())
    status, _, _ = handle(repo, "POST", "/git-receive-pack", {}, {}, b"0000", can_push=False)
    assert status == 403
    assert handle(repo, "GET", "/info/refs", {}, {}, b"", can_push=True)[0] == 403
    assert handle(repo, "GET", "/objects/info/packs", {}, {}, b"", can_push=True)[0] == 404
    assert handle(repo, "GET", "/git-upload-pack", {}, {}, b"", can_push=True)[0] == 405
    bad_gzip = {"content-encoding": "gzip"}
    assert handle(repo, "POST", "/git-upload-pack", {}, bad_gzip, b"xx", can_push=True)[0] == 400
    status, _, _ = handle(
        repo, "GET", "/info/refs", {"service": ["git-receive-pack"]}, {}, b"", can_push=True
    )
    assert status == 200
