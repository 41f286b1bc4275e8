"""Tests for the in-memory git engine: object ids, file commits, errors, history and blame."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import pickle
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeservice.core.errors import ApiError, BadRequest, Conflict, NotFound, ParamError
from fakeservice.repository.git import (
    DIR_EXISTS,
    EMPTY_PATH,
    FILE_EXISTS,
    FILE_MISSING,
    NO_CHANGES,
    NOT_ON_BRANCH,
    STALE_DELETE,
    STALE_UPDATE,
    TRAVERSAL,
    Action,
    Repository,
    blob_id,
    commit_title,
    split_lines,
)

T0 = dt.datetime(2026, 1, 1, 9, 0, tzinfo=dt.UTC)


def write(
    repo: Repository,
    *actions: Action,
    branch: str = "main",
    minutes: int = 0,
    author: str = "Alice",
    message: str = "change",
    **options: object,
) -> str:
    return repo.commit(
        branch,
        list(actions),
        message=message,
        author_name=author,
        author_email=f"{author.lower()}@example.com",
        when=T0 + dt.timedelta(minutes=minutes),
        **options,  # type: ignore[arg-type]
    )


def create(path: str, content: bytes = b"x\n", **kw: object) -> Action:
    return Action("create", path, content, **kw)  # type: ignore[arg-type]


def update(path: str, content: bytes, **kw: object) -> Action:
    return Action("update", path, content, **kw)  # type: ignore[arg-type]


def delete(path: str, **kw: object) -> Action:
    return Action("delete", path, **kw)  # type: ignore[arg-type]


def message_of(error: pytest.ExceptionInfo[ApiError]) -> object:
    return error.value.body["message"]


@pytest.fixture
def repo() -> Repository:
    repository = Repository()
    write(
        repository,
        create("README.md", b"# demo\n"),
        create("src/app.py", b"print('hi')\n"),
        create("src/lib/util.py", b"x = 1\n"),
        message="Initial commit",
    )
    return repository


# -- object ids --------------------------------------------------------------------------


def test_blob_id_is_git_hash_object() -> None:
    content = b"hello world\n"
    assert blob_id(content) == hashlib.sha1(b"blob 12\0" + content).hexdigest()
    assert blob_id(b"") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


@pytest.mark.skipif(shutil.which("git") is None, reason="git CLI not installed")
def test_blob_id_matches_git_cli(repo: Repository) -> None:
    content = b"line one\nline two\n\xff binary-ish\n"
    write(repo, create("data.bin", content))
    cli = subprocess.run(
        ["git", "hash-object", "--stdin"], input=content, capture_output=True, check=True
    )
    assert repo.read_file("main", "data.bin").blob_id == cli.stdout.decode().strip()


def test_read_file_fields(repo: Repository) -> None:
    info = repo.read_file("main", "src/app.py")
    content = b"print('hi')\n"
    assert info.file_name == "app.py"
    assert info.file_path == "src/app.py"
    assert info.size == len(content)
    assert info.encoding == "base64"
    assert base64.b64decode(info.content) == content
    assert info.content_sha256 == hashlib.sha256(content).hexdigest()
    assert info.ref == "main"
    assert info.blob_id == blob_id(content)
    assert info.commit_id == repo.branch("main").commit_id  # type: ignore[union-attr]
    assert info.last_commit_id == info.commit_id
    assert info.execute_filemode is False
    assert repo.raw("main", "src/app.py") == content
    assert repo.raw(None, "src/app.py") == content


def test_commit_metadata_is_deterministic() -> None:
    first, second = Repository(), Repository()
    for repository in (first, second):
        write(repository, create("a.txt", b"a\n"), message="Add a\n\nBody text")
    sha = first.branch("main").commit_id  # type: ignore[union-attr]
    assert sha == second.branch("main").commit_id  # type: ignore[union-attr]
    info = first.get_commit(sha)
    assert info.short_id == sha[:8]
    assert info.title == "Add a"
    assert info.message == "Add a\n\nBody text"
    assert info.author_name == "Alice"
    assert info.author_email == "alice@example.com"
    assert info.committer_name == "Alice"
    assert info.authored_date == T0
    assert info.committed_date == T0 == info.created_at
    assert info.parent_ids == ()


def test_commit_title_shortening() -> None:
    assert commit_title("") == "No commit message"
    assert commit_title("short\nbody") == "short"
    long_title = "word " * 30
    title = commit_title(long_title)
    assert title.endswith("…")
    assert len(title) <= 81


# -- file actions --------------------------------------------------------------------------


def test_create_update_delete(repo: Repository) -> None:
    first = repo.branch("main").commit_id  # type: ignore[union-attr]
    second = write(repo, update("README.md", b"# demo\nmore\n"), minutes=1)
    assert repo.get_commit(second).parent_ids == (first,)
    assert repo.raw("main", "README.md") == b"# demo\nmore\n"
    assert repo.raw(first, "README.md") == b"# demo\n"
    write(repo, delete("src/lib/util.py"), minutes=2)
    assert not repo.exists("main", "src/lib/util.py")
    with pytest.raises(NotFound) as error:
        repo.tree("main", "src/lib")
    assert message_of(error) == "404 Tree Not Found"
    assert [e.path for e in repo.tree("main", recursive=True)] == ["src", "README.md", "src/app.py"]


def test_move_keeps_or_replaces_content(repo: Repository) -> None:
    write(repo, Action("move", "docs/app.py", previous_path="src/app.py"))
    assert not repo.exists("main", "src/app.py")
    assert repo.raw("main", "docs/app.py") == b"print('hi')\n"
    write(repo, Action("move", "app.py", b"new\n", previous_path="docs/app.py"), minutes=1)
    assert repo.raw("main", "app.py") == b"new\n"
    assert not repo.exists("main", "docs/app.py")


def test_chmod_and_execute_filemode(repo: Repository) -> None:
    write(repo, Action("chmod", "src/app.py", execute_filemode=True))
    info = repo.read_file("main", "src/app.py")
    assert info.execute_filemode is True
    assert [e.mode for e in repo.tree("main", "src") if e.name == "app.py"] == ["100755"]
    write(repo, update("src/app.py", b"changed\n"), minutes=1)
    assert repo.read_file("main", "src/app.py").execute_filemode is True
    write(repo, create("run.sh", b"#!/bin/sh\n", execute_filemode=True), minutes=2)
    assert repo.read_file("main", "run.sh").execute_filemode is True


def test_several_actions_in_one_commit(repo: Repository) -> None:
    sha = write(
        repo,
        create("new.txt", b"1\n"),
        update("new.txt", b"2\n"),
        Action("move", "moved.txt", previous_path="new.txt"),
        delete("README.md"),
    )
    assert repo.raw(sha, "moved.txt") == b"2\n"
    assert not repo.exists(sha, "new.txt")
    assert not repo.exists(sha, "README.md")


def test_path_normalisation(repo: Repository) -> None:
    write(repo, create("docs//./guide.md", b"g\n"))
    assert repo.raw("main", "docs/guide.md") == b"g\n"
    with pytest.raises(BadRequest) as error:  # as git, the service refuses an absolute path
        write(repo, create("/docs/other.md", b"o\n"))
    assert message_of(error) == "invalid path: '/docs/other.md'"


def test_failed_commit_changes_nothing(repo: Repository) -> None:
    before = repo.refs()
    objects = dict(repo.object_store.raw)
    with pytest.raises(BadRequest) as error:
        write(repo, create("ok.txt", b"fine\n"), update("missing.txt", b"x\n"))
    assert message_of(error) == FILE_MISSING
    assert repo.refs() == before
    assert repo.object_store.raw == objects
    assert not repo.exists("main", "ok.txt")


# -- write errors --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (create("README.md"), FILE_EXISTS),
        (create("src"), DIR_EXISTS),
        (create("README.md/inner.txt"), FILE_EXISTS),
        (update("nope.txt", b"x"), FILE_MISSING),
        (update("src", b"x"), FILE_MISSING),
        (delete("nope.txt"), FILE_MISSING),
        (Action("chmod", "nope.txt", execute_filemode=True), FILE_MISSING),
        (Action("move", "b.txt", previous_path="nope.txt"), FILE_MISSING),
        (Action("move", "src/app.py", previous_path="README.md"), FILE_EXISTS),
        (Action("move", "src/lib", previous_path="README.md"), DIR_EXISTS),
        (create(""), EMPTY_PATH),
        (create("/"), EMPTY_PATH),
        (create("a/../b.txt"), TRAVERSAL),
        (create("../b.txt"), TRAVERSAL),
        (update("README.md", b"# demo\n"), NO_CHANGES),
    ],
)
def test_write_errors(repo: Repository, action: Action, message: str) -> None:
    before = repo.refs()
    with pytest.raises(BadRequest) as error:
        write(repo, action)
    assert error.value.status == 400
    assert error.value.body == {"message": message}
    assert repo.refs() == before


def test_branch_errors_on_commit(repo: Repository) -> None:
    with pytest.raises(BadRequest) as error:
        write(repo, create("a.txt"), branch="missing")
    assert message_of(error) == NOT_ON_BRANCH
    with pytest.raises(BadRequest) as error:
        write(repo, create("a.txt"), branch="feature", start_branch="missing")
    assert message_of(error) == NOT_ON_BRANCH
    repo.create_branch("feature", "main")
    with pytest.raises(BadRequest) as error:
        write(repo, create("a.txt"), branch="feature", start_branch="main")
    assert message_of(error) == (
        "A branch called 'feature' already exists. Switch to that branch in order to make changes"
    )
    with pytest.raises(BadRequest) as error:
        write(repo, create("a.txt"), branch="bad..name", start_branch="main")
    assert message_of(error) == (
        "Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid"
    )


def test_start_branch_and_force(repo: Repository) -> None:
    main = repo.branch("main").commit_id  # type: ignore[union-attr]
    sha = write(repo, create("f.txt"), branch="feature", start_branch="main")
    assert repo.get_commit(sha).parent_ids == (main,)
    assert repo.branch("main").commit_id == main  # type: ignore[union-attr]
    forced = write(repo, create("g.txt"), branch="feature", start_branch="main", force=True)
    assert repo.get_commit(forced).parent_ids == (main,)
    assert not repo.exists("feature", "f.txt")


def test_stale_last_commit_id(repo: Repository) -> None:
    old = repo.read_file("main", "README.md").last_commit_id
    write(repo, update("README.md", b"v2\n"), minutes=1)
    with pytest.raises(BadRequest) as error:
        write(repo, update("README.md", b"v3\n", last_commit_id=old), minutes=2)
    assert message_of(error) == STALE_UPDATE
    with pytest.raises(BadRequest) as error:
        write(repo, delete("README.md", last_commit_id=old), minutes=2)
    assert message_of(error) == STALE_DELETE
    with pytest.raises(BadRequest) as error:
        write(repo, update("README.md", b"v3\n", last_commit_id=old), api="commits")
    assert message_of(error) == "The file has changed since you started editing it: README.md"
    current = repo.read_file("main", "README.md").last_commit_id
    write(repo, update("README.md", b"v3\n", last_commit_id=current), minutes=3)


def test_unknown_action_is_a_parameter_error(repo: Repository) -> None:
    with pytest.raises(ParamError):
        write(repo, Action("rename", "x.txt"))


# -- reads and history ---------------------------------------------------------------------


def test_read_errors(repo: Repository) -> None:
    with pytest.raises(NotFound) as error:
        repo.read_file("nope", "README.md")
    assert message_of(error) == "404 Commit Not Found"
    with pytest.raises(NotFound) as error:
        repo.read_file("main", "missing.md")
    assert message_of(error) == "404 File Not Found"
    with pytest.raises(NotFound):
        repo.read_file("main", "src")
    with pytest.raises(NotFound):
        repo.raw("main", "")
    with pytest.raises(NotFound) as error:
        repo.tree("nope")
    assert message_of(error) == "404 Tree Not Found"


def test_last_commit_id_tracks_the_path(repo: Repository) -> None:
    initial = repo.branch("main").commit_id  # type: ignore[union-attr]
    touched = write(repo, update("README.md", b"v2\n"), minutes=1)
    write(repo, create("other.txt"), minutes=2)
    head = write(repo, update("src/app.py", b"v2\n"), minutes=3)
    assert repo.read_file("main", "README.md").last_commit_id == touched
    assert repo.read_file("main", "README.md").commit_id == head
    assert repo.read_file("main", "src/lib/util.py").last_commit_id == initial
    assert repo.last_commit_id("main", "src") == head
    assert repo.last_commit_id("main", "nope") is None
    chmod = write(repo, Action("chmod", "README.md", execute_filemode=True), minutes=4)
    assert repo.read_file("main", "README.md").last_commit_id == chmod


def test_commits_listing(repo: Repository) -> None:
    initial = repo.branch("main").commit_id  # type: ignore[union-attr]
    second = write(repo, update("README.md", b"v2\n"), minutes=10, message="Second")
    third = write(repo, create("x.txt"), minutes=20, message="Third")
    assert [c.id for c in repo.commits("main")] == [third, second, initial]
    assert [c.id for c in repo.commits()] == [third, second, initial]
    assert [c.id for c in repo.commits("main", path="README.md")] == [second, initial]
    assert [c.id for c in repo.commits("main", path="x.txt")] == [third]
    assert [c.id for c in repo.commits("main", path="nothing")] == []
    since = T0 + dt.timedelta(minutes=5)
    until = T0 + dt.timedelta(minutes=15)
    assert [c.id for c in repo.commits("main", since=since)] == [third, second]
    assert [c.id for c in repo.commits("main", until=until)] == [second, initial]
    with pytest.raises(NotFound):
        repo.commits("nope")


def test_merge_history(repo: Repository) -> None:
    base = repo.branch("main").commit_id  # type: ignore[union-attr]
    side = write(repo, create("side.txt"), branch="side", start_branch="main", minutes=1)
    main = write(repo, update("README.md", b"main\n"), minutes=2)
    editor_sha = write(repo, create("side.txt"), branch="tmp", start_branch="main", minutes=3)
    merged_tree = repo.get_commit(editor_sha).tree_id
    merge = repo.create_commit(
        merged_tree,
        [main, side],
        message="Merge side",
        author_name="M",
        author_email="m@example.com",
        when=T0 + dt.timedelta(minutes=4),
    )
    repo.set_branch("main", merge)
    assert repo.merge_base(main, side) == base
    assert repo.is_ancestor(side, "main")
    assert not repo.is_ancestor(main, side)
    assert [c.id for c in repo.commits("main", first_parent=True)] == [merge, main, base]
    assert set(c.id for c in repo.commits("main")) == {merge, main, side, base}
    assert repo.read_file("main", "side.txt").last_commit_id == side
    assert [c.id for c in repo.commits("main", path="side.txt")] == [side]


def test_diff_and_stats(repo: Repository) -> None:
    sha = write(
        repo,
        update("README.md", b"# demo\nnew line\n"),
        Action("move", "src/main.py", previous_path="src/app.py"),
        delete("src/lib/util.py"),
        create("added.txt", b"no newline"),
    )
    entries = {e.new_path: e for e in repo.diff(sha)}
    readme = entries["README.md"]
    assert readme.diff == "@@ -1 +1,2 @@\n # demo\n+new line\n"
    assert entries["src/main.py"].renamed_file
    assert entries["src/main.py"].old_path == "src/app.py"
    assert entries["src/lib/util.py"].deleted_file
    assert entries["src/lib/util.py"].b_mode == "0"
    assert entries["added.txt"].new_file
    assert entries["added.txt"].diff.endswith("+no newline\n\\ No newline at end of file\n")
    stats = repo.commit_stats(sha)
    assert (stats.additions, stats.deletions, stats.total) == (2, 1, 3)
    first = repo.get_commit(sha).parent_ids[0]
    assert [e.new_path for e in repo.compare(first, sha)] == [e.new_path for e in repo.diff(sha)]


# -- blame ---------------------------------------------------------------------------------


def test_blame_attributes_lines_across_commits() -> None:
    repository = Repository()
    c1 = write(repository, create("f.txt", b"a\nb\nc\n"), author="One")
    c2 = write(repository, update("f.txt", b"a\nB\nc\nd\n"), author="Two", minutes=1)
    write(repository, create("other.txt"), minutes=2)
    c4 = write(repository, update("f.txt", b"z\na\nB\nc\nd\n"), author="Four", minutes=3)
    ranges = repository.blame("main", "f.txt")
    assert [(r.commit.id, r.lines) for r in ranges] == [
        (c4, ("z",)),
        (c1, ("a",)),
        (c2, ("B",)),
        (c1, ("c",)),
        (c2, ("d",)),
    ]
    assert ranges[0].commit.author_name == "Four"
    assert ranges[1].commit.parent_ids == ()
    assert [r.lines for r in repository.blame("main", "f.txt", 2, 3)] == [("a",), ("B",)]
    assert [r.lines for r in repository.blame("main", "f.txt", 4, 99)] == [("c",), ("d",)]
    assert [r.lines for r in repository.blame(c2, "f.txt")] == [("a",), ("B",), ("c",), ("d",)]


def test_blame_groups_consecutive_lines() -> None:
    repository = Repository()
    c1 = write(repository, create("f.txt", b"1\n2\n3\n"))
    c2 = write(repository, update("f.txt", b"1\n2\n3\n4\n5\n"), minutes=1)
    ranges = repository.blame("main", "f.txt")
    assert [(r.commit.id, r.lines) for r in ranges] == [(c1, ("1", "2", "3")), (c2, ("4", "5"))]


def test_blame_errors(repo: Repository) -> None:
    with pytest.raises(ParamError):
        repo.blame("main", "README.md", 0, 1)
    with pytest.raises(ParamError):
        repo.blame("main", "README.md", 1, 0)
    with pytest.raises(BadRequest):
        repo.blame("main", "README.md", 3, 2)
    with pytest.raises(NotFound):
        repo.blame("main", "missing.txt")
    with pytest.raises(NotFound):
        repo.blame("nope", "README.md")


def test_blame_of_empty_file() -> None:
    repository = Repository()
    write(repository, create("empty.txt", b""))
    assert repository.blame("main", "empty.txt") == []


# -- trees ---------------------------------------------------------------------------------


def test_tree_listing_order(repo: Repository) -> None:
    write(repo, create("a.txt"), create("zdir/file.txt"), create("b-dir/f.txt"))
    top = repo.tree("main")
    assert [(e.name, e.type) for e in top] == [
        ("b-dir", "tree"),
        ("src", "tree"),
        ("zdir", "tree"),
        ("README.md", "blob"),
        ("a.txt", "blob"),
    ]
    assert top[1].mode == "040000"
    assert top[3].mode == "100644"
    assert top[3].id == blob_id(b"# demo\n")
    nested = repo.tree("main", "src", recursive=True)
    assert [e.path for e in nested] == ["src/lib", "src/app.py", "src/lib/util.py"]
    assert [e.path for e in repo.tree("main", "src/lib")] == ["src/lib/util.py"]
    with pytest.raises(NotFound):
        repo.tree("main", "README.md")


# -- refs ----------------------------------------------------------------------------------


def test_branches_and_resolution(repo: Repository) -> None:
    head = repo.branch("main").commit_id  # type: ignore[union-attr]
    repo.create_branch("zeta", "main")
    repo.create_branch("alpha", head[:7])
    assert [b.name for b in repo.branches()] == ["alpha", "main", "zeta"]
    assert repo.resolve("HEAD") == head
    assert repo.resolve(head) == head
    assert repo.resolve(head.upper()) == head
    assert repo.resolve(head[:7]) == head
    assert repo.resolve(head[:6]) is None
    assert repo.resolve("refs/heads/zeta") == head
    assert repo.resolve("heads/zeta") == head
    assert repo.resolve("nope") is None
    assert repo.resolve("") is None
    tree_id = repo.get_commit(head).tree_id
    assert repo.resolve(tree_id) is None
    repo.delete_branch("zeta")
    assert repo.branch("zeta") is None


def test_branch_errors(repo: Repository) -> None:
    with pytest.raises(BadRequest) as error:
        repo.create_branch("main", "main")
    assert message_of(error) == "Branch already exists"
    with pytest.raises(BadRequest) as error:
        repo.create_branch("new", "nope")
    assert message_of(error) == "Invalid reference name: nope"
    for bad in ("a..b", "HEAD", "-x", "x.lock", "sp ace", ""):
        with pytest.raises(BadRequest) as error:
            repo.create_branch(bad, "main")
        assert message_of(error) == "Branch name is invalid"
    with pytest.raises(NotFound) as error:
        repo.delete_branch("nope")
    assert message_of(error) == "404 Branch Not Found"
    with pytest.raises(ApiError) as error:
        repo.delete_branch("main")
    assert error.value.status == 405
    assert message_of(error) == "The default branch of a project cannot be deleted."


def test_tags(repo: Repository) -> None:
    head = repo.branch("main").commit_id  # type: ignore[union-attr]
    light = repo.create_tag("v1.0", "main", when=T0)
    assert (light.target, light.commit_id, light.message, light.created_at) == (
        head,
        head,
        None,
        None,
    )
    annotated = repo.create_tag(
        "v2.0", head, "Release 2", tagger_name="Rel", tagger_email="rel@example.com", when=T0
    )
    assert annotated.target != head
    assert annotated.commit_id == head
    assert annotated.message == "Release 2"
    assert annotated.tagger_name == "Rel"
    assert annotated.created_at == T0
    assert [t.name for t in repo.tags()] == ["v1.0", "v2.0"]
    assert repo.resolve("v2.0") == head
    newer = write(repo, create("n.txt"), minutes=1)
    repo.create_branch("v1.0", newer)
    assert repo.resolve("v1.0") == head  # tags win over branches, as in git
    with pytest.raises(Conflict) as error:
        repo.create_tag("v1.0", "main", when=T0)
    assert message_of(error) == "Tag v1.0 already exists"
    with pytest.raises(BadRequest) as error:
        repo.create_tag("v3", "nope", when=T0)
    assert message_of(error) == "Target nope is invalid"
    with pytest.raises(BadRequest) as error:
        repo.create_tag("bad..tag", "main", when=T0)
    assert message_of(error) == "Tag name invalid"
    repo.delete_tag("v1.0")
    with pytest.raises(NotFound) as error:
        repo.delete_tag("v1.0")
    assert message_of(error) == "404 Tag Not Found"


def test_first_branch_becomes_default() -> None:
    repository = Repository(default_branch="main")
    assert repository.is_empty
    assert repository.resolve("HEAD") is None
    write(repository, create("a.txt"), branch="trunk")
    assert repository.default_branch == "trunk"
    assert repository.refs()["refs/heads/trunk"] == repository.resolve("HEAD")
    repository.default_branch = "main"
    assert repository.resolve("HEAD") is None


# -- persistence ---------------------------------------------------------------------------


def test_pickle_round_trip(repo: Repository) -> None:
    repo.create_tag("v1", "main", "annotated", tagger_name="T", tagger_email="t@x", when=T0)
    repo.read_file("main", "README.md")  # warm caches; they are not part of the state
    copy = pickle.loads(pickle.dumps(repo))
    assert copy.refs() == repo.refs()
    assert copy.default_branch == repo.default_branch
    assert copy.read_file("main", "README.md") == repo.read_file("main", "README.md")
    assert copy.tags() == repo.tags()
    write(copy, create("only-in-copy.txt"), minutes=1)
    assert not repo.exists("main", "only-in-copy.txt")
    assert copy.exists("main", "only-in-copy.txt")
    assert pickle.dumps(repo) == pickle.dumps(pickle.loads(pickle.dumps(repo)))


# -- scale ---------------------------------------------------------------------------------


def test_large_repository_operations_after_a_pickle_round_trip() -> None:
    repository = Repository()
    write(repository, *[create(f"d{i % 10}/f{i}.txt", b"%d\n" % i) for i in range(1000)])
    for i in range(999):
        write(repository, update(f"d{i % 10}/f{i}.txt", b"u%d\n" % i), minutes=i + 1)
    fresh = pickle.loads(pickle.dumps(repository))  # cold caches
    assert fresh.read_file("main", "d9/f999.txt").blob_id == blob_id(b"999\n")
    write(fresh, create("d1/new.txt", b"n\n"), minutes=2000)
    last = fresh.read_file("main", "d5/f5.txt").last_commit_id
    sha = write(fresh, update("d5/f5.txt", b"z\n", last_commit_id=last), minutes=2001)
    assert fresh.read_file("main", "d5/f5.txt").last_commit_id == sha


# -- properties ----------------------------------------------------------------------------

PATHS = ["a.txt", "b.txt", "dir", "dir/c.txt", "dir/sub/d.txt"]
contents = st.lists(st.sampled_from(["alpha", "beta", "gamma", "", "delta"]), max_size=6).map(
    lambda lines: "\n".join(lines).encode()
) | st.lists(st.sampled_from(["x", "y", "z"]), max_size=5).map(
    lambda lines: "".join(f"{line}\n" for line in lines).encode()
)
operations = st.lists(
    st.tuples(st.sampled_from(["create", "update", "delete"]), st.sampled_from(PATHS), contents),
    min_size=1,
    max_size=12,
)


def expected_error(kind: str, path: str, content: bytes, model: dict[str, bytes]) -> str | None:
    is_dir = any(p.startswith(path + "/") for p in model)
    parts = path.split("/")
    parent_is_file = any("/".join(parts[:i]) in model for i in range(1, len(parts)))
    if kind == "create":
        if path in model or parent_is_file:
            return FILE_EXISTS
        return DIR_EXISTS if is_dir else None
    if path not in model:
        return FILE_MISSING
    if kind == "update" and model[path] == content:
        return NO_CHANGES
    return None


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations)
def test_random_edits_match_git_and_blame_reproduces_content(
    ops: list[tuple[str, str, bytes]],
) -> None:
    repository = Repository()
    model: dict[str, bytes] = {}
    for step, (kind, path, content) in enumerate(ops):
        problem = expected_error(kind, path, content, model)
        before = repository.refs()
        action = Action(kind, path, None if kind == "delete" else content)
        if problem is not None:
            with pytest.raises(BadRequest) as error:
                write(repository, action, minutes=step)
            assert error.value.body == {"message": problem}
            assert repository.refs() == before
            continue
        write(repository, action, minutes=step)
        if kind == "delete":
            del model[path]
        else:
            model[path] = content
        check_state(repository, model)


def check_state(repository: Repository, model: dict[str, bytes]) -> None:
    blobs = {e.path for e in repository.tree("main", recursive=True) if e.type == "blob"}
    assert blobs == set(model)
    for path, content in model.items():
        info = repository.read_file("main", path)
        assert info.blob_id == hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()
        ranges = repository.blame("main", path)
        lines = [line for blame_range in ranges for line in blame_range.lines]
        assert lines == split_lines(content)
        for blame_range in ranges:
            older = split_lines(repository.raw(blame_range.commit.id, path))
            assert all(line in older for line in blame_range.lines)
