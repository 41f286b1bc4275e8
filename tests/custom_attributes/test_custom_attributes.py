"""Custom attributes of users, groups and projects: administrators only; list, get, set
(create or update) and delete; and their use in the ``with_custom_attributes`` views and
the ``custom_attributes[key]`` filters."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import gitlab
import pytest

from fakeservice import FakeService

SCENARIO: dict[str, Any] = {
    "users": [
        {"username": "root", "admin": True, "tokens": [{"name": "t", "token": "root-token"}]},
        {
            "username": "olga",
            "tokens": [{"name": "t", "token": "olga-token"}],
            "custom_attributes": {"location": "Oslo"},
        },
    ],
    "groups": [
        {"path": "team", "visibility": "public", "members": [{"user": "olga", "role": "owner"}]},
        {"path": "vault", "visibility": "private"},
    ],
    "projects": [{"path": "team/app", "visibility": "public"}],
}
RESOURCES = ["/users/olga", "/groups/team", "/projects/team%2Fapp"]


@pytest.fixture
def svc() -> Iterator[FakeService]:
    service = FakeService(SCENARIO)
    yield service
    assert not service.server_errors


def call(
    svc: FakeService,
    method: str,
    path: str,
    who: str | None = "root",
    body: Any = None,
    **query: Any,
) -> Any:
    token = None if who is None else f"{who}-token"
    return svc.request(method, path, token=token, json_body=body, query=query or None)


def sb(response: Any) -> tuple[int, Any]:
    return response.status, (response.json() if response.body else None)


@pytest.mark.parametrize("resource", RESOURCES)
def test_set_list_get_delete(svc: FakeService, resource: str) -> None:
    base = f"{resource}/custom_attributes"
    assert sb(call(svc, "PUT", f"{base}/zone", body={"value": "north"})) == (
        200,
        {"key": "zone", "value": "north"},
    )
    assert sb(call(svc, "PUT", f"{base}/area", body={"value": 51})) == (
        200,
        {"key": "area", "value": "51"},
    )
    assert sb(call(svc, "PUT", f"{base}/zone", body={"value": "south"})) == (
        200,
        {"key": "zone", "value": "south"},
    )
    listed = call(svc, "GET", base).json()
    assert [a for a in listed if a["key"] != "location"] == [
        {"key": "area", "value": "51"},
        {"key": "zone", "value": "south"},
    ]
    assert sb(call(svc, "GET", f"{base}/zone")) == (200, {"key": "zone", "value": "south"})
    response = call(svc, "DELETE", f"{base}/zone")
    assert (response.status, response.body) == (204, b"")
    assert sb(call(svc, "GET", f"{base}/zone")) == (404, {"message": "404 Not found"})
    assert sb(call(svc, "DELETE", f"{base}/zone")) == (404, {"message": "404 Not found"})


def test_user_by_id_and_scenario_attributes(svc: FakeService) -> None:
    from fakeservice.users.models import find_by_username

    olga = find_by_username(svc.store, "olga")
    assert olga is not None
    assert sb(call(svc, "GET", f"/users/{olga.id}/custom_attributes")) == (
        200,
        [{"key": "location", "value": "Oslo"}],
    )


@pytest.mark.parametrize("resource", RESOURCES)
@pytest.mark.parametrize(
    ("method", "suffix"), [("GET", ""), ("GET", "/k"), ("PUT", "/k"), ("DELETE", "/k")]
)
def test_administrators_only(svc: FakeService, resource: str, method: str, suffix: str) -> None:
    path = f"{resource}/custom_attributes{suffix}"
    body = {"value": "v"} if method == "PUT" else None
    assert sb(call(svc, method, path, "olga", body)) == (403, {"message": "403 Forbidden"})
    assert sb(call(svc, method, path, None, body)) == (401, {"message": "401 Unauthorized"})


@pytest.mark.parametrize(
    ("path", "who", "expected"),
    [
        ("/users/nobody/custom_attributes", "root", (404, {"message": "404 User Not Found"})),
        ("/users/99999/custom_attributes", "olga", (404, {"message": "404 User Not Found"})),
        ("/groups/nope/custom_attributes", "root", (404, {"message": "404 Group Not Found"})),
        ("/groups/vault/custom_attributes", "olga", (404, {"message": "404 Group Not Found"})),
        (
            "/projects/team%2Fnope/custom_attributes",
            "root",
            (404, {"message": "404 Project Not Found"}),
        ),
    ],
)
def test_unknown_or_invisible_resource(
    svc: FakeService, path: str, who: str, expected: tuple
) -> None:
    assert sb(call(svc, "GET", path, who)) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (None, (400, {"error": "value is missing"})),
        ({"value": " "}, (400, {"message": {"value": ["can't be blank"]}})),
        ({"value": ["a"]}, (400, {"error": "value is invalid"})),
    ],
)
def test_put_validation(svc: FakeService, body: Any, expected: tuple) -> None:
    assert sb(call(svc, "PUT", "/groups/team/custom_attributes/k", body=body)) == expected
    assert call(svc, "GET", "/groups/team/custom_attributes").json() == []


def test_attributes_feed_views_and_filters(svc: FakeService) -> None:
    call(svc, "PUT", "/groups/team/custom_attributes/tier", body={"value": "gold"})
    call(svc, "PUT", "/projects/team%2Fapp/custom_attributes/tier", body={"value": "gold"})
    groups = call(
        svc,
        "GET",
        "/groups",
        **{"custom_attributes[tier]": "gold", "with_custom_attributes": "true"},
    )
    assert [(g["full_path"], g["custom_attributes"]) for g in groups.json()] == [
        ("team", [{"key": "tier", "value": "gold"}])
    ]
    projects = call(svc, "GET", "/groups/team/projects", **{"custom_attributes[tier]": "gold"})
    assert [p["path_with_namespace"] for p in projects.json()] == ["team/app"]
    detail = call(svc, "GET", "/groups/team", with_custom_attributes="true").json()
    assert detail["custom_attributes"] == [{"key": "tier", "value": "gold"}]


def test_through_python_gitlab(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="root-token")
        group = gl.groups.get("team")
        attribute = group.customattributes.set("owner", "ops")
        assert (attribute.key, attribute.value) == ("owner", "ops")
        assert [(a.key, a.value) for a in group.customattributes.list()] == [("owner", "ops")]
        assert group.customattributes.get("owner").value == "ops"
        group.customattributes.delete("owner")
        with pytest.raises(gitlab.GitlabGetError) as missing:
            group.customattributes.get("owner")
        assert missing.value.response_code == 404
        user = gl.users.list(username="olga")[0]
        assert [(a.key, a.value) for a in user.customattributes.list()] == [("location", "Oslo")]
        project = gl.projects.get("team/app")
        project.customattributes.set("x", "1")
        assert project.customattributes.get("x").value == "1"
        denied = gitlab.Gitlab(url, private_token="olga-token").groups.get("team")
        with pytest.raises(gitlab.GitlabListError) as forbidden:
            denied.customattributes.list()
        assert forbidden.value.response_code == 403
