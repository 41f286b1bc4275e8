"""The repository endpoints through python-gitlab (the reference client) over a live server:
files, commits, branches, tags, protected branches and the tree."""

from __future__ import annotations

import base64
from typing import Any

import gitlab
import pytest
from gitlab.v4.objects import Project

from fakeservice import FakeService

SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-01-01T09:00:00Z"},
    "users": [
        {"username": "maint", "name": "Mai Maintainer", "email": "mai@example.com",
         "tokens": [{"token": "maint-token"}]},
        {"username": "dev", "tokens": [{"token": "dev-token"}]},
    ],
    "groups": [{"path": "acme", "visibility": "public"}],
    "projects": [
        {"path": "acme/web", "visibility": "public", "creator": "maint",
         "members": [{"user": "maint", "role": "maintainer"}, {"user": "dev", "role": "developer"}],
         "files": {"README.md": "# Web\n", "src/app.py": "print(1)\n"},
         "commits": [{"message": "More", "author": "dev", "at": "2026-01-01T10:00:00Z",
                      "files": {"src/app.py": "print(1)\nprint(2)\n"}}]},
    ],
}  # fmt: skip


def client(url: str, token: str) -> gitlab.Gitlab:
    return gitlab.Gitlab(url, private_token=token, retry_transient_errors=False)


@pytest.fixture
def project(served: tuple[FakeService, str], svc: FakeService) -> Project:
    return client(served[1], "maint-token").projects.get("acme/web")


@pytest.fixture
def dev_project(served: tuple[FakeService, str], svc: FakeService) -> Project:
    return client(served[1], "dev-token").projects.get("acme/web")


def test_files_get_raw_head_and_blame(project: Project) -> None:
    file = project.files.get("src/app.py", ref="main")
    assert file.decode() == b"print(1)\nprint(2)\n"
    assert (file.file_name, file.file_path, file.ref) == ("app.py", "src/app.py", "main")
    assert project.files.raw("src/app.py", ref="main") == b"print(1)\nprint(2)\n"
    assert project.files.raw("README.md") == b"# Web\n"
    headers = project.files.head("src/app.py", ref="main")
    assert headers["X-Service-Blob-Id"] == file.blob_id
    assert headers["X-Service-Last-Commit-Id"] == file.last_commit_id
    blame = project.files.blame("src/app.py", ref="main")
    assert [(r["commit"]["author_name"], r["lines"]) for r in blame] == [
        ("Mai Maintainer", ["print(1)"]),
        ("dev", ["print(2)"]),
    ]


def test_file_create_update_delete(project: Project) -> None:
    created = project.files.create(
        {
            "file_path": "docs/guide.md",
            "branch": "main",
            "content": base64.b64encode(b"guide\n").decode(),
            "encoding": "base64",
            "commit_message": "Add guide",
        }
    )
    assert (created.file_path, created.branch) == ("docs/guide.md", "main")
    file = project.files.get("docs/guide.md", ref="main")
    assert file.decode() == b"guide\n"
    file.content = "guide v2\n"
    file.save(branch="main", commit_message="Update guide")
    assert project.files.raw("docs/guide.md", ref="main") == b"guide v2\n"
    project.files.update(
        "docs/guide.md",
        {
            "branch": "main",
            "content": "guide v3\n",
            "commit_message": "Again",
            "last_commit_id": project.files.get("docs/guide.md", ref="main").last_commit_id,
        },
    )
    project.files.get("docs/guide.md", ref="main").delete(branch="main", commit_message="Drop")
    with pytest.raises(gitlab.GitlabGetError) as missing:
        project.files.get("docs/guide.md", ref="main")
    assert missing.value.response_code == 404
    assert missing.value.error_message == "404 File Not Found"
    titles = [c.title for c in project.commits.list(get_all=True)]
    assert titles[:4] == ["Drop", "Again", "Update guide", "Add guide"]


def test_client_errors(project: Project, dev_project: Project) -> None:
    with pytest.raises(gitlab.GitlabCreateError) as exists:
        project.files.create(
            {"file_path": "README.md", "branch": "main", "content": "x", "commit_message": "m"}
        )
    assert (exists.value.response_code, exists.value.error_message) == (
        400,
        "A file with this name already exists",
    )
    with pytest.raises(gitlab.GitlabCreateError) as denied:
        dev_project.files.create(
            {"file_path": "x.txt", "branch": "main", "content": "x", "commit_message": "m"}
        )
    assert denied.value.response_code == 403
    assert (
        denied.value.error_message == "403 Forbidden - You are not allowed to push into this branch"
    )
    with pytest.raises(gitlab.GitlabDeleteError):
        project.files.delete("nope.txt", "main", "m")
    with pytest.raises(gitlab.GitlabGetError) as ref:
        project.files.get("README.md", ref="nope")
    assert ref.value.error_message == "404 Commit Not Found"


def test_commits_create_get_and_diff(dev_project: Project) -> None:
    commit = dev_project.commits.create(
        {
            "branch": "feature",
            "start_branch": "main",
            "commit_message": "Several files",
            "actions": [
                {"action": "create", "file_path": "a.txt", "content": "a\n"},
                {"action": "update", "file_path": "README.md", "content": "# Web!\n"},
                {"action": "move", "file_path": "lib/app.py", "previous_path": "src/app.py"},
            ],
        }
    )
    assert commit.title == "Several files"
    assert commit.stats == {"additions": 2, "deletions": 1, "total": 3}
    fetched = dev_project.commits.get(commit.id)
    assert fetched.parent_ids == [dev_project.branches.get("main").commit["id"]]
    diff = fetched.diff(get_all=True)
    assert sorted((d["old_path"], d["new_path"]) for d in diff) == [
        ("README.md", "README.md"),
        ("a.txt", "a.txt"),
        ("src/app.py", "lib/app.py"),
    ]


def test_a_directory_wider_than_a_chunk(project: Project) -> None:
    """300 files in one directory (kept as shared chunks): commits, reads, listing, diff."""
    actions = [
        {"action": "create", "file_path": f"wide/f{n:03d}.txt", "content": f"{n}\n"}
        for n in range(300)
    ]
    project.commits.create({"branch": "main", "commit_message": "wide", "actions": actions})
    project.files.create(
        {
            "file_path": "wide/f150.5.txt",
            "branch": "main",
            "content": "mid\n",
            "commit_message": "m",
        }
    )
    listed = project.repository_tree(path="wide", ref="main", get_all=True)
    names = [entry["name"] for entry in listed]
    assert len(names) == 301 and names[150:152] == ["f150.5.txt", "f150.txt"]
    file = project.files.get("wide/f150.5.txt", ref="main")
    assert file.decode() == b"mid\n"
    head = project.commits.get("main")
    assert file.last_commit_id == head.id
    assert project.files.get("wide/f299.txt", ref="main").last_commit_id == head.parent_ids[0]
    diff = head.diff(get_all=True)
    assert [(d["new_path"], d["new_file"]) for d in diff] == [("wide/f150.5.txt", True)]


def test_branches_and_tags(project: Project) -> None:
    project.branches.create({"branch": "feature/one", "ref": "main"})
    assert [b.name for b in project.branches.list(get_all=True)] == ["feature/one", "main"]
    branch = project.branches.get("feature/one")
    assert (branch.merged, branch.protected, branch.default) == (False, False, False)
    branch.delete()
    project.branches.create({"branch": "feature/two", "ref": "main"})
    project.branches.delete("feature/two")
    assert [b.name for b in project.branches.list(get_all=True)] == ["main"]
    tag = project.tags.create({"tag_name": "v1", "ref": "main", "message": "One"})
    assert (tag.name, tag.message) == ("v1", "One")
    assert [t.name for t in project.tags.list(get_all=True)] == ["v1"]


def test_protected_branches(project: Project) -> None:
    assert [p.name for p in project.protectedbranches.list(get_all=True)] == ["main"]
    rule = project.protectedbranches.create({"name": "release/*", "push_access_level": 30})
    assert rule.push_access_levels[0]["access_level_description"] == "Developers + Maintainers"
    assert project.protectedbranches.get("release/*").name == "release/*"
    project.protectedbranches.delete("release/*")
    assert [p.name for p in project.protectedbranches.list(get_all=True)] == ["main"]


def test_repository_tree(project: Project) -> None:
    tree = project.repository_tree(get_all=True)
    assert [(e["type"], e["name"]) for e in tree] == [("tree", "src"), ("blob", "README.md")]
    deep = project.repository_tree(path="src", recursive=True, get_all=True)
    assert [e["path"] for e in deep] == ["src/app.py"]
    many = [
        {"action": "create", "file_path": f"many/f{n:02d}.txt", "content": str(n)}
        for n in range(25)
    ]
    project.commits.create({"branch": "main", "commit_message": "many", "actions": many})
    listed = project.repository_tree(path="many", get_all=True, per_page=10)
    assert len(listed) == 25
    with pytest.raises(gitlab.GitlabGetError) as missing:
        project.repository_tree(path="nope")
    assert missing.value.error_message == "404 Tree Not Found"
