"""Branches, tags and protected branches through raw HTTP: views, filters, pagination,
create and delete with their errors, and the push rules protected branches impose."""

from __future__ import annotations

from typing import Any

import pytest

from fakeservice import FakeService
from fakeservice.web.http import Response

from .helpers import call, repository_state

SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-01-01T09:00:00Z"},
    "users": [
        {"username": "root", "admin": True, "tokens": [{"token": "root-token"}]},
        {"username": "alice", "name": "Alice Liddell", "email": "alice@example.com",
         "tokens": [{"token": "alice-token"}]},
        {"username": "maint", "tokens": [{"token": "maint-token"}]},
        {"username": "dev", "tokens": [{"token": "dev-token"}]},
        {"username": "rep", "tokens": [{"token": "rep-token"}]},
    ],
    "groups": [
        {"path": "acme", "visibility": "public", "members": [{"user": "alice", "role": "owner"}]},
    ],
    "projects": [
        {
            "path": "acme/web",
            "visibility": "public",
            "members": [
                {"user": "maint", "role": "maintainer"},
                {"user": "dev", "role": "developer"},
                {"user": "rep", "role": "reporter"},
            ],
            "files": {"README.md": "# Web\n"},
            "branches": [{"name": "feature/x"}, {"name": "Fix-Typo"}],
            "commits": [
                {"message": "Topic work", "author": "alice", "branch": "topic", "from": "main",
                 "files": {"topic.txt": "t\n"}, "at": "2026-01-02T09:00:00Z"},
            ],
            "tags": [
                {"name": "v1.0.0", "ref": "main"},
                {"name": "v1.10.0", "ref": "topic", "message": "Release 1.10", "author": "alice"},
            ],
            "protected_branches": [{"name": "release/*", "push": "developer", "merge": "maintainer"}],
        },
    ],
}  # fmt: skip

API = "/projects/acme%2Fweb"
BRANCHES = f"{API}/repository/branches"
TAGS = f"{API}/repository/tags"
PROTECTED = f"{API}/protected_branches"
FORBIDDEN = {"message": "403 Forbidden"}


def names(response: Response) -> list[str]:
    return [item["name"] for item in response.json()]


# -- branches -----------------------------------------------------------------------------


def test_branch_view(svc: FakeService) -> None:
    main = call(svc, "GET", f"{API}/repository/commits/main").json()
    body = call(svc, "GET", f"{BRANCHES}/main", "maint-token").json()
    web = "http://fakeservice.test/acme/web"
    assert body == {
        "name": "main",
        "commit": {
            "id": main["id"],
            "short_id": main["id"][:8],
            "created_at": "2026-01-01T09:00:00Z",
            "parent_ids": [],
            "title": "Initial commit",
            "message": "Initial commit",
            "author_name": "root",
            "author_email": "root@example.com",
            "authored_date": "2026-01-01T09:00:00Z",
            "committer_name": "root",
            "committer_email": "root@example.com",
            "committed_date": "2026-01-01T09:00:00Z",
            "trailers": {},
            "extended_trailers": {},
            "web_url": f"{web}/-/commit/{main['id']}",
        },
        "merged": False,
        "protected": True,
        "developers_can_push": False,
        "developers_can_merge": False,
        "can_push": True,
        "default": True,
        "web_url": f"{web}/-/tree/main",
    }


def test_branch_flags_depend_on_rules_and_caller(svc: FakeService) -> None:
    by_name = {b["name"]: b for b in call(svc, "GET", BRANCHES, "dev-token").json()}
    assert by_name["main"]["can_push"] is False
    assert by_name["feature/x"]["can_push"] is True
    # feature/x still points at main's head: the service does not call that merged
    assert (by_name["feature/x"]["merged"], by_name["topic"]["merged"]) == (False, False)
    assert by_name["feature/x"]["protected"] is False
    call(svc, "POST", BRANCHES, "dev-token", json_body={"branch": "release/1", "ref": "main"})
    release = call(svc, "GET", f"{BRANCHES}/release%2F1", "dev-token").json()
    assert (release["protected"], release["developers_can_push"]) == (True, True)
    assert (release["developers_can_merge"], release["can_push"]) == (False, True)
    anonymous = call(svc, "GET", f"{BRANCHES}/feature%2Fx").json()
    assert anonymous["can_push"] is False


def test_list_filters_sorting_and_pagination(svc: FakeService) -> None:
    assert names(call(svc, "GET", BRANCHES)) == ["Fix-Typo", "feature/x", "main", "topic"]
    assert names(call(svc, "GET", BRANCHES + "?search=FIX")) == ["Fix-Typo"]
    assert names(call(svc, "GET", BRANCHES + "?search=%5Efea")) == ["feature/x"]
    assert names(call(svc, "GET", BRANCHES + "?search=c$")) == ["topic"]
    assert names(call(svc, "GET", BRANCHES + "?regex=%5E[a-z]%2B$")) == ["main", "topic"]
    assert names(call(svc, "GET", BRANCHES + "?sort=updated_desc"))[0] == "topic"
    invalid = call(svc, "GET", BRANCHES + "?regex=(")
    assert (invalid.status, invalid.json()) == (400, {"error": "regex is invalid"})
    wrong = call(svc, "GET", BRANCHES + "?sort=size")
    assert wrong.json() == {"error": "sort does not have a valid value"}
    page = call(svc, "GET", BRANCHES + "?per_page=3&page=2")
    assert names(page) == ["topic"]
    assert [(k, v) for k, v in page.headers if k.startswith("X-")] == [
        ("X-Per-Page", "3"),
        ("X-Page", "2"),
        ("X-Next-Page", ""),
        ("X-Prev-Page", "1"),
        ("X-Total", "4"),
        ("X-Total-Pages", "2"),
    ]
    assert 'rel="prev"' in (page.header("Link") or "")


def test_get_and_head_of_a_branch(svc: FakeService) -> None:
    assert call(svc, "GET", f"{BRANCHES}/feature%2Fx").json()["name"] == "feature/x"
    missing = call(svc, "GET", f"{BRANCHES}/nope")
    assert (missing.status, missing.json()) == (404, {"message": "404 Branch Not Found"})
    assert call(svc, "HEAD", f"{BRANCHES}/feature%2Fx").status == 204
    assert call(svc, "HEAD", f"{BRANCHES}/nope").status == 404


def test_create_branch(svc: FakeService) -> None:
    response = call(
        svc, "POST", BRANCHES, "dev-token", json_body={"branch": "new/one", "ref": "topic"}
    )
    assert response.status == 201
    body = response.json()
    topic = call(svc, "GET", f"{BRANCHES}/topic").json()
    assert (body["name"], body["commit"], body["default"]) == ("new/one", topic["commit"], False)


@pytest.mark.parametrize(
    ("token", "body", "status", "answer"),
    [
        ("dev-token", {"branch": "main", "ref": "main"}, 400, {"message": "Branch already exists"}),
        ("dev-token", {"branch": "bad..name", "ref": "main"}, 400,
         {"message": "Branch name is invalid"}),
        ("dev-token", {"branch": "ok", "ref": "nope"}, 400,
         {"message": "Invalid reference name: nope"}),
        ("dev-token", {}, 400, {"error": "branch is missing, ref is missing"}),
        ("rep-token", {"branch": "ok", "ref": "main"}, 403, FORBIDDEN),
        (None, {"branch": "ok", "ref": "main"}, 401, {"message": "401 Unauthorized"}),
    ],
)  # fmt: skip
def test_create_branch_errors(
    svc: FakeService, token: str | None, body: dict[str, str], status: int, answer: Any
) -> None:
    before = repository_state(svc)
    response = call(svc, "POST", BRANCHES, token, json_body=body)
    assert (response.status, response.json()) == (status, answer)
    assert repository_state(svc) == before


def test_delete_branch(svc: FakeService) -> None:
    response = call(svc, "DELETE", f"{BRANCHES}/feature%2Fx", "dev-token")
    assert (response.status, response.body) == (204, b"")
    assert call(svc, "GET", f"{BRANCHES}/feature%2Fx").status == 404
    missing = call(svc, "DELETE", f"{BRANCHES}/feature%2Fx", "dev-token")
    assert (missing.status, missing.json()) == (404, {"message": "404 Branch Not Found"})
    default = call(svc, "DELETE", f"{BRANCHES}/main", "maint-token")
    assert (default.status, default.json()) == (
        405,
        {"message": "The default branch of a project cannot be deleted."},
    )
    assert call(svc, "DELETE", f"{BRANCHES}/topic", "rep-token").json() == FORBIDDEN


def test_deleting_a_protected_branch_needs_a_maintainer(svc: FakeService) -> None:
    call(svc, "POST", BRANCHES, "dev-token", json_body={"branch": "release/2", "ref": "main"})
    refused = call(svc, "DELETE", f"{BRANCHES}/release%2F2", "dev-token")
    assert refused.status == 400
    assert refused.json() == {
        "message": "You are not allowed to delete protected branches from this project. "
        "Only a project maintainer or owner can delete a protected branch."
    }
    assert call(svc, "DELETE", f"{BRANCHES}/release%2F2", "maint-token").status == 204


# -- tags ---------------------------------------------------------------------------------


def test_tags(svc: FakeService) -> None:
    topic = call(svc, "GET", f"{API}/repository/commits/topic").json()
    assert names(call(svc, "GET", TAGS)) == ["v1.10.0", "v1.0.0"]
    assert names(call(svc, "GET", TAGS + "?order_by=name&sort=asc")) == ["v1.0.0", "v1.10.0"]
    assert names(call(svc, "GET", TAGS + "?order_by=version")) == ["v1.10.0", "v1.0.0"]
    annotated = call(svc, "GET", f"{TAGS}/v1.10.0").json()
    assert annotated["target"] != topic["id"]
    assert {k: v for k, v in annotated.items() if k not in ("target", "commit")} == {
        "name": "v1.10.0",
        "message": "Release 1.10",
        "release": None,
        "protected": False,
        "created_at": "2026-01-01T09:00:00Z",
    }
    assert annotated["commit"]["id"] == topic["id"]
    light = call(svc, "GET", f"{TAGS}/v1.0.0").json()
    assert (light["message"], light["created_at"]) == ("", None)
    assert light["target"] == light["commit"]["id"]
    missing = call(svc, "GET", f"{TAGS}/v9")
    assert (missing.status, missing.json()) == (404, {"message": "404 Tag Not Found"})


def test_create_and_delete_tags(svc: FakeService) -> None:
    body = {"tag_name": "v2", "ref": "main", "message": "Two"}
    created = call(svc, "POST", TAGS, "dev-token", json_body=body)
    assert created.status == 201 and created.json()["message"] == "Two"
    again = call(svc, "POST", TAGS, "dev-token", json_body=body)
    assert (again.status, again.json()) == (409, {"message": "Tag v2 already exists"})
    bad = call(svc, "POST", TAGS, "dev-token", json_body={"tag_name": "v3", "ref": "nope"})
    assert (bad.status, bad.json()) == (400, {"message": "Target nope is invalid"})
    assert call(svc, "POST", TAGS, "rep-token", json_body=body).json() == FORBIDDEN
    assert call(svc, "DELETE", f"{TAGS}/v2", "dev-token").status == 204
    gone = call(svc, "DELETE", f"{TAGS}/v2", "dev-token")
    assert (gone.status, gone.json()) == (404, {"message": "404 Tag Not Found"})


# -- protected branches ---------------------------------------------------------------------


def level(id_: int, access: int, description: str) -> dict[str, Any]:
    return {
        "id": id_,
        "access_level": access,
        "access_level_description": description,
        "user_id": None,
        "group_id": None,
    }


def test_protected_branches_list_and_get(svc: FakeService) -> None:
    body = call(svc, "GET", PROTECTED, "maint-token").json()
    assert [rule["name"] for rule in body] == ["main", "release/*"]
    assert body[1] == {
        "id": body[1]["id"],
        "name": "release/*",
        "push_access_levels": [level(body[1]["push_access_levels"][0]["id"], 30, "Developers + Maintainers")],
        "merge_access_levels": [level(body[1]["merge_access_levels"][0]["id"], 40, "Maintainers")],
        "unprotect_access_levels": [],
        "allow_force_push": False,
        "code_owner_approval_required": False,
    }  # fmt: skip
    assert call(svc, "GET", f"{PROTECTED}/release%2F*", "maint-token").json() == body[1]
    assert names(call(svc, "GET", PROTECTED + "?search=rel", "maint-token")) == ["release/*"]
    missing = call(svc, "GET", f"{PROTECTED}/nope", "maint-token")
    assert (missing.status, missing.json()) == (404, {"message": "404 Not found"})


def test_protected_branches_need_a_maintainer(svc: FakeService) -> None:
    assert call(svc, "GET", PROTECTED, "dev-token").json() == FORBIDDEN
    assert call(svc, "POST", PROTECTED, "dev-token", json_body={"name": "x"}).json() == FORBIDDEN
    assert call(svc, "GET", PROTECTED).json() == {"message": "401 Unauthorized"}


def test_protect_and_unprotect(svc: FakeService) -> None:
    body = {
        "name": "stable",
        "push_access_level": 0,
        "merge_access_level": 60,
        "unprotect_access_level": 40,
        "allow_force_push": True,
    }
    created = call(svc, "POST", PROTECTED, "maint-token", json_body=body)
    assert created.status == 201
    rule = created.json()
    assert [a["access_level_description"] for a in rule["push_access_levels"]] == ["No one"]
    assert [a["access_level_description"] for a in rule["merge_access_levels"]] == ["Admins"]
    assert [a["access_level"] for a in rule["unprotect_access_levels"]] == [40]
    assert rule["allow_force_push"] is True
    defaults = call(svc, "POST", PROTECTED, "maint-token", json_body={"name": "other"}).json()
    assert [a["access_level"] for a in defaults["push_access_levels"]] == [40]
    assert [a["access_level"] for a in defaults["merge_access_levels"]] == [40]
    duplicate = call(svc, "POST", PROTECTED, "maint-token", json_body={"name": "stable"})
    assert (duplicate.status, duplicate.json()) == (
        409,
        {"message": "Protected branch 'stable' already exists"},
    )
    bad = call(
        svc, "POST", PROTECTED, "maint-token", json_body={"name": "y", "push_access_level": 20}
    )
    assert bad.json() == {"error": "push_access_level does not have a valid value"}
    surrogate = call(
        svc,
        "POST",
        PROTECTED,
        "maint-token",
        body=b'{"name": "\\ud800"}',
        headers={"Content-Type": "application/json"},
    )
    assert surrogate.json() == {"error": "The request body is not valid JSON"}
    assert call(svc, "DELETE", f"{PROTECTED}/stable", "maint-token").status == 204
    assert call(svc, "GET", f"{PROTECTED}/stable", "maint-token").status == 404


def test_unprotecting_main_lets_developers_push(svc: FakeService) -> None:
    body = {"branch": "main", "content": "x", "commit_message": "m"}
    path = f"{API}/repository/files/x.txt"
    assert call(svc, "POST", path, "dev-token", json_body=body).status == 403
    assert call(svc, "DELETE", f"{PROTECTED}/main", "maint-token").status == 204
    assert call(svc, "POST", path, "dev-token", json_body=body).status == 201
    assert call(svc, "GET", f"{BRANCHES}/main", "dev-token").json()["protected"] is False


def test_no_one_level_blocks_even_maintainers(svc: FakeService) -> None:
    call(svc, "POST", PROTECTED, "maint-token", json_body={"name": "topic", "push_access_level": 0})
    body = {"branch": "topic", "content": "x", "commit_message": "m"}
    response = call(svc, "POST", f"{API}/repository/files/x.txt", "maint-token", json_body=body)
    assert response.json() == {
        "message": "403 Forbidden - You are not allowed to push into this branch"
    }
