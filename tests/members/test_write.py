"""Adding, changing and removing members: permissions, exact error bodies, state after."""

from __future__ import annotations

import pytest
from support.calls import call_as as call

from fakeservice import FakeService
from fakeservice.web.http import Response

from .helpers import roles, uid

FORBIDDEN = (403, {"message": "403 Forbidden"})


def sb(response: Response) -> tuple[int, object]:
    return response.status, response.json()


# -- add -------------------------------------------------------------------------------------
def test_add_a_member(svc: FakeService) -> None:
    response = call(
        svc,
        "POST",
        "/groups/alpha/members",
        "olga",
        {"user_id": uid(svc, "otto"), "access_level": 20, "expires_at": "2026-06-30"},
    )
    assert response.status == 201
    body = response.json()
    assert (body["id"], body["username"], body["access_level"], body["expires_at"]) == (
        uid(svc, "otto"),
        "otto",
        20,
        "2026-06-30",
    )
    assert body["created_by"] == {
        "id": uid(svc, "olga"),
        "username": "olga",
        "name": "Olga Example",
        "state": "active",
        "locked": False,
        "avatar_url": None,
        "web_url": "http://fakeservice.test/olga",
    }
    assert roles(call(svc, "GET", "/groups/alpha/members", "olga")) == [
        ("olga", 50),
        ("dan", 30),
        ("otto", 20),
    ]
    assert roles(call(svc, "GET", "/groups/alpha%2Fbeta/members/all", "olga"))[-1] == ("otto", 20)
    assert call(svc, "GET", "/groups/alpha%2Fbeta%2Fgamma", "otto").status == 200  # access follows


def test_add_by_username_and_datetime_expiry(svc: FakeService) -> None:
    body = {"username": "Otto", "access_level": 10, "expires_at": "2026-04-01T10:00:00Z"}
    response = call(svc, "POST", "/projects/alpha%2Fsite/members", "dan", body)
    assert (response.status, response.json()["expires_at"]) == (201, "2026-04-01")


def test_add_several_members(svc: FakeService) -> None:
    ids = f"{uid(svc, 'otto')},{uid(svc, 'carl')},99999"
    response = call(
        svc, "POST", "/groups/alpha/members", "olga", {"user_id": ids, "access_level": 30}
    )
    assert sb(response) == (201, {"status": "success"})
    assert roles(call(svc, "GET", "/groups/alpha/members", "olga"))[2:] == [
        ("otto", 30),
        ("carl", 30),
    ]
    response = call(
        svc, "POST", "/groups/alpha/members", "olga", {"username": "otto,pat", "access_level": 20}
    )
    assert sb(response) == (201, {"status": "success"})
    assert roles(call(svc, "GET", "/groups/alpha/members", "olga"))[2:] == [
        ("otto", 20),
        ("carl", 30),
        ("pat", 20),
    ]


def test_add_existing_member_conflicts(svc: FakeService) -> None:
    response = call(
        svc,
        "POST",
        "/groups/alpha/members",
        "olga",
        {"user_id": uid(svc, "dan"), "access_level": 40},
    )
    assert sb(response) == (409, {"message": "Member already exists"})
    owner = call(
        svc,
        "POST",
        "/projects/olga%2Fdotfiles/members",
        "olga",
        {"username": "olga", "access_level": 40},
    )
    assert sb(owner) == (409, {"message": "Member already exists"})
    assert roles(call(svc, "GET", "/groups/alpha/members", "olga")) == [("olga", 50), ("dan", 30)]


@pytest.mark.parametrize(
    "body", [{"user_id": 99999}, {"user_id": "nobody"}, {"username": "nobody"}]
)
def test_add_unknown_user(svc: FakeService, body: dict) -> None:
    response = call(svc, "POST", "/groups/alpha/members", "olga", {**body, "access_level": 30})
    assert sb(response) == (404, {"message": "404 User Not Found"})


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"user_id": "{otto}"}, (400, {"error": "access_level is missing"})),
        (
            {"access_level": 30},
            (
                400,
                {"error": "user_id, username are missing, at least one parameter must be provided"},
            ),
        ),
        (
            {"user_id": "{otto}", "username": "otto", "access_level": 30},
            (400, {"error": "user_id, username are mutually exclusive"}),
        ),
        (
            {"user_id": "{otto}", "access_level": "high"},
            (400, {"error": "access_level is invalid"}),
        ),
        (
            {"user_id": "{otto}", "access_level": 30, "expires_at": "soon"},
            (400, {"error": "expires_at is invalid"}),
        ),
        (
            {"user_id": "{otto}", "access_level": 35},
            (400, {"message": {"access_level": ["is not included in the list"]}}),
        ),
        (
            {"user_id": "{otto}", "access_level": 30, "expires_at": "2026-02-28"},
            (400, {"message": {"expires_at": ["cannot be a date in the past"]}}),
        ),
        (
            {"user_id": "{otto}", "access_level": 5, "expires_at": "2020-01-01"},
            (
                400,
                {
                    "message": {
                        "access_level": ["is not included in the list"],
                        "expires_at": ["cannot be a date in the past"],
                    }
                },
            ),
        ),
        (
            {"user_id": "{otto},{carl}", "access_level": 99},
            (400, {"message": {"access_level": ["is not included in the list"]}}),
        ),
    ],
)
def test_add_validation(svc: FakeService, body: dict, expected: tuple) -> None:
    body = {
        k: v.format(otto=uid(svc, "otto"), carl=uid(svc, "carl")) if isinstance(v, str) else v
        for k, v in body.items()
    }
    assert sb(call(svc, "POST", "/groups/alpha/members", "olga", body)) == expected
    assert roles(call(svc, "GET", "/groups/alpha/members", "olga")) == [("olga", 50), ("dan", 30)]


def test_add_today_is_allowed(svc: FakeService) -> None:
    body = {"user_id": uid(svc, "otto"), "access_level": 30, "expires_at": "2026-03-01"}
    assert call(svc, "POST", "/groups/alpha/members", "olga", body).status == 201


@pytest.mark.parametrize(
    ("path", "who", "level", "status"),
    [
        ("/groups/alpha/members", "dan", 10, 403),  # Developer
        ("/groups/alpha/members", None, 10, 401),
        ("/groups/alpha%2Fbeta/members", "mia", 40, 201),  # Maintainer, up to Maintainer
        ("/groups/alpha%2Fbeta/members", "mia", 50, 403),
        ("/groups/alpha%2Fbeta/members", "olga", 50, 201),  # inherited Owner
        ("/groups/alpha%2Fbeta/members", "root", 50, 201),
        ("/projects/alpha%2Fsite/members", "dan", 40, 201),  # project Maintainer
        ("/projects/alpha%2Fsite/members", "dan", 50, 403),
        ("/projects/alpha%2Fsite/members", "olga", 50, 201),  # Owner through the group
        ("/projects/alpha%2Fsite/members", "pat", 10, 403),
        ("/projects/alpha%2Fsite/members", "carl", 10, 403),  # Reporter through a share
        ("/projects/olga%2Fdotfiles/members", "olga", 50, 201),
        ("/projects/olga%2Fdotfiles/members", "dora", 10, 403),
        ("/groups/solo/members", "otto", 10, 404),
    ],
)
def test_add_permissions(
    svc: FakeService, path: str, who: str | None, level: int, status: int
) -> None:
    response = call(svc, "POST", path, who, {"user_id": uid(svc, "otto"), "access_level": level})
    assert response.status == status
    if status == 403:
        assert response.json() == {"message": "403 Forbidden"}


# -- change ----------------------------------------------------------------------------------
def test_change_role_and_expiry(svc: FakeService) -> None:
    dan = uid(svc, "dan")
    response = call(
        svc,
        "PUT",
        f"/groups/alpha/members/{dan}",
        "olga",
        {"access_level": 40, "expires_at": "2027-01-01"},
    )
    assert response.status == 200
    assert (response.json()["access_level"], response.json()["expires_at"]) == (40, "2027-01-01")
    again = call(svc, "PUT", f"/groups/alpha/members/{dan}", "olga", {"access_level": 20})
    assert (again.json()["access_level"], again.json()["expires_at"]) == (20, "2027-01-01")
    cleared = call(
        svc, "PUT", f"/groups/alpha/members/{dan}", "olga", {"access_level": 20, "expires_at": ""}
    )
    assert cleared.json()["expires_at"] is None
    assert roles(call(svc, "GET", "/groups/alpha/members", "olga")) == [("olga", 50), ("dan", 20)]
    # dan's direct Reporter role in beta now equals the inherited one
    assert ("dan", 20) in roles(call(svc, "GET", "/groups/alpha%2Fbeta/members/all", "olga"))


@pytest.mark.parametrize(
    ("path", "who", "target", "level", "status"),
    [
        ("/groups/alpha%2Fbeta/members", "mia", "dan", 40, 200),
        ("/groups/alpha%2Fbeta/members", "mia", "dan", 50, 403),
        ("/groups/alpha%2Fbeta/members", "dan", "mia", 10, 403),
        ("/groups/alpha/members", "dan", "olga", 10, 403),
        ("/groups/alpha/members", "olga", "olga", 40, 403),  # the last Owner
        ("/groups/solo/members", "olga", "olga", 10, 403),
        ("/groups/solo/members", "root", "olga", 10, 403),
        ("/groups/alpha%2Fbeta/members", "olga", "otto", 10, 404),
        ("/groups/alpha%2Fbeta/members", "olga", "olga", 10, 404),  # inherited, not direct
        ("/projects/alpha%2Fsite/members", "dan", "pat", 20, 200),
        ("/projects/alpha%2Fsite/members", "pat", "pat", 40, 403),
        ("/projects/olga%2Fdotfiles/members", "olga", "olga", 30, 403),  # personal owner
        ("/projects/olga%2Fdotfiles/members", "olga", "dora", 30, 200),
    ],
)
def test_change_permissions(
    svc: FakeService, path: str, who: str, target: str, level: int, status: int
) -> None:
    response = call(svc, "PUT", f"{path}/{uid(svc, target)}", who, {"access_level": level})
    assert response.status == status
    if status == 404:
        assert response.json() == {"message": "404 Not found"}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({}, (400, {"error": "access_level is missing"})),
        ({"access_level": "x"}, (400, {"error": "access_level is invalid"})),
        (
            {"access_level": 45},
            (400, {"message": {"access_level": ["is not included in the list"]}}),
        ),
        (
            {"access_level": 30, "expires_at": "2026-01-01"},
            (400, {"message": {"expires_at": ["cannot be a date in the past"]}}),
        ),
    ],
)
def test_change_validation(svc: FakeService, body: dict, expected: tuple) -> None:
    dan = uid(svc, "dan")
    assert sb(call(svc, "PUT", f"/groups/alpha/members/{dan}", "olga", body)) == expected
    assert roles(call(svc, "GET", "/groups/alpha/members", "olga")) == [("olga", 50), ("dan", 30)]


# -- remove ----------------------------------------------------------------------------------
def test_remove_also_removes_memberships_below(svc: FakeService) -> None:
    dan = uid(svc, "dan")
    response = call(svc, "DELETE", f"/groups/alpha/members/{dan}", "olga")
    assert (response.status, response.body) == (204, b"")
    assert roles(call(svc, "GET", "/groups/alpha/members", "olga")) == [("olga", 50)]
    assert ("dan", 20) not in roles(call(svc, "GET", "/groups/alpha%2Fbeta/members", "olga"))
    assert roles(call(svc, "GET", "/projects/alpha%2Fsite/members", "olga")) == [("pat", 30)]
    assert call(svc, "GET", "/groups/alpha%2Fbeta%2Fgamma", "dan").status == 404


def test_remove_keeping_memberships_below(svc: FakeService) -> None:
    dan = uid(svc, "dan")
    response = call(svc, "DELETE", f"/groups/alpha/members/{dan}", "olga", skip_subresources="true")
    assert response.status == 204
    assert roles(call(svc, "GET", "/groups/alpha%2Fbeta/members", "olga")) == [
        ("mia", 40),
        ("dan", 20),
        ("ivy", 30),
    ]
    assert roles(call(svc, "GET", "/projects/alpha%2Fsite/members", "olga")) == [
        ("pat", 30),
        ("dan", 40),
    ]


def test_last_owner_cannot_leave_until_another_owner_exists(svc: FakeService) -> None:
    olga = uid(svc, "olga")
    assert sb(call(svc, "DELETE", f"/groups/alpha/members/{olga}", "olga")) == FORBIDDEN
    assert sb(call(svc, "DELETE", f"/groups/alpha/members/{olga}", "root")) == FORBIDDEN
    assert (
        call(
            svc, "POST", "/groups/alpha/members", "olga", {"username": "otto", "access_level": 50}
        ).status
        == 201
    )
    assert call(svc, "DELETE", f"/groups/alpha/members/{olga}", "olga").status == 204
    assert roles(call(svc, "GET", "/groups/alpha/members", "otto")) == [("dan", 30), ("otto", 50)]


def test_subgroup_owner_with_an_inherited_owner_can_leave(svc: FakeService) -> None:
    assert (
        call(
            svc,
            "POST",
            "/groups/alpha%2Fbeta/members",
            "olga",
            {"username": "otto", "access_level": 50},
        ).status
        == 201
    )
    assert (
        call(svc, "DELETE", f"/groups/alpha%2Fbeta/members/{uid(svc, 'otto')}", "otto").status
        == 204
    )


@pytest.mark.parametrize(
    ("path", "who", "target", "status"),
    [
        ("/groups/alpha/members", "dan", "dan", 204),  # leaving
        ("/groups/alpha%2Fbeta/members", "mia", "dan", 204),
        ("/groups/alpha%2Fbeta/members", "dan", "mia", 403),
        ("/groups/alpha/members", "mia", "dan", 403),  # mia is no member of alpha
        ("/groups/alpha/members", None, "dan", 401),
        ("/groups/alpha/members", "olga", "otto", 404),
        ("/projects/alpha%2Fsite/members", "dan", "pat", 204),
        ("/projects/alpha%2Fsite/members", "pat", "dan", 403),
        ("/projects/alpha%2Fsite/members", "pat", "pat", 204),
        ("/projects/olga%2Fdotfiles/members", "olga", "olga", 403),
        ("/projects/olga%2Fdotfiles/members", "root", "olga", 403),
        ("/projects/olga%2Fdotfiles/members", "olga", "dora", 204),
        ("/projects/alpha%2Fbeta%2Fgamma%2Fvault/members", "otto", "dan", 404),
    ],
)
def test_remove_permissions(
    svc: FakeService, path: str, who: str | None, target: str, status: int
) -> None:
    response = call(svc, "DELETE", f"{path}/{uid(svc, target)}", who)
    assert response.status == status


def test_removing_an_owner_needs_an_owner(svc: FakeService) -> None:
    assert (
        call(
            svc,
            "POST",
            "/groups/alpha%2Fbeta/members",
            "olga",
            {"username": "otto", "access_level": 50},
        ).status
        == 201
    )
    otto = uid(svc, "otto")
    assert sb(call(svc, "DELETE", f"/groups/alpha%2Fbeta/members/{otto}", "mia")) == FORBIDDEN
    assert call(svc, "DELETE", f"/groups/alpha%2Fbeta/members/{otto}", "olga").status == 204
