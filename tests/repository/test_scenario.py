"""Repository content declared in scenarios: files, commits with history (blame and
last_commit_id), branches, tags, protected branches, generated projects, errors, and
snapshots carrying repositories."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fakeservice import FakeService
from fakeservice.scenarios.loader import ScenarioError

USERS = [
    {"username": "root", "admin": True, "tokens": [{"token": "root-token"}]},
    {"username": "alice", "name": "Alice Liddell", "email": "alice@example.com"},
    {"username": "bob", "name": "Bob Builder", "email": "bob@example.com"},
]


def scenario(
    *projects: dict[str, Any], users: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {
        "clock": {"mode": "manual", "start": "2026-01-01T09:00:00Z"},
        "users": USERS if users is None else users,
        "groups": [{"path": "acme", "visibility": "public"}],
        "projects": list(projects),
    }


def get(svc: FakeService, path: str) -> Any:
    response = svc.request("GET", path, token="root-token")
    assert response.status == 200, response.body
    return response.json()


HISTORY = scenario(
    {
        "path": "acme/web",
        "creator": "alice",
        "files": {"README.md": "# Web\n", "app.py": "one\ntwo\n", "old.txt": "old\n"},
        "commits": [
            {"message": "Bob adds", "author": "bob", "at": "2026-01-02T10:00:00Z",
             "files": {"app.py": "one\ntwo\nthree\n", "new.txt": "n\n"}},
            {"message": "Tidy", "at": "2026-01-03T10:00:00Z",
             "files": {"README.md": None}, "moves": {"old.txt": "archive/old.txt"}},
            {"message": "Side", "author": "bob", "branch": "side", "from": "main",
             "files": {"side.txt": "s\n"}},
        ],
        "branches": [{"name": "stable", "from": "main"}],
        "tags": [{"name": "v1", "ref": "stable"}, {"name": "v2", "message": "Two", "author": "bob"}],
        "protected_branches": [{"name": "stable", "push": "developer", "merge": "no one"},
                               {"name": "main", "push": "maintainer", "allow_force_push": True}],
    }
)  # fmt: skip


@pytest.fixture(scope="module")
def history() -> FakeService:
    return FakeService(HISTORY)


def test_commits_make_history(history: FakeService) -> None:
    commits = get(history, "/projects/acme%2Fweb/repository/commits")
    assert [(c["title"], c["author_name"], c["committed_date"]) for c in commits] == [
        ("Tidy", "Alice Liddell", "2026-01-03T10:00:00Z"),
        ("Bob adds", "Bob Builder", "2026-01-02T10:00:00Z"),
        ("Initial commit", "Alice Liddell", "2026-01-01T09:00:00Z"),
    ]
    tidy, adds, initial = (c["id"] for c in commits)
    app = get(history, "/projects/acme%2Fweb/repository/files/app.py?ref=main")
    assert (app["commit_id"], app["last_commit_id"]) == (tidy, adds)
    blame = get(history, "/projects/acme%2Fweb/repository/files/app.py/blame?ref=main")
    assert [(r["commit"]["id"], r["lines"]) for r in blame] == [
        (initial, ["one", "two"]),
        (adds, ["three"]),
    ]
    moved = get(history, "/projects/acme%2Fweb/repository/files/archive%2Fold.txt?ref=main")
    assert moved["last_commit_id"] == tidy
    gone = history.request("GET", "/projects/acme%2Fweb/repository/files/README.md?ref=main")
    assert gone.status == 404


def test_branches_tags_and_rules(history: FakeService) -> None:
    branches = get(history, "/projects/acme%2Fweb/repository/branches")
    assert [b["name"] for b in branches] == ["main", "side", "stable"]
    side = get(history, "/projects/acme%2Fweb/repository/commits/side")
    assert side["parent_ids"] == [branches[0]["commit"]["id"]]
    tags = {t["name"]: t for t in get(history, "/projects/acme%2Fweb/repository/tags")}
    assert tags["v1"]["commit"]["id"] == branches[2]["commit"]["id"]
    assert tags["v2"]["message"] == "Two"
    rules = get(history, "/projects/acme%2Fweb/protected_branches")
    assert [(r["name"], r["allow_force_push"]) for r in rules] == [
        ("stable", False),
        ("main", True),
    ]
    stable = rules[0]
    assert stable["push_access_levels"][0]["access_level"] == 30
    assert stable["merge_access_levels"][0]["access_level_description"] == "No one"
    project = get(history, "/projects/acme%2Fweb")
    assert (project["empty_repo"], project["default_branch"], project["readme_url"]) == (
        False,
        "main",
        None,
    )


def test_generated_projects_get_files() -> None:
    svc = FakeService(
        scenario(
            {"generate": 3, "path": "acme/lib-{n}", "default_branch": "trunk",
             "files": {"README.md": "# lib\n"}},
        )
    )  # fmt: skip
    for n in (1, 2, 3):
        project = get(svc, f"/projects/acme%2Flib-{n}")
        assert project["readme_url"] == f"{project['web_url']}/-/blob/trunk/README.md"


def test_snapshots_and_reset_carry_repositories() -> None:
    svc = FakeService(HISTORY)
    snapshot = svc.snapshot()
    body = {"branch": "main", "content": "x", "commit_message": "later"}
    response = svc.request(
        "POST", "/projects/acme%2Fweb/repository/files/x.txt", token="root-token", json_body=body
    )
    assert response.status == 201
    svc.restore(snapshot)
    assert svc.request("GET", "/projects/acme%2Fweb/repository/files/x.txt?ref=main").status == 404
    svc.request(
        "POST", "/projects/acme%2Fweb/repository/files/x.txt", token="root-token", json_body=body
    )
    svc.reset()
    assert svc.request("GET", "/projects/acme%2Fweb/repository/files/x.txt?ref=main").status == 404
    assert get(svc, "/projects/acme%2Fweb/repository/commits/main")["title"] == "Tidy"


@pytest.mark.parametrize(
    ("project", "where", "message"),
    [
        ({"path": "acme/a", "commits": [{"author": "nobody", "files": {"a": "a"}}]},
         "projects[0].commits[0]", "unknown user 'nobody'"),
        ({"path": "acme/a", "branches": [{"name": "bad..name"}], "files": {"a": "a"}},
         "projects[0].branches", "Branch name is invalid"),
        ({"path": "acme/a", "files": {"a": "a"}, "commits": [{"files": {"a/b": "x"}}]},
         "projects[0].commits", "A file with this name already exists"),
        ({"path": "acme/a", "files": {"../a": "a"}},
         "projects[0].files", "Path cannot include directory traversal"),
    ],
)  # fmt: skip
def test_errors_name_the_key_and_load_nothing(
    project: dict[str, Any], where: str, message: str
) -> None:
    svc = FakeService(None)
    with pytest.raises(ScenarioError) as error:
        svc.load_scenario(scenario(project))
    assert (where, message) in error.value.problems
    assert svc.request("GET", "/projects/acme%2Fa").status == 404
    assert svc.store.extras.get("repositories", {}) == {}


def test_files_need_an_author() -> None:
    with pytest.raises(ScenarioError) as error:
        FakeService(scenario({"path": "acme/a", "files": {"a": "a"}}, users=[]))
    assert error.value.problems == [("projects[0].files", "no author: name one with `author`")]


def test_yaml_scenarios_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "repo.yaml"
    path.write_text(
        "users: [{username: root, admin: true}]\n"
        "groups: [{path: acme}]\n"
        "projects:\n"
        "  - path: acme/a\n"
        "    commits:\n"
        "      - mesage: typo\n"
    )
    with pytest.raises(ScenarioError) as error:
        FakeService(path)
    assert any("mesage" in message for _, message in error.value.problems)
