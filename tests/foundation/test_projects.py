"""Projects (seed 001 §2.7 project entry): list filters, visibility by role, lookup by
encoded path, create, edit, delete, archive, star and statistics."""

from __future__ import annotations

from typing import Any

import pytest

from fakeservice import FakeService

from .helpers import BASE

LIBS = [f"oss/lib-{n:02d}" for n in range(1, 31)]
PUBLIC = ["acme/website", "alice/dotfiles", *LIBS]
ENTRY_FIELDS = {
    "id", "description", "name", "name_with_namespace", "path", "path_with_namespace",
    "default_branch", "tag_list", "topics", "archived", "visibility", "ssh_url_to_repo",
    "http_url_to_repo", "web_url", "readme_url", "created_at", "last_activity_at", "avatar_url",
    "star_count", "forks_count", "open_issues_count", "creator_id", "namespace",
    "shared_with_groups", "issues_enabled", "merge_requests_enabled", "wiki_enabled",
    "jobs_enabled", "snippets_enabled", "shared_runners_enabled", "public_jobs",
    "request_access_enabled", "lfs_enabled", "issues_access_level", "repository_access_level",
    "merge_requests_access_level", "builds_access_level", "wiki_access_level",
    "snippets_access_level",
}  # fmt: skip
STATISTICS = {
    "commit_count", "storage_size", "repository_size", "wiki_size", "lfs_objects_size",
    "job_artifacts_size", "pipeline_artifacts_size", "packages_size", "snippets_size",
    "uploads_size",
}  # fmt: skip


def paths(service: FakeService, query: str = "", token: str | None = None) -> list[str]:
    joiner = "&" if query else ""
    response = service.request(
        "GET", f"/projects?per_page=100&{query}{joiner}order_by=id&sort=asc", token=token
    )
    assert response.status == 200, response.body
    return [p["path_with_namespace"] for p in response.json()]


def enc(path: str) -> str:
    return path.replace("/", "%2F")


# -- the entry ------------------------------------------------------------------------------------------------


def test_project_entry(svc: FakeService) -> None:
    body = svc.request("GET", "/projects/acme%2Fwebsite").json()
    assert set(body) >= ENTRY_FIELDS
    expected = {
        "id": 1,
        "name": "Website",
        "path": "website",
        "path_with_namespace": "acme/website",
        "name_with_namespace": "ACME / Website",
        "description": "The public website",
        "default_branch": "main",
        "topics": ["web"],
        "tag_list": ["web"],
        "visibility": "public",
        "archived": False,
        "web_url": f"{BASE}/acme/website",
        "http_url_to_repo": f"{BASE}/acme/website.git",
        "ssh_url_to_repo": "git@fakeservice.test:acme/website.git",
        "created_at": "2026-01-01T09:00:00Z",
        "star_count": 0,
        "issues_access_level": "enabled",
    }
    assert {k: body[k] for k in expected} == expected
    assert body["namespace"] == {
        "id": body["namespace"]["id"],
        "name": "ACME",
        "path": "acme",
        "kind": "group",
        "full_path": "acme",
        "parent_id": None,
        "avatar_url": None,
        "web_url": f"{BASE}/groups/acme",
    }
    assert body["permissions"] == {"project_access": None, "group_access": None}


def test_permissions_of_the_caller(svc: FakeService) -> None:
    alice = svc.request("GET", "/projects/1", token="alice-token").json()["permissions"]
    assert alice == {
        "project_access": None,
        "group_access": {"access_level": 50, "notification_level": 3},
    }
    carol = svc.request("GET", "/projects/2", token="carol-token").json()["permissions"]
    assert carol["project_access"] == {"access_level": 30, "notification_level": 3}


def test_a_personal_project_has_an_owner(svc: FakeService) -> None:
    body = svc.request("GET", "/projects/alice%2Fdotfiles").json()
    assert body["owner"]["username"] == "alice"
    assert body["namespace"]["kind"] == "user"
    assert body["namespace"]["web_url"] == f"{BASE}/alice"


def test_simple_entries(svc: FakeService) -> None:
    entry = svc.request("GET", "/projects?simple=true&per_page=1").json()[0]
    assert {"id", "name", "path", "web_url", "path_with_namespace"} <= set(entry)
    assert "visibility" not in entry and "permissions" not in entry
    full = svc.request("GET", "/projects?per_page=1").json()[0]
    assert "visibility" in full


# -- lookup -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "token", "status"),
    [
        ("2", "alice-token", 200),
        ("acme%2Fplatform%2Fapi", "alice-token", 200),
        ("Acme%2FPlatform%2FAPI", "alice-token", 200),
        ("acme%2Fsecret-ops%2Fvault", "alice-token", 200),
        ("acme%2Fsecret-ops%2Fvault", "carol-token", 404),
        ("acme%2Fnothing", "alice-token", 404),
        ("9999", "root-token", 404),
        ("nothing", "root-token", 404),
    ],
)
def test_lookup(svc: FakeService, key: str, token: str, status: int) -> None:
    response = svc.request("GET", f"/projects/{key}", token=token)
    assert response.status == status
    if status == 404:
        assert response.json() == {"message": "404 Project Not Found"}


def test_lookup_by_id_and_path_agree(svc: FakeService) -> None:
    by_id = svc.request("GET", "/projects/3", token="root-token").json()
    by_path = svc.request("GET", "/projects/acme%2Fsecret-ops%2Fvault", token="root-token").json()
    assert by_id == by_path


# -- visibility by role -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "extra"),
    [
        (None, []),
        ("carol-token", ["acme/platform/api"]),
        ("bob-read-token", ["acme/platform/api", "acme/secret-ops/vault"]),
        ("alice-token", ["acme/platform/api", "acme/secret-ops/vault"]),
        ("root-token", ["acme/platform/api", "acme/secret-ops/vault"]),
    ],
)
def test_list_visibility_by_role(svc: FakeService, token: str | None, extra: list[str]) -> None:
    expected = sorted(
        PUBLIC + extra,
        key=lambda p: svc.request("GET", f"/projects/{enc(p)}", token="root-token").json()["id"],
    )
    assert paths(svc, token=token) == expected


def test_a_group_member_sees_private_projects_of_subgroups(svc: FakeService) -> None:
    dev002 = paths(svc, "membership=true&sudo=dev002", token="root-token")
    assert "acme/secret-ops/vault" in dev002
    response = svc.request(
        "GET", "/projects/acme%2Fsecret-ops%2Fvault?sudo=dev002", token="root-token"
    )
    assert response.status == 200
    outsider = svc.request(
        "GET", "/projects/acme%2Fsecret-ops%2Fvault?sudo=dev003", token="root-token"
    )
    assert outsider.status == 404


# -- list filters -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "token", "expected"),
    [
        ("search=WEB", None, ["acme/website"]),
        ("search=public%20website", None, ["acme/website"]),
        ("search=lib-0", None, LIBS[:9]),
        ("search=acme", None, []),
        ("search=acme&search_namespaces=true", None, ["acme/website"]),
        ("visibility=internal", "alice-token", ["acme/platform/api"]),
        ("visibility=private", "alice-token", ["acme/secret-ops/vault"]),
        ("visibility=internal", None, []),
        (
            "owned=true",
            "alice-token",
            ["acme/website", "acme/platform/api", "acme/secret-ops/vault", "alice/dotfiles"],
        ),
        ("owned=true", "carol-token", []),
        ("membership=true", "carol-token", ["acme/platform/api"]),
        (
            "membership=true",
            "bob-read-token",
            ["acme/website", "acme/platform/api", "acme/secret-ops/vault"],
        ),
        ("min_access_level=30", "carol-token", ["acme/platform/api"]),
        ("min_access_level=40", "carol-token", []),
        (
            "min_access_level=20",
            "bob-read-token",
            ["acme/website", "acme/platform/api", "acme/secret-ops/vault"],
        ),
        ("min_access_level=30", "bob-read-token", []),
        ("topic=web", None, ["acme/website"]),
        ("topic=WEB", None, ["acme/website"]),
        ("topic=web,other", None, []),
        ("last_activity_after=2026-01-01T08:00:00Z&search=dotfiles", None, ["alice/dotfiles"]),
        ("last_activity_after=2026-01-01T10:00:00Z", None, []),
        ("last_activity_before=2026-01-01T08:00:00Z", None, []),
        ("id_after=30", None, LIBS[-4:]),
        ("id_before=6", None, ["acme/website", "alice/dotfiles", "oss/lib-01"]),
        ("imported=true", None, []),
        ("with_programming_language=python", None, []),
    ],
)
def test_list_filters(svc: FakeService, query: str, token: str | None, expected: list[str]) -> None:
    assert paths(svc, query, token=token) == expected


def test_archived_filter(svc: FakeService) -> None:
    svc.request("POST", "/projects/oss%2Flib-02/archive", token="root-token")
    assert paths(svc, "archived=true") == ["oss/lib-02"]
    assert "oss/lib-02" not in paths(svc, "archived=false")
    assert "oss/lib-02" in paths(svc)


def test_feature_filters(svc: FakeService) -> None:
    svc.request(
        "PUT", "/projects/oss%2Flib-03", json_body={"issues_enabled": False}, token="root-token"
    )
    svc.request(
        "PUT",
        "/projects/oss%2Flib-04",
        json_body={"merge_requests_access_level": "disabled"},
        token="root-token",
    )
    assert "oss/lib-03" not in paths(svc, "with_issues_enabled=true")
    assert "oss/lib-04" in paths(svc, "with_issues_enabled=true")
    assert "oss/lib-04" not in paths(svc, "with_merge_requests_enabled=true")
    assert len(paths(svc, "with_merge_requests_enabled=true")) == 31


def test_starred_filter(svc: FakeService) -> None:
    svc.request("POST", "/projects/oss%2Flib-05/star", token="alice-token")
    assert paths(svc, "starred=true", token="alice-token") == ["oss/lib-05"]
    assert paths(svc, "starred=true", token="carol-token") == []


def test_ordering(svc: FakeService) -> None:
    svc.request("PUT", "/projects/oss%2Flib-07", json_body={"name": "aaa"}, token="root-token")
    by_name = svc.request("GET", "/projects?order_by=name&sort=asc&per_page=3").json()
    assert [p["name"] for p in by_name] == ["aaa", "dotfiles", "lib-01"]
    by_path = svc.request("GET", "/projects?order_by=path&sort=desc&per_page=2").json()
    assert [p["path"] for p in by_path] == ["website", "lib-30"]
    default = svc.request("GET", "/projects?per_page=2").json()
    assert [p["id"] for p in default] == [34, 33]
    svc.clock.advance(minutes=5)
    svc.request("POST", "/projects/oss%2Flib-01/star", token="alice-token")
    svc.request("PUT", "/projects/oss%2Flib-01", json_body={"description": "x"}, token="root-token")
    starred = svc.request("GET", "/projects?order_by=star_count&per_page=1").json()
    assert starred[0]["path"] == "lib-01"
    updated = svc.request("GET", "/projects?order_by=updated_at&per_page=1").json()
    assert updated[0]["path"] == "lib-01"


def test_list_filter_errors(svc: FakeService) -> None:
    response = svc.request("GET", "/projects?visibility=secret")
    assert response.json() == {"error": "visibility does not have a valid value"}
    response = svc.request("GET", "/projects?order_by=stars")
    assert response.json() == {"error": "order_by does not have a valid value"}


def test_user_projects(svc: FakeService) -> None:
    response = svc.request("GET", "/users/alice/projects")
    assert [p["path_with_namespace"] for p in response.json()] == ["alice/dotfiles"]
    by_id = svc.request("GET", "/users/2/projects").json()
    assert by_id == response.json()
    missing = svc.request("GET", "/users/nobody/projects")
    assert missing.json() == {"message": "404 User Not Found"}


# -- create ------------------------------------------------------------------------------------------------------------------


def test_create_in_the_callers_namespace(svc: FakeService) -> None:
    svc.clock.advance(hours=1)
    response = svc.request(
        "POST",
        "/projects",
        json_body={"name": "My Project", "description": "d", "topics": ["a", "b"]},
        token="alice-token",
    )
    assert response.status == 201
    body = response.json()
    expected = {
        "name": "My Project",
        "path": "my-project",
        "path_with_namespace": "alice/my-project",
        "name_with_namespace": "Alice Liddell / My Project",
        "visibility": "private",
        "description": "d",
        "topics": ["a", "b"],
        "creator_id": 2,
        "created_at": "2026-01-01T10:00:00Z",
        "archived": False,
    }
    assert {k: body[k] for k in expected} == expected
    assert body["owner"]["username"] == "alice"
    fetched = svc.request("GET", "/projects/alice%2Fmy-project", token="alice-token")
    assert fetched.json()["id"] == body["id"]
    assert svc.request("GET", "/projects/alice%2Fmy-project", token="carol-token").status == 404
    assert paths(svc, "search=my-project", token="alice-token") == ["alice/my-project"]


def test_create_with_a_path_only(svc: FakeService) -> None:
    body = svc.request("POST", "/projects", json_body={"path": "tool"}, token="alice-token").json()
    assert (body["name"], body["path"]) == ("tool", "tool")


@pytest.mark.parametrize("namespace", ["acme", "ACME"])
def test_create_in_a_group(svc: FakeService, namespace: str) -> None:
    response = svc.request(
        "POST",
        "/projects",
        json_body={"name": "Tools", "namespace_id": namespace, "visibility": "public"},
        token="alice-token",
    )
    assert response.status == 201
    assert response.json()["path_with_namespace"] == "acme/tools"
    assert response.json()["namespace"]["full_path"] == "acme"


def test_create_in_a_group_by_numeric_id(svc: FakeService) -> None:
    group_id = svc.request("GET", "/projects/1").json()["namespace"]["id"]
    response = svc.request(
        "POST",
        "/projects",
        json_body={"path": "numbered", "namespace_id": group_id},
        token="alice-token",
    )
    assert response.json()["path_with_namespace"] == "acme/numbered"


@pytest.mark.parametrize(
    ("body", "token", "status", "answer"),
    [
        (
            {"name": "Website", "namespace_id": "acme"},
            "alice-token",
            400,
            {"message": {"path": ["has already been taken"], "name": ["has already been taken"]}},
        ),
        (
            {"name": "x", "namespace_id": "nowhere"},
            "alice-token",
            404,
            {"message": "404 Namespace Not Found"},
        ),
        (
            {"name": "x", "namespace_id": 99999},
            "alice-token",
            404,
            {"message": "404 Namespace Not Found"},
        ),
        (
            {"name": "x", "namespace_id": "acme/platform", "visibility": "public"},
            "root-token",
            400,
            {"message": {"visibility_level": ["public is not allowed in a internal group."]}},
        ),
        (
            {"name": "x", "namespace_id": "acme"},
            "carol-token",
            400,
            {"message": {"namespace": ["is not valid"]}},
        ),
        (
            {"name": "x", "namespace_id": "bob"},
            "alice-token",
            400,
            {"message": {"namespace": ["is not valid"]}},
        ),
        (
            {"name": "x", "visibility": "secret"},
            "alice-token",
            400,
            {"error": "visibility does not have a valid value"},
        ),
        ({"name": "x"}, None, 401, {"message": "401 Unauthorized"}),
    ],
)
def test_create_errors(
    svc: FakeService, body: dict[str, Any], token: str | None, status: int, answer: Any
) -> None:
    response = svc.request("POST", "/projects", json_body=body, token=token)
    assert (response.status, response.json()) == (status, answer)
    assert svc.request("GET", "/projects?per_page=1", token="root-token").header("X-Total") == "34"


# -- edit -----------------------------------------------------------------------------------------------------------------------


def test_edit(svc: FakeService) -> None:
    svc.clock.advance(minutes=10)
    response = svc.request(
        "PUT",
        "/projects/acme%2Fwebsite",
        json_body={
            "description": "new",
            "topics": "x, y",
            "visibility": "internal",
            "issues_enabled": False,
            "wiki_access_level": "private",
            "merge_method": "ff",
        },
        token="alice-token",
    )
    assert response.status == 200
    body = response.json()
    expected = {
        "description": "new",
        "topics": ["x", "y"],
        "visibility": "internal",
        "issues_enabled": False,
        "issues_access_level": "disabled",
        "wiki_access_level": "private",
        "merge_method": "ff",
    }
    assert {k: body[k] for k in expected} == expected
    assert svc.request("GET", "/projects/1").status == 404
    assert svc.request("GET", "/projects/1", token="bob-read-token").json()["description"] == "new"


def test_edit_path_and_name(svc: FakeService) -> None:
    response = svc.request(
        "PUT", "/projects/1", json_body={"path": "site", "name": "Site"}, token="alice-token"
    )
    body = response.json()
    assert (body["path_with_namespace"], body["name_with_namespace"]) == (
        "acme/site",
        "ACME / Site",
    )
    assert svc.request("GET", "/projects/acme%2Fsite").json()["id"] == 1
    assert svc.request("GET", "/projects/acme%2Fwebsite").status == 404
    taken = svc.request("PUT", "/projects/1", json_body={"path": "platform"}, token="alice-token")
    assert taken.status == 200
    clash = svc.request(
        "PUT", "/projects/acme%2Fplatform%2Fapi", json_body={"path": "api"}, token="alice-token"
    )
    assert clash.status == 200
    svc.request(
        "POST",
        "/projects",
        json_body={"path": "other", "namespace_id": "acme"},
        token="alice-token",
    )
    duplicate = svc.request(
        "PUT", "/projects/acme%2Fother", json_body={"path": "platform"}, token="alice-token"
    )
    assert duplicate.status == 400
    assert duplicate.json() == {
        "message": {"name": ["has already been taken"], "path": ["has already been taken"]}
    }


@pytest.mark.parametrize(
    ("who", "status"),
    [("bob", 403), ("dev001", 200), ("carol", 403), ("dev003", 403), ("alice", 200)],
)
def test_edit_needs_maintainer(svc: FakeService, who: str, status: int) -> None:
    response = svc.request(
        "PUT",
        "/projects/acme%2Fplatform%2Fapi?sudo=" + who,
        json_body={"description": who},
        token="root-token",
    )
    assert response.status == status
    if status == 403:
        assert response.json() == {"message": "403 Forbidden"}
    description = svc.request("GET", "/projects/2", token="root-token").json()["description"]
    assert description == (who if status == 200 else None)


# -- delete, archive, star --------------------------------------------------------------------------------------------------------


def test_delete(svc: FakeService) -> None:
    response = svc.request("DELETE", "/projects/acme%2Fwebsite", token="alice-token")
    assert (response.status, response.json()) == (202, {"message": "202 Accepted"})
    assert svc.request("GET", "/projects/1", token="root-token").status == 404
    assert "acme/website" not in paths(svc, token="root-token")
    again = svc.request("DELETE", "/projects/1", token="alice-token")
    assert again.json() == {"message": "404 Project Not Found"}


def test_delete_needs_owner(svc: FakeService) -> None:
    maintainer = svc.request("DELETE", "/projects/2?sudo=dev001", token="root-token")
    assert (maintainer.status, maintainer.json()) == (403, {"message": "403 Forbidden"})
    assert svc.request("GET", "/projects/2", token="root-token").status == 200


def test_archive_and_unarchive(svc: FakeService) -> None:
    archived = svc.request("POST", "/projects/acme%2Fwebsite/archive", token="alice-token")
    assert (archived.status, archived.json()["archived"]) == (201, True)
    assert svc.request("GET", "/projects/1").json()["archived"] is True
    again = svc.request("POST", "/projects/1/archive", token="alice-token")
    assert (again.status, again.json()["archived"]) == (201, True)
    unarchived = svc.request("POST", "/projects/1/unarchive", token="alice-token")
    assert (unarchived.status, unarchived.json()["archived"]) == (201, False)
    reporter = svc.request(
        "POST", "/projects/1/archive", token="root-token", headers={"Sudo": "bob"}
    )
    assert reporter.status == 403
    assert svc.request("GET", "/projects/1").json()["archived"] is False


def test_star_and_unstar(svc: FakeService) -> None:
    starred = svc.request("POST", "/projects/acme%2Fwebsite/star", token="alice-token")
    assert (starred.status, starred.json()["star_count"]) == (201, 1)
    twice = svc.request("POST", "/projects/1/star", token="alice-token")
    assert (twice.status, twice.body) == (304, b"")
    svc.request("POST", "/projects/1/star", token="carol-token")
    assert svc.request("GET", "/projects/1").json()["star_count"] == 2
    unstarred = svc.request("POST", "/projects/1/unstar", token="alice-token")
    assert (unstarred.status, unstarred.json()["star_count"]) == (201, 1)
    not_starred = svc.request("POST", "/projects/1/unstar", token="alice-token")
    assert (not_starred.status, not_starred.body) == (304, b"")
    assert svc.request("POST", "/projects/1/star").status == 401
    hidden = svc.request("POST", "/projects/3/star", token="carol-token")
    assert hidden.json() == {"message": "404 Project Not Found"}


# -- statistics -----------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "shown"),
    [
        ("alice-token", True),
        ("bob-read-token", True),
        ("root-token", True),
        ("carol-token", False),
        (None, False),
    ],
)
def test_statistics_need_reporter(svc: FakeService, token: str | None, shown: bool) -> None:
    body = svc.request("GET", "/projects/1?statistics=true", token=token).json()
    assert ("statistics" in body) == shown
    if shown:
        assert set(body["statistics"]) == STATISTICS
        assert all(value == 0 for value in body["statistics"].values())
    plain = svc.request("GET", "/projects/1", token=token).json()
    assert "statistics" not in plain


def test_statistics_in_lists(svc: FakeService) -> None:
    listed = svc.request("GET", "/projects?statistics=true&owned=true", token="alice-token").json()
    assert listed and all(set(p["statistics"]) == STATISTICS for p in listed)
    public = svc.request("GET", "/projects?statistics=true&per_page=5", token="carol-token").json()
    assert all("statistics" not in p for p in public)


PATH_RULE = (
    "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' "
    "or end in '.atom'"
)


@pytest.mark.parametrize(
    ("key", "body", "errors"),
    [
        ("4", {"path": "a/b"}, {"path": [PATH_RULE]}),
        ("4", {"path": ""}, {"path": [PATH_RULE]}),
        ("4", {"path": "-x"}, {"path": [PATH_RULE]}),
        ("4", {"path": "x.git"}, {"path": [PATH_RULE]}),
        ("4", {"name": " "}, {"name": ["can't be blank"]}),
        (
            "2",
            {"visibility": "public"},
            {"visibility_level": ["public is not allowed in a internal group."]},
        ),
    ],
)
def test_edit_validation(svc: FakeService, key: str, body: dict[str, Any], errors: Any) -> None:
    before = svc.request("GET", f"/projects/{key}", token="root-token").json()
    response = svc.request("PUT", f"/projects/{key}", json_body=body, token="alice-token")
    assert (response.status, response.json()) == (400, {"message": errors})
    assert svc.request("GET", f"/projects/{key}", token="root-token").json() == before


def test_edit_keeps_its_own_path(svc: FakeService) -> None:
    response = svc.request(
        "PUT", "/projects/4", json_body={"path": "dotfiles", "name": "Dots"}, token="alice-token"
    )
    assert (response.status, response.json()["name_with_namespace"]) == (
        200,
        "Alice Liddell / Dots",
    )


SHARE_SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-01-01T09:00:00Z"},
    "users": [
        {"username": "sam", "tokens": [{"token": "sam-token"}]},
        {"username": "owner", "tokens": [{"token": "owner-token"}]},
    ],
    "groups": [
        {"path": "team", "members": [{"user": "sam", "role": "maintainer"}]},
        {"path": "home", "members": [{"user": "owner", "role": "owner"}]},
    ],
    "projects": [
        {
            "path": "home/app",
            "visibility": "private",
            "shared_with": [{"group": "team", "role": "reporter", "expires_at": "2026-01-03"}],
        }
    ],
}


def test_a_share_grants_access_until_it_expires(make_service: Any) -> None:
    service = make_service(SHARE_SCENARIO)
    body = service.request("GET", "/projects/home%2Fapp", token="sam-token").json()
    assert body["shared_with_groups"] == [
        {
            "group_id": body["shared_with_groups"][0]["group_id"],
            "group_name": "team",
            "group_full_path": "team",
            "group_access_level": 20,
            "expires_at": "2026-01-03",
        }
    ]
    assert paths(service, "min_access_level=20", token="sam-token") == ["home/app"]
    assert paths(service, "min_access_level=30", token="sam-token") == []
    edit = service.request("PUT", "/projects/1", json_body={"description": "x"}, token="sam-token")
    assert edit.status == 403
    service.clock.advance(days=1, hours=14, minutes=59)
    assert service.request("GET", "/projects/1", token="sam-token").status == 200
    service.clock.advance(minutes=1)
    assert service.request("GET", "/projects/1", token="sam-token").status == 404
    assert paths(service, "membership=true", token="sam-token") == []
    assert paths(service, token="sam-token") == []
    assert service.request("GET", "/projects/1", token="owner-token").status == 200
