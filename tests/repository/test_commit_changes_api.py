"""Commit refs, cherry-pick, revert and commit comments over raw HTTP and python-gitlab."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest

from fakeservice import FakeService

SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-01-01T09:00:00Z"},
    "users": [
        {"username": "maint", "name": "Mai", "email": "mai@example.com",
         "tokens": [{"token": "maint-token"}]},
        {"username": "dev", "name": "Dev", "email": "dev@example.com",
         "tokens": [{"token": "dev-token"}]},
        {"username": "rep", "tokens": [{"token": "rep-token"}]},
    ],
    "projects": [
        {"path": "maint/web", "visibility": "public", "creator": "maint",
         "members": [{"user": "dev", "role": "developer"}, {"user": "rep", "role": "reporter"}],
         "files": {"README.md": "# Web\n", "src/app.py": "print(1)\n"},
         "branches": [{"name": "feature", "from": "main"}, {"name": "stable", "from": "main"}],
         "commits": [
             {"message": "Add docs\n\nWith a body", "author": "dev", "branch": "feature",
              "at": "2026-01-01T10:00:00Z", "files": {"docs/a.md": "A\n"}},
             {"message": "Change app", "author": "dev", "branch": "feature",
              "at": "2026-01-01T11:00:00Z", "files": {"src/app.py": "print(2)\n"}},
             {"message": "Stable app", "author": "maint", "branch": "stable",
              "at": "2026-01-01T12:00:00Z", "files": {"src/app.py": "print(3)\n"}},
         ],
         "tags": [{"name": "v1", "ref": "main"}]},
    ],
}  # fmt: skip
P = "/projects/maint%2Fweb"


def call(
    svc: FakeService, method: str, url: str, token: str | None = "maint-token", **kw: Any
) -> Any:
    return svc.request(method, P + url, token=token, **kw)


def history(svc: FakeService, ref: str) -> list[dict[str, Any]]:
    return call(svc, "GET", "/repository/commits", query={"ref_name": ref}).json()


def test_refs_of_a_commit(svc: FakeService) -> None:
    root = history(svc, "main")[-1]["id"]
    every = call(svc, "GET", f"/repository/commits/{root}/refs").json()
    assert every == [
        {"type": "branch", "name": "feature"},
        {"type": "branch", "name": "main"},
        {"type": "branch", "name": "stable"},
        {"type": "tag", "name": "v1"},
    ]
    tip = history(svc, "feature")[0]["id"]
    only = call(svc, "GET", f"/repository/commits/{tip}/refs", query={"type": "branch"}).json()
    assert only == [{"type": "branch", "name": "feature"}]
    assert call(svc, "GET", f"/repository/commits/{tip}/refs", query={"type": "tag"}).json() == []
    bad = call(svc, "GET", f"/repository/commits/{tip}/refs", query={"type": "x"})
    assert bad.status == 400
    missing = call(svc, "GET", f"/repository/commits/{'1' * 40}/refs")
    assert (missing.status, missing.json()) == (404, {"message": "404 Commit Not Found"})


def test_cherry_pick_dry_run_then_real(svc: FakeService) -> None:
    docs = history(svc, "feature")[1]
    url = f"/repository/commits/{docs['id']}/cherry_pick"
    dry = call(svc, "POST", url, json_body={"branch": "main", "dry_run": True})
    assert (dry.status, dry.json()) == (200, {"dry_run": "success"})
    assert history(svc, "main")[0]["title"] == "Initial commit"
    picked = call(svc, "POST", url, json_body={"branch": "main"})
    assert picked.status == 201
    body = picked.json()
    assert body["message"] == f"Add docs\n\nWith a body\n\n(cherry picked from commit {docs['id']})"
    assert (body["author_name"], body["committer_name"]) == ("Dev", "Mai")
    assert history(svc, "main")[0]["id"] == body["id"]
    raw = call(svc, "GET", "/repository/files/docs%2Fa.md/raw", query={"ref": "main"})
    assert raw.body == b"A\n"
    again = call(svc, "POST", url, json_body={"branch": "main"})
    assert again.status == 400
    assert again.json() == {
        "message": "Sorry, we cannot cherry-pick this commit automatically. This commit may "
        "already have been cherry-picked, or a more recent commit may have updated some of "
        "its content.",
        "error_code": "empty",
    }


def test_cherry_pick_conflict_leaves_the_branch(svc: FakeService) -> None:
    change = history(svc, "feature")[0]
    before = history(svc, "stable")[0]["id"]
    url = f"/repository/commits/{change['id']}/cherry_pick"
    answer = call(svc, "POST", url, json_body={"branch": "stable"})
    assert answer.status == 400 and answer.json()["error_code"] == "conflict"
    assert history(svc, "stable")[0]["id"] == before
    dry = call(svc, "POST", url, json_body={"branch": "stable", "dry_run": True})
    assert (dry.status, dry.json()) == (200, {"dry_run": "error"})


def test_revert(svc: FakeService) -> None:
    change = history(svc, "feature")[0]
    url = f"/repository/commits/{change['id']}/revert"
    reverted = call(svc, "POST", url, json_body={"branch": "feature"})
    assert reverted.status == 201
    assert reverted.json()["message"] == (
        f'Revert "Change app"\n\nThis reverts commit {change["id"]}'
    )
    raw = call(svc, "GET", "/repository/files/src%2Fapp.py/raw", query={"ref": "feature"})
    assert raw.body == b"print(1)\n"
    twice = call(svc, "POST", url, json_body={"branch": "feature"})
    assert (twice.status, twice.json()["error_code"]) == (400, "empty")
    assert "cannot revert this commit" in twice.json()["message"]


@pytest.mark.parametrize(
    ("token", "body", "status", "message"),
    [
        ("rep-token", {"branch": "main"}, 403, "403 Forbidden - You are not allowed to push into this branch"),
        ("maint-token", {"branch": "nope"}, 404, "404 Branch Not Found"),
        ("maint-token", {}, 400, None),
    ],
)  # fmt: skip
def test_change_refusals(
    svc: FakeService, token: str, body: dict[str, Any], status: int, message: str | None
) -> None:
    change = history(svc, "feature")[0]["id"]
    for action in ("cherry_pick", "revert"):
        answer = call(svc, "POST", f"/repository/commits/{change}/{action}", token, json_body=body)
        assert answer.status == status
        if message:
            assert answer.json() == {"message": message}
    missing = call(
        svc, "POST", f"/repository/commits/{'1' * 40}/revert", json_body={"branch": "main"}
    )
    assert (missing.status, missing.json()) == (404, {"message": "404 Commit Not Found"})


def test_comments(svc: FakeService) -> None:
    sha = history(svc, "main")[0]["id"]
    url = f"/repository/commits/{sha}/comments"
    plain = call(svc, "POST", url, json_body={"note": "Nice"})
    assert plain.status == 201
    assert plain.json() == {
        "note": "Nice",
        "path": None,
        "line": None,
        "line_type": None,
        "author": plain.json()["author"],
        "created_at": "2026-01-01T09:00:00Z",
    }
    assert plain.json()["author"]["username"] == "maint"
    on_line = call(
        svc, "POST", url, "rep-token",
        json_body={"note": "Here", "path": "README.md", "line": 1, "line_type": "new"},
    ).json()  # fmt: skip
    assert (on_line["path"], on_line["line"], on_line["line_type"]) == ("README.md", 1, "new")
    listed = call(svc, "GET", url, None).json()
    assert [c["note"] for c in listed] == ["Nice", "Here"]
    assert call(svc, "POST", url, json_body={"note": ""}).status == 400
    assert call(svc, "POST", url, None, json_body={"note": "x"}).status == 401
    missing = call(svc, "GET", f"/repository/commits/{'1' * 40}/comments")
    assert missing.status == 404


def test_python_gitlab(served: tuple[FakeService, str], svc: FakeService) -> None:
    gl = gitlab.Gitlab(served[1], private_token="maint-token", retry_transient_errors=False)
    project = gl.projects.get("maint/web")
    commit = project.commits.get(history(svc, "feature")[1]["id"])
    assert [r["name"] for r in commit.refs("branch")] == ["feature"]
    assert [d["new_path"] for d in commit.diff()] == ["docs/a.md"]
    assert commit.cherry_pick("main", dry_run=True) == {"dry_run": "success"}
    picked = commit.cherry_pick("main")
    assert picked["title"] == "Add docs"
    with pytest.raises(gitlab.GitlabCherryPickError):
        commit.cherry_pick("main")
    reverted = commit.revert("feature")
    assert reverted["title"] == 'Revert "Add docs"'
    commit.comments.create({"note": "LGTM", "path": "docs/a.md", "line": 1, "line_type": "new"})
    assert [(c.note, c.line) for c in commit.comments.list()] == [("LGTM", 1)]
