"""``DELETE /projects/:id/repository/merged_branches`` through raw HTTP and python-gitlab:
202 with the service's body; branches merged into the default branch go, the default
branch, protected, unmerged and head-equal branches stay; callers who may not push get the
202 and change nothing; unknown and invisible projects answer 404."""

from __future__ import annotations

from typing import Any

import gitlab

from fakeservice import FakeService

from .helpers import call, repository_state

SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-01-01T09:00:00Z"},
    "users": [
        {"username": "root", "admin": True, "tokens": [{"token": "root-token"}]},
        {"username": "dev", "tokens": [{"token": "dev-token"}]},
        {"username": "rep", "tokens": [{"token": "rep-token"}]},
    ],
    "groups": [{"path": "acme", "visibility": "public"}],
    "projects": [
        {
            "path": "acme/web",
            "visibility": "public",
            "members": [
                {"user": "dev", "role": "developer"},
                {"user": "rep", "role": "reporter"},
            ],
            "files": {"README.md": "# Web\n"},
            "protected_branches": [{"name": "release/*", "push": "developer", "merge": "developer"}],
        },
        {"path": "acme/hidden", "visibility": "private", "files": {"a.txt": "a\n"}},
    ],
}  # fmt: skip

API = "/projects/acme%2Fweb"
BRANCHES = f"{API}/repository/branches"
MERGED = f"{API}/repository/merged_branches"


def prepare(svc: FakeService) -> None:
    """merged-a, merged-b and release/1 behind main; topic ahead with its own commit;
    same-as-main at main's head."""
    for name in ("merged-a", "merged-b", "release/1", "topic"):
        made = call(svc, "POST", BRANCHES, "root-token", json_body={"branch": name, "ref": "main"})
        assert made.status == 201, made.body
    for branch in ("main", "topic"):
        committed = call(
            svc,
            "POST",
            f"{API}/repository/files/{branch}.txt",
            "root-token",
            json_body={"branch": branch, "content": "x\n", "commit_message": f"On {branch}"},
        )
        assert committed.status == 201, committed.body
    same = {"branch": "same-as-main", "ref": "main"}
    assert call(svc, "POST", BRANCHES, "root-token", json_body=same).status == 201


def branch_names(svc: FakeService) -> list[str]:
    listed = call(svc, "GET", BRANCHES, "root-token", query={"per_page": 100})
    return sorted(item["name"] for item in listed.json())


def test_merged_branches_go_and_the_rest_stay(svc: FakeService) -> None:
    prepare(svc)
    merged = {b["name"] for b in call(svc, "GET", BRANCHES, "root-token").json() if b["merged"]}
    assert merged == {"merged-a", "merged-b", "release/1"}
    answer = call(svc, "DELETE", MERGED, "dev-token")
    assert answer.status == 202 and answer.json() == {"message": "202 Accepted"}
    assert branch_names(svc) == ["main", "release/1", "same-as-main", "topic"]
    again = call(svc, "DELETE", MERGED, "dev-token")
    assert again.status == 202 and branch_names(svc) == [
        "main",
        "release/1",
        "same-as-main",
        "topic",
    ]


def test_callers_who_may_not_push_change_nothing(svc: FakeService) -> None:
    prepare(svc)
    before = repository_state(svc)
    answer = call(svc, "DELETE", MERGED, "rep-token")
    assert answer.status == 202 and answer.json() == {"message": "202 Accepted"}
    assert repository_state(svc) == before
    assert call(svc, "DELETE", MERGED).status == 401
    hidden = call(svc, "DELETE", "/projects/acme%2Fhidden/repository/merged_branches", "dev-token")
    assert hidden.status == 404 and hidden.json() == {"message": "404 Project Not Found"}
    unknown = call(svc, "DELETE", "/projects/999999/repository/merged_branches", "root-token")
    assert unknown.status == 404
    assert repository_state(svc) == before


def test_python_gitlab_deletes_merged_branches(served: tuple[FakeService, str]) -> None:
    svc, url = served
    snapshot = svc.snapshot()
    try:
        prepare(svc)
        project = gitlab.Gitlab(url, private_token="dev-token").projects.get("acme/web")
        project.delete_merged_branches()
        names = sorted(b.name for b in project.branches.list(get_all=True))
        assert names == ["main", "release/1", "same-as-main", "topic"]
        assert svc.server_errors == []
    finally:
        svc.restore(snapshot)
