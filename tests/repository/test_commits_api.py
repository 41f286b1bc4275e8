"""Commits and tree endpoints through raw HTTP: history with filters and pagination, one
commit with stats, diffs, atomic multi-file commits and tree listings."""

from __future__ import annotations

import base64
from typing import Any
from urllib.parse import urlencode

import pytest

from fakeservice import FakeService
from fakeservice.web.http import Response

from .helpers import call, repository_state

SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-01-03T09:00:00Z"},
    "users": [
        {"username": "root", "admin": True, "tokens": [{"token": "root-token"}]},
        {"username": "alice", "name": "Alice Liddell", "email": "alice@example.com",
         "tokens": [{"token": "alice-token"}]},
        {"username": "bob", "name": "Bob Builder", "email": "bob@example.com"},
        {"username": "dev", "name": "Dee Developer", "email": "dee@example.com",
         "tokens": [{"token": "dev-token"}]},
    ],
    "groups": [
        {"path": "acme", "visibility": "public", "members": [{"user": "alice", "role": "owner"}]},
    ],
    "projects": [
        {
            "path": "acme/web",
            "visibility": "public",
            "creator": "alice",
            "members": [{"user": "dev", "role": "developer"}],
            "files": {"README.md": "# Web\n", "src/app.py": "a\nb\nc\n", "bin/run": "go\n"},
            "branches": [{"name": "feature"}],
            "commits": [
                {"message": "Bob edits\n\nSigned-off-by: Bob <bob@example.com>\nCo-authored-by: A <a@x>\n"
                            "Co-authored-by: B <b@x>",
                 "author": "bob", "at": "2026-01-01T12:00:00Z",
                 "files": {"src/app.py": "a\nB\nc\nd\n"}},
                {"message": "Docs", "author": "alice", "at": "2026-01-02T12:00:00Z",
                 "files": {"docs/index.md": "docs\n", "README.md": None}},
            ],
        },
    ],
}  # fmt: skip

API = "/projects/acme%2Fweb"
COMMITS = f"{API}/repository/commits"


def titles(response: Response) -> list[str]:
    return [commit["title"] for commit in response.json()]


def test_history_and_filters(svc: FakeService) -> None:
    assert titles(call(svc, "GET", COMMITS)) == ["Docs", "Bob edits", "Initial commit"]
    assert titles(call(svc, "GET", COMMITS + "?ref_name=feature")) == ["Initial commit"]
    assert titles(call(svc, "GET", COMMITS + "?path=src%2Fapp.py")) == [
        "Bob edits",
        "Initial commit",
    ]
    assert titles(call(svc, "GET", COMMITS + "?path=src")) == ["Bob edits", "Initial commit"]
    since = "?since=2026-01-01T12:00:00Z&until=2026-01-02T00:00:00Z"
    assert titles(call(svc, "GET", COMMITS + since)) == ["Bob edits"]
    assert titles(call(svc, "GET", COMMITS + "?author=bob")) == ["Bob edits"]
    assert titles(call(svc, "GET", COMMITS + "?ref_name=nope")) == []
    assert len(call(svc, "GET", COMMITS + "?all=true").json()) == 3
    bad = call(svc, "GET", COMMITS + "?since=yesterday")
    assert (bad.status, bad.json()) == (400, {"error": "since is invalid"})


def test_history_pagination(svc: FakeService) -> None:
    page = call(svc, "GET", COMMITS + "?per_page=2")
    assert titles(page) == ["Docs", "Bob edits"]
    assert (page.header("X-Total"), page.header("X-Next-Page")) == ("3", "2")
    assert titles(call(svc, "GET", COMMITS + "?per_page=2&page=2")) == ["Initial commit"]


def test_trailers_and_stats_in_lists(svc: FakeService) -> None:
    plain = call(svc, "GET", COMMITS).json()[1]
    assert (plain["trailers"], plain["extended_trailers"]) == ({}, {})
    assert "stats" not in plain
    commit = call(svc, "GET", COMMITS + "?with_stats=true&trailers=true").json()[1]
    assert commit["trailers"] == {
        "Signed-off-by": "Bob <bob@example.com>",
        "Co-authored-by": "B <b@x>",
    }
    assert commit["extended_trailers"] == {
        "Signed-off-by": ["Bob <bob@example.com>"],
        "Co-authored-by": ["A <a@x>", "B <b@x>"],
    }
    assert commit["stats"] == {"additions": 2, "deletions": 1, "total": 3}
    detail = call(svc, "GET", f"{COMMITS}/{commit['id']}").json()
    assert detail["extended_trailers"] == commit["extended_trailers"]


def test_single_commit(svc: FakeService) -> None:
    listed = call(svc, "GET", COMMITS).json()[0]
    detail = call(svc, "GET", f"{COMMITS}/{listed['id']}").json()
    assert detail == {
        **listed,
        "stats": {"additions": 1, "deletions": 1, "total": 2},
        "status": None,
        "project_id": 1,
        "last_pipeline": None,
    }
    assert list(detail)[-4:] == ["stats", "status", "project_id", "last_pipeline"]
    assert call(svc, "GET", f"{COMMITS}/main").json()["id"] == listed["id"]
    assert call(svc, "GET", f"{COMMITS}/{listed['short_id']}").json()["id"] == listed["id"]
    assert "stats" not in call(svc, "GET", f"{COMMITS}/main?stats=false").json()
    missing = call(svc, "GET", f"{COMMITS}/{'f' * 40}")
    assert (missing.status, missing.json()) == (404, {"message": "404 Commit Not Found"})


def test_diff(svc: FakeService) -> None:
    body = call(svc, "GET", f"{COMMITS}/main/diff").json()
    assert [(d["old_path"], d["new_path"], d["new_file"], d["deleted_file"]) for d in body] == [
        ("README.md", "README.md", False, True),
        ("docs/index.md", "docs/index.md", True, False),
    ]
    assert body[1] == {
        "diff": "@@ -0,0 +1 @@\n+docs\n",
        "collapsed": False,
        "too_large": False,
        "new_path": "docs/index.md",
        "old_path": "docs/index.md",
        "a_mode": "0",
        "b_mode": "100644",
        "new_file": True,
        "renamed_file": False,
        "deleted_file": False,
        "generated_file": None,
    }


# -- creating commits ---------------------------------------------------------------------


def actions_body(*actions: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"branch": "feature", "commit_message": "Many things", "actions": list(actions), **extra}


def test_create_commit_with_every_action(svc: FakeService) -> None:
    svc.clock.advance(seconds=30)
    body = actions_body(
        {"action": "create", "file_path": "new.txt", "content": "new\n"},
        {"action": "update", "file_path": "src/app.py", "content": "z\n"},
        {"action": "delete", "file_path": "README.md"},
        {"action": "move", "file_path": "scripts/run", "previous_path": "bin/run"},
        {"action": "chmod", "file_path": "scripts/run", "execute_filemode": True},
        {"action": "create", "file_path": "b64.bin", "content": base64.b64encode(b"\0\1").decode(),
         "encoding": "base64"},
        author_name="Ghost",
        author_email="ghost@example.com",
    )  # fmt: skip
    response = call(svc, "POST", COMMITS, "dev-token", json_body=body)
    assert response.status == 201
    commit = response.json()
    assert (commit["title"], commit["author_name"], commit["committer_name"]) == (
        "Many things",
        "Ghost",
        "Dee Developer",
    )
    assert commit["committed_date"] == "2026-01-03T09:00:30Z"
    assert commit["stats"] == {"additions": 2, "deletions": 4, "total": 6}
    assert (commit["status"], commit["project_id"], commit["last_pipeline"]) == (None, 1, None)
    tree = call(svc, "GET", f"{API}/repository/tree?ref=feature&recursive=true").json()
    assert {(e["path"], e["mode"]) for e in tree if e["type"] == "blob"} == {
        ("new.txt", "100644"),
        ("src/app.py", "100644"),
        ("scripts/run", "100755"),
        ("b64.bin", "100644"),
    }
    raw = call(svc, "GET", f"{API}/repository/files/scripts%2Frun/raw?ref=feature")
    assert raw.body == b"go\n"


def test_commit_onto_a_new_branch(svc: FakeService) -> None:
    body = actions_body(
        {"action": "create", "file_path": "x", "content": "x"}, branch="side", start_branch="main"
    )
    response = call(svc, "POST", COMMITS, "dev-token", json_body=body)
    main = call(svc, "GET", f"{COMMITS}/main").json()
    assert response.json()["parent_ids"] == [main["id"]]
    again = call(svc, "POST", COMMITS, "dev-token", json_body=body)
    assert again.json() == {
        "message": "A branch called 'side' already exists. Switch to that branch in order to "
        "make changes"
    }
    body["force"] = True
    assert call(svc, "POST", COMMITS, "dev-token", json_body=body).status == 201


@pytest.mark.parametrize(
    ("actions", "status", "answer"),
    [
        ([{"action": "create", "file_path": "ok.txt", "content": "x"},
          {"action": "create", "file_path": "README.md", "content": "x"}],
         400, {"message": "A file with this name already exists"}),
        ([{"action": "delete", "file_path": "ok.txt"}], 400,
         {"message": "A file with this name doesn't exist"}),
        ([{"action": "update", "file_path": "src/app.py", "content": "q", "last_commit_id": "0" * 40}],
         400, {"message": "The file has changed since you started editing it: src/app.py"}),
        ([{"action": "rename", "file_path": "x"}], 400,
         {"error": "actions[0][action] does not have a valid value"}),
        ([{"file_path": "x"}], 400, {"error": "actions[0][action] is missing"}),
        ([{"action": "create", "file_path": "x", "content": "%%", "encoding": "base64"}], 400,
         {"error": "actions[0][content] is invalid"}),
        ([], 400, {"error": "actions is empty"}),
        (["create"], 400, {"error": "actions is invalid"}),
    ],
)  # fmt: skip
def test_failing_commits_leave_the_repository_untouched(
    svc: FakeService, actions: list[Any], status: int, answer: dict[str, str]
) -> None:
    before = repository_state(svc)
    response = call(svc, "POST", COMMITS, "dev-token", json_body=actions_body(*actions))
    assert (response.status, response.json()) == (status, answer)
    assert repository_state(svc) == before


def test_commit_permissions(svc: FakeService) -> None:
    body = actions_body({"action": "create", "file_path": "x", "content": "x"}, branch="main")
    assert call(svc, "POST", COMMITS, "dev-token", json_body=body).json() == {
        "message": "403 Forbidden - You are not allowed to push into this branch"
    }
    assert call(svc, "POST", COMMITS, json_body=body).status == 401
    assert call(svc, "POST", COMMITS, "alice-token", json_body=body).status == 201


def test_commit_parameters_as_a_form(svc: FakeService) -> None:
    query = [
        ("branch", "feature"),
        ("commit_message", "form"),
        ("actions[][action]", "create"),
        ("actions[][file_path]", "f1"),
        ("actions[][content]", "1"),
        ("actions[][action]", "create"),
        ("actions[][file_path]", "f2"),
    ]
    response = call(
        svc,
        "POST",
        COMMITS,
        "dev-token",
        body=urlencode(query).encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status == 201, response.body
    tree = call(svc, "GET", f"{API}/repository/tree?ref=feature").json()
    assert {"f1", "f2"} <= {entry["name"] for entry in tree}


# -- tree ---------------------------------------------------------------------------------


def test_tree(svc: FakeService) -> None:
    root = call(svc, "GET", f"{API}/repository/tree")
    assert [(e["type"], e["path"]) for e in root.json()] == [
        ("tree", "bin"),
        ("tree", "docs"),
        ("tree", "src"),
    ]
    app = call(svc, "GET", f"{API}/repository/tree?path=src").json()
    assert app == [
        {
            "id": app[0]["id"],
            "name": "app.py",
            "type": "blob",
            "path": "src/app.py",
            "mode": "100644",
        }
    ]
    deep = call(svc, "GET", f"{API}/repository/tree?recursive=true&per_page=2")
    assert deep.header("X-Total") == "6"
    assert [e["path"] for e in deep.json()] == ["bin", "docs"]
    old = call(svc, "GET", f"{API}/repository/tree?ref=feature").json()
    assert "README.md" in [e["path"] for e in old]
    for query in ("?path=nope", "?ref=nope"):
        missing = call(svc, "GET", f"{API}/repository/tree{query}")
        assert (missing.status, missing.json()) == (404, {"message": "404 Tree Not Found"})
