"""``GET /groups/:id``: visibility (404, never 403), deprecated project arrays,
``runners_token`` for Owners and administrators, custom attributes."""

from __future__ import annotations

import pytest

from fakeservice import FakeService

from .helpers import get, group_id

NOT_FOUND = (404, {"message": "404 Group Not Found"})


def paths(items: list[dict]) -> list[str]:
    return [p["path_with_namespace"] for p in items]


def test_public_group_for_anonymous_callers(svc: FakeService) -> None:
    response = get(svc, "/groups/alpha")
    assert response.status == 200
    assert response.header("Content-Type") == "application/json"
    body = response.json()
    assert body["id"] == group_id(svc, "alpha")
    assert "runners_token" not in body
    assert paths(body["projects"]) == ["alpha/site"]
    assert paths(body["shared_projects"]) == ["pub/shared"]
    assert body["shared_with_groups"] == []
    assert list(body)[:25] == list(get(svc, "/groups", None).json()[0])


def test_owner_sees_everything_and_the_runners_token(svc: FakeService) -> None:
    body = get(svc, "/groups/alpha", "olga").json()
    assert paths(body["projects"]) == ["alpha/secret", "alpha/tools", "alpha/site"]
    assert paths(body["shared_projects"]) == ["pub/shared", "omega/lib"]
    assert body["runners_token"] == f"GR1348941{group_id(svc, 'alpha'):012d}"
    assert "runners_token" in get(svc, "/groups/alpha", "root").json()
    assert "runners_token" not in get(svc, "/groups/alpha", "dan").json()
    assert "runners_token" not in get(svc, "/groups/alpha%2Fbeta", "mia").json()


def test_project_arrays_follow_visibility(svc: FakeService) -> None:
    body = get(svc, "/groups/alpha", "otto").json()
    assert paths(body["projects"]) == ["alpha/tools", "alpha/site"]
    assert paths(body["shared_projects"]) == ["pub/shared", "omega/lib"]
    assert paths(get(svc, "/groups/alpha", "eve").json()["projects"]) == ["alpha/site"]


def test_without_projects(svc: FakeService) -> None:
    body = get(svc, "/groups/alpha", "olga", with_projects="false").json()
    assert "projects" not in body and "shared_projects" not in body
    assert body["runners_token"]


def test_custom_attributes_for_administrators(svc: FakeService) -> None:
    body = get(svc, "/groups/alpha", "root", with_custom_attributes="true").json()
    assert body["custom_attributes"] == [
        {"key": "team", "value": "core"},
        {"key": "tier", "value": "gold"},
    ]
    assert body["projects"][-1]["custom_attributes"] == [{"key": "kind", "value": "web"}]
    assert (
        "custom_attributes"
        not in get(svc, "/groups/alpha", "olga", with_custom_attributes="true").json()
    )
    assert "custom_attributes" not in get(svc, "/groups/alpha", "root").json()


@pytest.mark.parametrize(
    ("path", "who", "visible"),
    [
        ("alpha%2Fbeta", None, False),  # internal: hidden from anonymous callers
        ("alpha%2Fbeta", "eve", False),  # ... and from external users
        ("alpha%2Fbeta", "otto", True),
        ("alpha%2Fbeta%2Fgamma", "otto", False),  # private: members only
        ("alpha%2Fbeta%2Fgamma", "mia", True),  # inherited from alpha/beta
        ("alpha%2Fbeta%2Fgamma", "dan", True),  # inherited from alpha
        ("alpha%2Fdelta", "mia", False),
        ("zeta", "otto", False),
        ("zeta", "pat", True),  # a project member sees the project's ancestors
        ("zeta%2Fhidden", "pat", True),
        ("zeta", "root", True),
        ("nope", "root", False),
        ("99999", "root", False),
        ("%C2%B2", "root", False),  # a digit to str.isdigit, not to int()
    ],
)
def test_visibility(svc: FakeService, path: str, who: str | None, visible: bool) -> None:
    response = get(svc, f"/groups/{path}", who)
    if visible:
        assert response.status == 200
    else:
        assert (response.status, response.json()) == NOT_FOUND


def test_by_id_and_case_insensitive_path(svc: FakeService) -> None:
    beta = group_id(svc, "alpha/beta")
    assert get(svc, f"/groups/{beta}", "otto").json()["full_path"] == "alpha/beta"
    assert get(svc, "/groups/ALPHA%2FBeta", "otto").json()["id"] == beta


def test_unencoded_path_matches_no_route(svc: FakeService) -> None:
    response = get(svc, "/groups/alpha/beta", "otto")
    assert (response.status, response.json()) == (404, {"error": "404 Not Found"})


def test_parameter_error(svc: FakeService) -> None:
    response = get(svc, "/groups/alpha", "olga", with_projects="never", with_custom_attributes="x")
    assert (response.status, response.json()) == (
        400,
        {"error": "with_custom_attributes is invalid, with_projects is invalid"},
    )
