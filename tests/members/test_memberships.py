"""``GET /users/:id/memberships`` through raw requests and python-gitlab."""

from __future__ import annotations

import gitlab
import pytest

from fakeservice import FakeService

from .helpers import client, uid


def memberships(svc: FakeService, user: str, **query: str) -> list[tuple[str, str, int]]:
    response = svc.request(
        "GET", f"/users/{uid(svc, user)}/memberships", query=query, token="root-token"
    )
    assert response.status == 200, response.body
    return [(m["source_type"], m["source_name"], m["access_level"]) for m in response.json()]


def test_direct_memberships_oldest_first(svc: FakeService) -> None:
    assert memberships(svc, "dan") == [
        ("Namespace", "Alpha", 30),
        ("Namespace", "Beta", 20),
        ("Project", "site", 40),
    ]
    assert memberships(svc, "otto") == []


def test_exact_body_and_type_filter(svc: FakeService) -> None:
    response = svc.request(
        "GET",
        f"/users/{uid(svc, 'dan')}/memberships",
        query={"type": "Project"},
        token="root-token",
    )
    [only] = response.json()
    assert only == {
        "source_id": 1,
        "source_name": "site",
        "source_type": "Project",
        "access_level": 40,
    }
    assert memberships(svc, "dan", type="Namespace") == [
        ("Namespace", "Alpha", 30),
        ("Namespace", "Beta", 20),
    ]


def test_follows_membership_changes(svc: FakeService) -> None:
    otto = uid(svc, "otto")
    svc.request(
        "POST", "/groups/other/members", json_body={"user_id": otto, "access_level": 20},
        token="carl-token",
    )  # fmt: skip
    assert memberships(svc, "otto") == [("Namespace", "Other", 20)]


@pytest.mark.parametrize(
    ("path", "query", "token", "status", "body"),
    [
        ("/users/99999/memberships", {}, "root-token", 404, {"message": "404 User Not Found"}),
        ("/users/dan/memberships", {}, "dan-token", 403, {"message": "403 Forbidden"}),
        ("/users/dan/memberships", {}, None, 401, {"message": "401 Unauthorized"}),
        (
            "/users/dan/memberships",
            {"type": "Group"},
            "root-token",
            400,
            {"error": "type does not have a valid value"},
        ),
    ],
)
def test_refusals(
    svc: FakeService,
    path: str,
    query: dict[str, str],
    token: str | None,
    status: int,
    body: dict[str, str],
) -> None:
    response = svc.request("GET", path, query=query, token=token)
    assert (response.status, response.json()) == (status, body)


def test_python_gitlab(served: tuple[FakeService, str]) -> None:
    service, url = served
    user = client(url, "root").users.get(uid(service, "dan"), lazy=True)
    found = user.memberships.list(get_all=True, type="Project")
    assert [(m.source_id, m.source_type, m.access_level) for m in found] == [(1, "Project", 40)]
    with pytest.raises(gitlab.GitlabListError) as refused:
        client(url, "dan").users.get(uid(service, "dan"), lazy=True).memberships.list()
    assert refused.value.response_code == 403
