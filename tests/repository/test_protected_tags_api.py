"""Protected tags over raw HTTP and python-gitlab: the rules' endpoints (Maintainer), and
tag creation through the API obeying them."""

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
    ],
    "projects": [
        {"path": "maint/web", "visibility": "public", "creator": "maint",
         "members": [{"user": "dev", "role": "developer"}],
         "files": {"README.md": "# Web\n"},
         "protected_tags": [{"name": "v*"}, {"name": "rc-*", "create": "developer"}]},
    ],
}  # fmt: skip
P = "/projects/maint%2Fweb"


def call(svc: FakeService, method: str, url: str, token: str = "maint-token", **kw: Any) -> Any:
    return svc.request(method, P + url, token=token, **kw)


def test_rules_from_the_scenario_and_crud(svc: FakeService) -> None:
    listed = call(svc, "GET", "/protected_tags").json()
    assert [(r["name"], r["create_access_levels"][0]["access_level"]) for r in listed] == [
        ("v*", 40),
        ("rc-*", 30),
    ]
    assert listed[0]["create_access_levels"][0]["access_level_description"] == "Maintainers"
    made = call(
        svc, "POST", "/protected_tags", json_body={"name": "stable", "create_access_level": 0}
    )
    assert made.status == 201
    assert made.json()["create_access_levels"][0]["access_level_description"] == "No one"
    again = call(svc, "POST", "/protected_tags", json_body={"name": "stable"})
    assert (again.status, again.json()) == (
        409,
        {"message": "Protected tag 'stable' already exists"},
    )
    one = call(svc, "GET", "/protected_tags/v%2A")
    assert one.json()["name"] == "v*"
    assert call(svc, "DELETE", "/protected_tags/stable").status == 204
    assert call(svc, "GET", "/protected_tags/stable").status == 404
    assert (
        call(
            svc, "POST", "/protected_tags", json_body={"name": "x", "create_access_level": 7}
        ).status
        == 400
    )


def test_developer_may_not_manage_rules(svc: FakeService) -> None:
    assert call(svc, "GET", "/protected_tags", "dev-token").status == 403
    refused = call(svc, "POST", "/protected_tags", "dev-token", json_body={"name": "z"})
    assert refused.status == 403
    assert len(call(svc, "GET", "/protected_tags").json()) == 2


@pytest.mark.parametrize(
    ("token", "name", "status"),
    [
        ("dev-token", "v1.0", 400),
        ("maint-token", "v1.0", 201),
        ("dev-token", "rc-1", 201),
        ("dev-token", "free", 201),
    ],
)
def test_api_tag_creation_obeys_rules(svc: FakeService, token: str, name: str, status: int) -> None:
    answer = call(
        svc,
        "POST",
        "/repository/tags",
        token,
        json_body={"tag_name": name, "ref": "main", "message": "m"},
    )
    assert answer.status == status
    if status == 400:
        assert answer.json() == {
            "message": "You are not allowed to create this tag as it is protected."
        }
        assert call(svc, "GET", f"/repository/tags/{name}").status == 404
    else:
        assert answer.json()["message"] == "m"


def test_python_gitlab(served: tuple[FakeService, str], svc: FakeService) -> None:
    gl = gitlab.Gitlab(served[1], private_token="maint-token", retry_transient_errors=False)
    project = gl.projects.get("maint/web")
    project.protectedtags.create({"name": "release-*", "create_access_level": 30})
    rule = project.protectedtags.get("release-*")
    assert rule.create_access_levels[0]["access_level"] == 30
    assert [r.name for r in project.protectedtags.list()] == ["v*", "rc-*", "release-*"]
    rule.delete()
    assert [r.name for r in project.protectedtags.list()] == ["v*", "rc-*"]
    tag = project.tags.create({"tag_name": "v2", "ref": "main", "message": "Release 2"})
    assert tag.message == "Release 2"
