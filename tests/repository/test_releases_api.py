"""Releases and their asset links over raw HTTP and python-gitlab: creating a release
(and its tag), ordering, ``upcoming_release``, ``_links``, updates, deletes, roles and
errors."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest

from fakeservice import FakeService

SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-01-01T09:00:00Z"},
    "users": [
        {"username": "maint", "tokens": [{"token": "maint-token"}]},
        {"username": "dev", "tokens": [{"token": "dev-token"}]},
        {"username": "rep", "tokens": [{"token": "rep-token"}]},
    ],
    "projects": [
        {"path": "maint/app", "visibility": "public", "creator": "maint",
         "members": [{"user": "dev", "role": "developer"}, {"user": "rep", "role": "reporter"}],
         "files": {"README.md": "# App\n"},
         "tags": [{"name": "v1", "ref": "main"}],
         "protected_tags": [{"name": "prod-*"}]},
        {"path": "maint/lib", "visibility": "public", "creator": "maint",
         "files": {"a.txt": "a\n"},
         "tags": [{"name": "v0.1"}],
         "releases": [{"tag": "v0.1", "name": "Zero", "released_at": "2025-12-01T00:00:00Z",
                       "author": "dev",
                       "links": [{"name": "doc", "url": "https://x/doc", "link_type": "runbook"}]}]},
    ],
}  # fmt: skip
P = "/projects/maint%2Fapp"
BASE = "http://fakeservice.test/maint/app"


def call(
    svc: FakeService, method: str, url: str, token: str | None = "dev-token", **kw: Any
) -> Any:
    return svc.request(method, P + url, token=token, **kw)


def test_create_for_existing_tag_with_links(svc: FakeService) -> None:
    body = {
        "tag_name": "v1",
        "name": "First",
        "description": "Notes",
        "assets": {"links": [{"name": "bin", "url": "https://x/bin", "direct_asset_path": "/bin",
                              "link_type": "package"}]},
    }  # fmt: skip
    made = call(svc, "POST", "/releases", json_body=body)
    assert made.status == 201
    release = made.json()
    head = call(svc, "GET", "/repository/commits/main").json()["id"]
    assert (release["name"], release["tag_name"], release["description"]) == (
        "First",
        "v1",
        "Notes",
    )
    assert release["released_at"] == release["created_at"] == "2026-01-01T09:00:00Z"
    assert release["upcoming_release"] is False
    assert release["author"]["username"] == "dev"
    assert release["commit"]["id"] == head
    assert release["commit_path"] == f"/maint/app/-/commit/{head}"
    assert release["tag_path"] == "/maint/app/-/tags/v1"
    assert release["assets"]["count"] == 5
    assert release["assets"]["sources"][0] == {
        "format": "zip",
        "url": f"{BASE}/-/archive/v1/app-v1.zip",
    }
    link = release["assets"]["links"][0]
    assert {k: v for k, v in link.items() if k != "id"} == {
        "name": "bin",
        "url": "https://x/bin",
        "direct_asset_url": f"{BASE}/-/releases/v1/downloads/bin",
        "link_type": "package",
    }
    assert release["_links"]["self"] == f"{BASE}/-/releases/v1"
    assert release["_links"]["edit_url"] == f"{BASE}/-/releases/v1/edit"
    assert call(svc, "GET", "/releases/v1", None).json() == release
    again = call(svc, "POST", "/releases", json_body={"tag_name": "v1"})
    assert (again.status, again.json()) == (409, {"message": "Release already exists"})


def test_create_makes_the_tag_from_ref(svc: FakeService) -> None:
    missing_ref = call(svc, "POST", "/releases", json_body={"tag_name": "v2"})
    assert (missing_ref.status, missing_ref.json()) == (422, {"message": "Ref is not specified"})
    assert call(svc, "GET", "/repository/tags/v2").status == 404
    made = call(
        svc, "POST", "/releases",
        json_body={"tag_name": "v2", "ref": "main", "tag_message": "Annotated"},
    )  # fmt: skip
    assert made.status == 201 and made.json()["name"] == "v2"
    tag = call(svc, "GET", "/repository/tags/v2").json()
    assert tag["message"] == "Annotated"
    protected = call(svc, "POST", "/releases", json_body={"tag_name": "prod-1", "ref": "main"})
    assert protected.status == 403
    assert (
        call(
            svc, "POST", "/releases", "maint-token", json_body={"tag_name": "prod-1", "ref": "main"}
        ).status
        == 201
    )


def test_order_upcoming_update_and_delete(svc: FakeService) -> None:
    call(
        svc,
        "POST",
        "/releases",
        json_body={"tag_name": "v1", "released_at": "2025-06-01T00:00:00Z"},
    )
    svc.clock.advance(60)
    future = call(
        svc, "POST", "/releases",
        json_body={"tag_name": "v3", "ref": "main", "released_at": "2027-01-01T00:00:00Z"},
    ).json()  # fmt: skip
    assert future["upcoming_release"] is True
    svc.clock.advance(60)
    call(
        svc,
        "POST",
        "/releases",
        json_body={"tag_name": "v2", "ref": "main", "released_at": "2026-01-01T00:00:00Z"},
    )
    tags = lambda **q: [r["tag_name"] for r in call(svc, "GET", "/releases", query=q).json()]  # noqa: E731
    assert tags() == ["v3", "v2", "v1"]
    assert tags(sort="asc") == ["v1", "v2", "v3"]
    assert tags(order_by="created_at") == ["v2", "v3", "v1"]
    assert tags(order_by="created_at", per_page=1, page=2) == ["v3"]
    assert call(svc, "GET", "/releases", query={"order_by": "name"}).status == 400
    updated = call(
        svc,
        "PUT",
        "/releases/v1",
        json_body={"name": "Renamed", "released_at": "2028-01-01T00:00:00Z"},
    )
    assert (updated.json()["name"], updated.json()["upcoming_release"]) == ("Renamed", True)
    assert tags() == ["v1", "v3", "v2"]
    assert call(svc, "GET", "/releases/v1").json()["name"] == "Renamed"
    deleted = call(svc, "DELETE", "/releases/v1")
    assert (deleted.status, deleted.json()["tag_name"]) == (200, "v1")
    assert call(svc, "GET", "/releases/v1").json() == {"message": "404 Not found"}
    assert call(svc, "GET", "/repository/tags/v1").status == 200


def test_scenario_releases(svc: FakeService) -> None:
    listed = svc.request("GET", "/projects/maint%2Flib/releases").json()
    assert [
        (r["tag_name"], r["name"], r["released_at"], r["author"]["username"]) for r in listed
    ] == [("v0.1", "Zero", "2025-12-01T00:00:00Z", "dev")]
    assert [(x["name"], x["link_type"]) for x in listed[0]["assets"]["links"]] == [
        ("doc", "runbook")
    ]


@pytest.mark.parametrize(
    ("release", "message"),
    [
        ({"tag": "nope"}, "no tag 'nope' in the project"),
        ({"tag": "v0.1", "links": [{"name": "x"}]}, None),
    ],
)
def test_scenario_release_errors(release: dict[str, Any], message: str | None) -> None:
    from fakeservice.scenarios.problems import ScenarioError

    scenario = {
        "users": [{"username": "u"}],
        "projects": [
            {"path": "u/p", "files": {"a": "a"}, "tags": [{"name": "v0.1"}], "releases": [release]}
        ],
    }
    with pytest.raises(ScenarioError) as caught:
        FakeService(scenario)
    if message is not None:
        assert any(message in problem for _, problem in caught.value.problems)


def test_links_crud(svc: FakeService) -> None:
    call(svc, "POST", "/releases", json_body={"tag_name": "v1"})
    url = "/releases/v1/assets/links"
    made = call(svc, "POST", url, json_body={"name": "a", "url": "https://x/a"})
    assert made.status == 201 and made.json()["link_type"] == "other"
    link_id = made.json()["id"]
    dup = call(svc, "POST", url, json_body={"name": "b", "url": "https://x/a"})
    assert (dup.status, dup.json()) == (400, {"message": ["Url has already been taken"]})
    assert call(svc, "POST", url, json_body={"name": "b"}).status == 400
    changed = call(svc, "PUT", f"{url}/{link_id}", json_body={"name": "a2", "link_type": "image"})
    assert (changed.json()["name"], changed.json()["url"], changed.json()["link_type"]) == (
        "a2",
        "https://x/a",
        "image",
    )
    assert call(svc, "GET", f"{url}/{link_id}").json()["name"] == "a2"
    assert [x["name"] for x in call(svc, "GET", url).json()] == ["a2"]
    assert call(svc, "DELETE", f"{url}/{link_id}").json()["name"] == "a2"
    assert call(svc, "GET", f"{url}/{link_id}").status == 404
    assert call(svc, "GET", "/releases/nope/assets/links").status == 404


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("POST", "/releases", {"tag_name": "v1"}),
        ("PUT", "/releases/v1", {"name": "x"}),
        ("DELETE", "/releases/v1", None),
    ],
)
def test_reporters_cannot_write(svc: FakeService, method: str, url: str, body: Any) -> None:
    if method != "POST":
        call(svc, "POST", "/releases", json_body={"tag_name": "v1"})
    answer = call(svc, method, url, "rep-token", json_body=body)
    assert (answer.status, answer.json()) == (403, {"message": "403 Forbidden"})
    assert call(svc, "POST", "/releases", None, json_body={"tag_name": "v1"}).status == 401


def test_python_gitlab(served: tuple[FakeService, str], svc: FakeService) -> None:
    gl = gitlab.Gitlab(served[1], private_token="dev-token", retry_transient_errors=False)
    project = gl.projects.get("maint/app")
    release = project.releases.create({"tag_name": "v9", "ref": "main", "description": "Nine"})
    assert (release.tag_name, release.description) == ("v9", "Nine")
    release.links.create({"name": "pkg", "url": "https://x/pkg"})
    fetched = project.releases.get("v9")
    assert [link.name for link in fetched.links.list()] == ["pkg"]
    fetched.description = "Changed"
    fetched.save()
    assert project.releases.get("v9").description == "Changed"
    assert [r.tag_name for r in project.releases.list()] == ["v9"]
    project.releases.delete("v9")
    assert project.releases.list() == []
