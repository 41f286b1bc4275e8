"""Repository files API through raw HTTP: reads, metadata headers, blame, raw, writes,
errors, permissions and scopes, and project hooks (README, empty_repo, readme_url)."""

from __future__ import annotations

import base64
import hashlib
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeservice import FakeService
from fakeservice.repository.git import split_lines

from .helpers import call, repository_state

T0 = "2026-01-01T09:00:00Z"
SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": T0},
    "users": [
        {"username": "root", "admin": True, "tokens": [{"token": "root-token"}]},
        {"username": "alice", "name": "Alice Liddell", "email": "alice@example.com",
         "tokens": [{"token": "alice-token"}]},
        {"username": "maint", "name": "Mai Maintainer", "tokens": [{"token": "maint-token"}]},
        {"username": "dev", "name": "Dee Developer", "email": "dee@example.com",
         "tokens": [{"token": "dev-token"},
                    {"token": "dev-readrepo", "scopes": ["read_repository"]},
                    {"token": "dev-readapi", "scopes": ["read_api"]}]},
        {"username": "rep", "tokens": [{"token": "rep-token"}]},
        {"username": "guest", "tokens": [{"token": "guest-token"}]},
        {"username": "outsider", "tokens": [{"token": "outsider-token"}]},
    ],
    "groups": [
        {"path": "acme", "visibility": "public", "members": [{"user": "alice", "role": "owner"}]},
        {"path": "lax", "visibility": "public", "default_branch_protection": 4},
    ],
    "projects": [
        {
            "path": "acme/web",
            "visibility": "public",
            "default_branch": "main",
            "members": [
                {"user": "maint", "role": "maintainer"},
                {"user": "dev", "role": "developer"},
                {"user": "rep", "role": "reporter"},
                {"user": "guest", "role": "guest"},
            ],
            "files": {"README.md": "# Web\n", "src/app.py": "print(1)\n"},
            "branches": [{"name": "feature/x"}],
            "commits": [
                {"message": "Second line", "author": "alice", "at": "2026-01-01T10:00:00Z",
                 "files": {"src/app.py": "print(1)\nprint(2)\n"}},
            ],
        },
        {
            "path": "acme/vault",
            "visibility": "private",
            "members": [{"user": "dev", "role": "developer"}, {"user": "guest", "role": "guest"}],
            "files": {"secret.txt": "s3cret\n"},
        },
        {"path": "acme/empty", "visibility": "public",
         "members": [{"user": "dev", "role": "developer"}, {"user": "maint", "role": "maintainer"}]},
        {"path": "lax/empty", "visibility": "public", "members": [{"user": "dev", "role": "developer"}]},
        {"path": "acme/old", "visibility": "public", "archived": True,
         "members": [{"user": "dev", "role": "developer"}], "files": {"a.txt": "a\n"}},
    ],
}  # fmt: skip

WEB = "/projects/acme%2Fweb/repository/files"


def git_blob_id(content: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(content) + content, usedforsecurity=False).hexdigest()


def head_of(svc: FakeService, branch: str = "main", project: str = "acme%2Fweb") -> str:
    response = call(svc, "GET", f"/projects/{project}/repository/branches/{quote(branch, safe='')}")
    return response.json()["commit"]["id"]


def write_body(**extra: Any) -> dict[str, Any]:
    return {"branch": "main", "commit_message": "edit", **extra}


# -- reads --------------------------------------------------------------------------------


def test_get_file_body_and_headers(svc: FakeService) -> None:
    head = head_of(svc)
    first = call(svc, "GET", "/projects/acme%2Fweb/repository/commits?ref_name=main").json()[-1]
    response = call(svc, "GET", f"{WEB}/README.md?ref=main")
    content = b"# Web\n"
    expected = {
        "file_name": "README.md",
        "file_path": "README.md",
        "size": 6,
        "encoding": "base64",
        "content_sha256": hashlib.sha256(content).hexdigest(),
        "ref": "main",
        "blob_id": git_blob_id(content),
        "commit_id": head,
        "last_commit_id": first["id"],
        "execute_filemode": False,
        "content": base64.b64encode(content).decode(),
    }
    assert response.status == 200
    assert response.json() == expected
    assert list(response.json()) == list(expected)
    assert response.header("Content-Type") == "application/json"
    assert response.header("X-Service-Blob-Id") == expected["blob_id"]
    assert response.header("X-Service-Last-Commit-Id") == first["id"]


def test_head_gives_the_metadata_headers_and_no_body(svc: FakeService) -> None:
    head = head_of(svc)
    response = call(svc, "HEAD", f"{WEB}/src%2Fapp.py?ref=main")
    content = b"print(1)\nprint(2)\n"
    assert response.status == 200
    assert response.body == b""
    assert [(k, v) for k, v in response.headers if k.startswith("X-Service-")] == [
        ("X-Service-File-Name", "app.py"),
        ("X-Service-File-Path", "src/app.py"),
        ("X-Service-Size", str(len(content))),
        ("X-Service-Encoding", "base64"),
        ("X-Service-Content-Sha256", hashlib.sha256(content).hexdigest()),
        ("X-Service-Ref", "main"),
        ("X-Service-Blob-Id", git_blob_id(content)),
        ("X-Service-Commit-Id", head),
        ("X-Service-Last-Commit-Id", head),
        ("X-Service-Execute-Filemode", "false"),
    ]


@pytest.mark.parametrize(
    ("query", "status", "body"),
    [
        ("", 400, {"error": "ref is missing"}),
        ("?ref=", 400, {"error": "ref is empty"}),
        ("?ref=nope", 404, {"message": "404 Commit Not Found"}),
    ],
)
def test_ref_errors(svc: FakeService, query: str, status: int, body: dict[str, str]) -> None:
    response = call(svc, "GET", f"{WEB}/README.md{query}")
    assert (response.status, response.json()) == (status, body)


@pytest.mark.parametrize("path", ["missing.txt", "src", "src%2Fapp.py%2Fdeeper", "%2F"])
def test_missing_file_is_404(svc: FakeService, path: str) -> None:
    response = call(svc, "GET", f"{WEB}/{path}?ref=main")
    assert (response.status, response.json()) == (404, {"message": "404 File Not Found"})


def test_paths_are_normalised_and_traversal_refused(svc: FakeService) -> None:
    response = call(svc, "GET", f"{WEB}/.%2Fsrc%2F%2Fapp.py?ref=main")
    assert response.json()["file_path"] == "src/app.py"
    response = call(svc, "GET", f"{WEB}/src%2F..%2FREADME.md?ref=main")
    assert response.status == 400
    assert response.json() == {"message": "Path cannot include directory traversal"}


def test_ref_may_be_a_sha_or_a_tag(svc: FakeService) -> None:
    head = head_of(svc)
    assert call(svc, "GET", f"{WEB}/README.md?ref={head}").json()["commit_id"] == head
    assert call(svc, "GET", f"{WEB}/README.md?ref={head[:8]}").json()["ref"] == head[:8]


def test_unencoded_slash_matches_no_endpoint(svc: FakeService) -> None:
    response = call(svc, "GET", f"{WEB}/src/app.py?ref=main")
    assert (response.status, response.json()) == (404, {"error": "404 Not Found"})


def test_blame(svc: FakeService) -> None:
    commits = call(svc, "GET", "/projects/acme%2Fweb/repository/commits").json()
    second, first = commits[0], commits[1]
    response = call(svc, "GET", f"{WEB}/src%2Fapp.py/blame?ref=main")
    assert response.status == 200
    assert response.header("X-Service-File-Path") == "src/app.py"
    body = response.json()
    assert [(r["commit"]["id"], r["lines"]) for r in body] == [
        (first["id"], ["print(1)"]),
        (second["id"], ["print(2)"]),
    ]
    assert body[1]["commit"] == {
        "id": second["id"],
        "parent_ids": [first["id"]],
        "message": "Second line",
        "authored_date": "2026-01-01T10:00:00Z",
        "author_name": "Alice Liddell",
        "author_email": "alice@example.com",
        "committed_date": "2026-01-01T10:00:00Z",
        "committer_name": "Alice Liddell",
        "committer_email": "alice@example.com",
    }


def test_blame_range_and_its_errors(svc: FakeService) -> None:
    path = f"{WEB}/src%2Fapp.py/blame?ref=main"
    body = call(svc, "GET", path + "&range[start]=2&range[end]=9").json()
    assert [r["lines"] for r in body] == [["print(2)"]]
    cases = {
        "&range[start]=0&range[end]=1": "range[start] does not have a valid value",
        "&range[start]=1&range[end]=-1": "range[end] does not have a valid value",
        "&range[start]=1": "range[end] is missing",
        "&range[start]=x&range[end]=1": "range[start] is invalid",
    }
    for query, error in cases.items():
        response = call(svc, "GET", path + query)
        assert (response.status, response.json()) == (400, {"error": error}), query


def test_head_blame_gives_headers_only(svc: FakeService) -> None:
    response = call(svc, "HEAD", f"{WEB}/README.md/blame?ref=main")
    assert response.status == 200 and response.body == b""
    assert response.header("X-Service-File-Name") == "README.md"


def test_raw(svc: FakeService) -> None:
    response = call(svc, "GET", f"{WEB}/src%2Fapp.py/raw")
    assert response.status == 200
    assert response.body == b"print(1)\nprint(2)\n"
    assert response.header("Content-Type") == "text/plain; charset=utf-8"
    assert response.header("X-Service-Ref") == "main"
    response = call(svc, "GET", f"{WEB}/README.md/raw?ref=feature%2Fx&lfs=true")
    assert (response.status, response.body) == (200, b"# Web\n")
    head = call(svc, "HEAD", f"{WEB}/README.md/raw")
    assert head.status == 200 and head.body == b"" and head.header("X-Service-Size") == "6"
    missing = call(svc, "GET", f"{WEB}/nope/raw")
    assert (missing.status, missing.json()) == (404, {"message": "404 File Not Found"})


def test_binary_raw_is_octet_stream(svc: FakeService) -> None:
    data = bytes(range(256))
    body = write_body(
        branch="feature/x", content=base64.b64encode(data).decode(), encoding="base64"
    )
    assert call(svc, "POST", f"{WEB}/bin.dat", "dev-token", json_body=body).status == 201
    response = call(svc, "GET", f"{WEB}/bin.dat/raw?ref=feature%2Fx")
    assert response.body == data
    assert response.header("Content-Type") == "application/octet-stream"


def test_empty_repository_reads(svc: FakeService) -> None:
    base = "/projects/acme%2Fempty/repository/files/README.md"
    assert call(svc, "GET", f"{base}?ref=main").json() == {"message": "404 Commit Not Found"}
    assert call(svc, "GET", f"{base}/raw").json() == {"message": "404 Commit Not Found"}


# -- writes -------------------------------------------------------------------------------


def test_create_file(svc: FakeService) -> None:
    svc.clock.advance(seconds=60)
    before = head_of(svc, "feature/x")
    body = write_body(branch="feature/x", content="hello\n", commit_message="Add hello")
    response = call(svc, "POST", f"{WEB}/docs%2Fhello.txt", "dev-token", json_body=body)
    assert (response.status, response.json()) == (
        201,
        {"file_path": "docs/hello.txt", "branch": "feature/x"},
    )
    created = call(svc, "GET", f"{WEB}/docs%2Fhello.txt?ref=feature%2Fx").json()
    assert created["blob_id"] == git_blob_id(b"hello\n")
    commit = call(svc, "GET", f"/projects/acme%2Fweb/repository/commits/{created['commit_id']}")
    detail = commit.json()
    assert detail["parent_ids"] == [before]
    assert (detail["author_name"], detail["author_email"]) == ("Dee Developer", "dee@example.com")
    assert (detail["committer_name"], detail["committer_email"]) == (
        "Dee Developer",
        "dee@example.com",
    )
    assert detail["authored_date"] == detail["committed_date"] == "2026-01-01T09:01:00Z"
    assert detail["message"] == "Add hello"


def test_create_with_author_base64_and_execute_mode(svc: FakeService) -> None:
    body = write_body(
        branch="feature/x",
        content=base64.b64encode(b"#!/bin/sh\n").decode(),
        encoding="base64",
        execute_filemode=True,
        author_name="Ghost Writer",
        author_email="ghost@example.com",
    )
    assert call(svc, "POST", f"{WEB}/run.sh", "dev-token", json_body=body).status == 201
    info = call(svc, "GET", f"{WEB}/run.sh?ref=feature%2Fx").json()
    assert info["execute_filemode"] is True
    assert base64.b64decode(info["content"]) == b"#!/bin/sh\n"
    commit = call(svc, "GET", f"/projects/acme%2Fweb/repository/commits/{info['commit_id']}").json()
    assert (commit["author_name"], commit["author_email"]) == ("Ghost Writer", "ghost@example.com")
    assert commit["committer_name"] == "Dee Developer"


def test_create_accepts_form_bodies(svc: FakeService) -> None:
    data = write_body(branch="feature/x", content="form\n")
    response = call(svc, "POST", f"{WEB}/form.txt", "dev-token", data=data)
    assert response.status == 201


def test_create_on_a_new_branch_with_start_branch(svc: FakeService) -> None:
    main = head_of(svc)
    body = write_body(branch="topic", start_branch="main", content="t\n")
    assert call(svc, "POST", f"{WEB}/t.txt", "dev-token", json_body=body).status == 201
    commit = call(svc, "GET", "/projects/acme%2Fweb/repository/commits/topic").json()
    assert commit["parent_ids"] == [main]
    assert head_of(svc) == main


def test_parameter_errors(svc: FakeService) -> None:
    response = call(svc, "POST", f"{WEB}/x.txt", "dev-token", json_body={})
    assert response.status == 400
    assert response.json() == {
        "error": "branch is missing, commit_message is missing, content is missing"
    }
    body = write_body(branch="", commit_message=" ", content="x", encoding="utf8")
    response = call(svc, "POST", f"{WEB}/x.txt", "dev-token", json_body=body)
    assert response.json() == {
        "error": "branch is empty, commit_message is empty, encoding does not have a valid value"
    }


def test_invalid_base64_is_400_and_changes_nothing(svc: FakeService) -> None:
    before = repository_state(svc)
    body = write_body(branch="feature/x", content="not base64!", encoding="base64")
    response = call(svc, "POST", f"{WEB}/x.txt", "dev-token", json_body=body)
    assert (response.status, response.json()) == (400, {"error": "content is invalid"})
    assert repository_state(svc) == before


@pytest.mark.parametrize(
    ("method", "path", "extra", "message"),
    [
        ("POST", "README.md", {"content": "x"}, "A file with this name already exists"),
        ("POST", "src", {"content": "x"}, "A directory with this name already exists"),
        ("POST", "README.md%2Fsub", {"content": "x"}, "A file with this name already exists"),
        ("POST", "a%2F..%2Fb", {"content": "x"}, "Path cannot include directory traversal"),
        ("POST", "%2F", {"content": "x"}, "You must provide a file path"),
        ("POST", "a%00b", {"content": "x"}, "Path cannot include null bytes"),
        ("PUT", "missing.txt", {"content": "x"}, "A file with this name doesn't exist"),
        ("DELETE", "missing.txt", {}, "A file with this name doesn't exist"),
        (
            "PUT",
            "README.md",
            {"content": "# Web\n"},
            "You are attempting to update a file with identical content",
        ),
        (
            "PUT",
            "src%2Fapp.py",
            {"content": "new", "last_commit_id": "0" * 40},
            "You are attempting to update a file that has changed since you started editing it.",
        ),
        (
            "DELETE",
            "src%2Fapp.py",
            {"last_commit_id": "0" * 40},
            "You are attempting to delete a file that has been previously updated.",
        ),
        (
            "POST",
            "new.txt",
            {"content": "x", "branch": "nope"},
            "You can only create or edit files when you are on a branch",
        ),
    ],
)
def test_write_errors_change_nothing(
    svc: FakeService, method: str, path: str, extra: dict[str, Any], message: str
) -> None:
    before = repository_state(svc)
    body = write_body(**extra)
    response = call(svc, method, f"{WEB}/{path}", "alice-token", json_body=body)
    assert (response.status, response.json()) == (400, {"message": message})
    assert repository_state(svc) == before


def test_update_with_fresh_last_commit_id(svc: FakeService) -> None:
    current = call(svc, "GET", f"{WEB}/src%2Fapp.py?ref=main").json()
    body = write_body(content="print(3)\n", last_commit_id=current["last_commit_id"])
    response = call(svc, "PUT", f"{WEB}/src%2Fapp.py", "maint-token", json_body=body)
    assert (response.status, response.json()) == (
        200,
        {"file_path": "src/app.py", "branch": "main"},
    )
    updated = call(svc, "GET", f"{WEB}/src%2Fapp.py?ref=main").json()
    assert updated["last_commit_id"] == updated["commit_id"] != current["commit_id"]
    assert base64.b64decode(updated["content"]) == b"print(3)\n"


def test_delete_with_parameters_in_the_query(svc: FakeService) -> None:
    response = call(
        svc,
        "DELETE",
        f"{WEB}/README.md?branch=main&commit_message=Remove%20readme",
        "maint-token",
        headers={"Content-Type": "application/json"},
    )
    assert (response.status, response.body) == (204, b"")
    assert call(svc, "GET", f"{WEB}/README.md?ref=main").status == 404
    assert call(svc, "GET", "/projects/acme%2Fweb/repository/commits/main").json()["title"] == (
        "Remove readme"
    )


# -- permissions and scopes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "status"),
    [(None, 200), ("outsider-token", 200), ("guest-token", 200), ("dev-readrepo", 200),
     ("dev-readapi", 200)],
)  # fmt: skip
def test_public_code_is_readable(svc: FakeService, token: str | None, status: int) -> None:
    assert call(svc, "GET", f"{WEB}/README.md?ref=main", token).status == status


@pytest.mark.parametrize(
    ("token", "status", "body"),
    [
        (None, 404, {"message": "404 Project Not Found"}),
        ("outsider-token", 404, {"message": "404 Project Not Found"}),
        ("guest-token", 403, {"message": "403 Forbidden"}),
        ("dev-token", 200, None),
        ("root-token", 200, None),
    ],
)
def test_private_code(svc: FakeService, token: str | None, status: int, body: Any) -> None:
    response = call(
        svc, "GET", "/projects/acme%2Fvault/repository/files/secret.txt?ref=main", token
    )
    assert response.status == status
    if body is not None:
        assert response.json() == body


@pytest.mark.parametrize(
    ("token", "branch", "status", "body"),
    [
        (None, "feature/x", 401, {"message": "401 Unauthorized"}),
        ("outsider-token", "feature/x", 403,
         {"message": "403 Forbidden - You are not allowed to push into this branch"}),
        ("rep-token", "feature/x", 403,
         {"message": "403 Forbidden - You are not allowed to push into this branch"}),
        ("dev-token", "main", 403,
         {"message": "403 Forbidden - You are not allowed to push into this branch"}),
        ("dev-readrepo", "feature/x", 403,
         {"error": "insufficient_scope",
          "error_description": "The request requires higher privileges than provided by the access token.",
          "scope": "api"}),
        ("dev-token", "feature/x", 201, {"file_path": "n.txt", "branch": "feature/x"}),
        ("maint-token", "main", 201, {"file_path": "n.txt", "branch": "main"}),
        ("root-token", "main", 201, {"file_path": "n.txt", "branch": "main"}),
    ],
)  # fmt: skip
def test_push_rules(
    svc: FakeService, token: str | None, branch: str, status: int, body: dict[str, Any]
) -> None:
    response = call(
        svc, "POST", f"{WEB}/n.txt", token, json_body=write_body(branch=branch, content="n")
    )
    assert (response.status, response.json()) == (status, body)


def test_archived_project_refuses_writes(svc: FakeService) -> None:
    body = write_body(content="b")
    response = call(
        svc, "POST", "/projects/acme%2Fold/repository/files/b.txt", "dev-token", json_body=body
    )
    assert response.status == 403
    assert response.json() == {
        "message": "403 Forbidden - You are not allowed to push into this branch"
    }


def test_a_new_protected_wildcard_applies_to_writes(svc: FakeService) -> None:
    rule = {"name": "feature/*", "push_access_level": 40}
    assert (
        call(
            svc, "POST", "/projects/acme%2Fweb/protected_branches", "alice-token", json_body=rule
        ).status
        == 201
    )
    body = write_body(branch="feature/x", content="n")
    assert call(svc, "POST", f"{WEB}/n.txt", "dev-token", json_body=body).status == 403
    assert call(svc, "POST", f"{WEB}/n.txt", "maint-token", json_body=body).status == 201


# -- empty repositories and project hooks ---------------------------------------------------


def test_first_commit_fills_the_project(svc: FakeService) -> None:
    project = call(svc, "GET", "/projects/acme%2Fempty", "maint-token").json()
    assert (project["empty_repo"], project["readme_url"]) == (True, None)
    assert call(svc, "GET", "/projects/acme%2Fempty/protected_branches", "maint-token").json() == []
    body = write_body(content="# Empty no more\n")
    path = "/projects/acme%2Fempty/repository/files/README.md"
    assert call(svc, "POST", path, "maint-token", json_body=body).status == 201
    project = call(svc, "GET", "/projects/acme%2Fempty", "maint-token").json()
    assert project["empty_repo"] is False
    assert project["default_branch"] == "main"
    assert project["readme_url"] == "http://fakeservice.test/acme/empty/-/blob/main/README.md"
    rules = call(svc, "GET", "/projects/acme%2Fempty/protected_branches", "maint-token").json()
    assert [(r["name"], r["push_access_levels"][0]["access_level"]) for r in rules] == [
        ("main", 40)
    ]


def test_developer_initial_push_follows_default_branch_protection(svc: FakeService) -> None:
    body = write_body(content="x")
    strict = call(
        svc, "POST", "/projects/acme%2Fempty/repository/files/x", "dev-token", json_body=body
    )
    assert strict.status == 403
    lax = call(svc, "POST", "/projects/lax%2Fempty/repository/files/x", "dev-token", json_body=body)
    assert lax.status == 201


def test_first_branch_becomes_the_default(svc: FakeService) -> None:
    body = write_body(branch="trunk", content="x")
    path = "/projects/acme%2Fempty/repository/files/x"
    assert call(svc, "POST", path, "maint-token", json_body=body).status == 201
    project = call(svc, "GET", "/projects/acme%2Fempty", "maint-token").json()
    assert project["default_branch"] == "trunk"


def test_initialize_with_readme(svc: FakeService) -> None:
    body = {"name": "Fresh Start", "initialize_with_readme": True}
    project = call(svc, "POST", "/projects", "alice-token", json_body=body).json()
    assert project["empty_repo"] is False
    assert project["default_branch"] == "main"
    assert project["readme_url"] == f"{project['web_url']}/-/blob/main/README.md"
    raw = call(
        svc, "GET", f"/projects/{project['id']}/repository/files/README.md/raw", "alice-token"
    )
    assert raw.body == b"# Fresh Start\n"
    commit = call(svc, "GET", f"/projects/{project['id']}/repository/commits/main", "alice-token")
    assert commit.json()["author_name"] == "Alice Liddell"
    custom = {"name": "Other", "initialize_with_readme": True, "default_branch": "trunk"}
    other = call(svc, "POST", "/projects", "alice-token", json_body=custom).json()
    assert other["default_branch"] == "trunk"
    invalid = {"name": "Odd", "initialize_with_readme": True, "default_branch": "bad..name"}
    odd = call(svc, "POST", "/projects", "alice-token", json_body=invalid)
    assert (odd.status, odd.json()["default_branch"]) == (201, "main")
    plain = call(svc, "POST", "/projects", "alice-token", json_body={"name": "Plain"}).json()
    assert (plain["empty_repo"], plain["readme_url"]) == (True, None)


# -- properties ---------------------------------------------------------------------------

LINES = st.lists(st.sampled_from(["alpha", "beta", "gamma", "", "delta 1"]), max_size=6)
OPERATIONS = st.lists(
    st.tuples(st.sampled_from(["a.txt", "b.txt", "dir/c.txt"]), st.one_of(st.none(), LINES)),
    min_size=1,
    max_size=8,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(operations=OPERATIONS)
def test_any_edit_sequence_keeps_blob_ids_and_blame_true(
    svc: FakeService, operations: list[tuple[str, list[str] | None]]
) -> None:
    snapshot = svc.snapshot()
    try:
        files: dict[str, bytes] = {}
        for path, lines in operations:
            encoded = path.replace("/", "%2F")
            url = f"{WEB}/{encoded}"
            if lines is None:
                method, body = "DELETE", write_body(branch="feature/x")
            else:
                content = "".join(line + "\n" for line in lines)
                method = "PUT" if path in files else "POST"
                body = write_body(branch="feature/x", content=content)
            response = call(svc, method, url, "dev-token", json_body=body)
            if lines is None:
                expected = 204 if path in files else 400
                files.pop(path, None)
            elif method == "PUT" and files[path] == content.encode():
                expected = 400
            else:
                expected = 201 if method == "POST" else 200
                files[path] = content.encode()
            assert response.status == expected, response.body
        for path, content in files.items():
            encoded = path.replace("/", "%2F")
            info = call(svc, "GET", f"{WEB}/{encoded}?ref=feature%2Fx").json()
            assert info["blob_id"] == git_blob_id(content)
            assert base64.b64decode(info["content"]) == content
            blame = call(svc, "GET", f"{WEB}/{encoded}/blame?ref=feature%2Fx").json()
            assert [line for r in blame for line in r["lines"]] == split_lines(content)
    finally:
        svc.restore(snapshot)
