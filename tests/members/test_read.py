"""Reading members: direct lists, inherited (``/all``) lists, one member, filters, visibility."""

from __future__ import annotations

import pytest
from support.calls import call_as as call

from fakeservice import FakeService

from .helpers import roles, uid


def test_member_view(svc: FakeService) -> None:
    response = call(svc, "GET", "/groups/alpha/members", "dan")
    assert response.status == 200
    assert response.header("X-Total") == "2"
    olga = response.json()[0]
    assert olga == {
        "id": uid(svc, "olga"),
        "username": "olga",
        "name": "Olga Example",
        "state": "active",
        "locked": False,
        "avatar_url": None,
        "web_url": "http://fakeservice.test/olga",
        "access_level": 50,
        "created_at": "2026-03-01T12:00:00Z",
        "created_by": None,
        "expires_at": None,
        "membership_state": "active",
    }


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/groups/alpha/members", [("olga", 50), ("dan", 30)]),
        ("/groups/alpha%2Fbeta/members", [("mia", 40), ("dan", 20), ("ivy", 30)]),
        ("/groups/alpha%2Fbeta%2Fgamma/members", []),
        ("/projects/alpha%2Fsite/members", [("pat", 30), ("dan", 40)]),
        ("/projects/olga%2Fdotfiles/members", [("olga", 50), ("dora", 20)]),
    ],
)
def test_direct_members(svc: FakeService, path: str, expected: list) -> None:
    assert roles(call(svc, "GET", path, "root")) == expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/groups/alpha/members/all", [("olga", 50), ("dan", 30)]),
        # dan: Developer inherited from alpha beats Reporter in beta; ivy's membership expired
        ("/groups/alpha%2Fbeta/members/all", [("olga", 50), ("dan", 30), ("mia", 40)]),
        ("/groups/alpha%2Fbeta%2Fgamma/members/all", [("olga", 50), ("dan", 30), ("mia", 40)]),
        # carl: Maintainer of a group the project is shared with as Reporter
        (
            "/projects/alpha%2Fsite/members/all",
            [("olga", 50), ("carl", 20), ("pat", 30), ("dan", 40)],
        ),
        ("/projects/alpha%2Fbeta%2Fapi/members/all", [("olga", 50), ("dan", 30), ("mia", 40)]),
        ("/projects/olga%2Fdotfiles/members/all", [("olga", 50), ("dora", 20)]),
    ],
)
def test_all_members_highest_role_wins(svc: FakeService, path: str, expected: list) -> None:
    assert roles(call(svc, "GET", path, "root")) == expected


def test_personal_project_owner_entry(svc: FakeService) -> None:
    owner = call(svc, "GET", f"/projects/olga%2Fdotfiles/members/{uid(svc, 'olga')}", "dora").json()
    assert (owner["access_level"], owner["created_at"], owner["created_by"]) == (
        50,
        "2026-02-15T08:00:00Z",
        None,
    )


def test_one_member(svc: FakeService) -> None:
    dan = call(svc, "GET", f"/groups/alpha%2Fbeta/members/{uid(svc, 'dan')}", "mia")
    assert (dan.status, dan.json()["access_level"]) == (200, 20)
    dan_all = call(svc, "GET", f"/groups/alpha%2Fbeta/members/all/{uid(svc, 'dan')}", "mia")
    assert (dan_all.status, dan_all.json()["access_level"]) == (200, 30)
    olga_all = call(svc, "GET", f"/projects/alpha%2Fsite/members/all/{uid(svc, 'olga')}", "pat")
    assert olga_all.json()["access_level"] == 50
    carl_all = call(svc, "GET", f"/projects/alpha%2Fsite/members/all/{uid(svc, 'carl')}", "pat")
    assert carl_all.json()["access_level"] == 20


@pytest.mark.parametrize(
    "path",
    [
        "/groups/alpha%2Fbeta/members/{olga}",  # inherited only
        "/groups/alpha/members/{otto}",
        "/groups/alpha/members/all/{otto}",
        "/groups/alpha%2Fbeta/members/all/{ivy}",  # expired
        "/projects/alpha%2Fsite/members/{carl}",
        "/groups/alpha/members/99999",
    ],
)
def test_missing_member_is_404(svc: FakeService, path: str) -> None:
    names = {n: uid(svc, n) for n in ("olga", "otto", "ivy", "carl")}
    response = call(svc, "GET", path.format(**names), "root")
    assert (response.status, response.json()) == (404, {"message": "404 Not found"})


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({"query": "mi"}, [("mia", 40)]),
        ({"query": "@DAN"}, [("dan", 20)]),
        ({"query": "example"}, [("mia", 40), ("dan", 20), ("ivy", 30)]),
        ({"query": "ivy exa"}, [("ivy", 30)]),
        ({"query": "nobody"}, []),
        ({"user_ids[]": ["{mia}", "{ivy}"]}, [("mia", 40), ("ivy", 30)]),
        ({"user_ids": "{mia},{dan}"}, [("mia", 40), ("dan", 20)]),
        ({"skip_users[]": ["{mia}"]}, [("dan", 20), ("ivy", 30)]),
        ({"skip_users": "{mia},{dan}", "query": "e"}, [("ivy", 30)]),
    ],
)
def test_direct_list_filters(svc: FakeService, query: dict, expected: list) -> None:
    ids = {n: uid(svc, n) for n in ("mia", "dan", "ivy")}
    query = {
        k: [i.format(**ids) for i in v] if isinstance(v, list) else v.format(**ids)
        for k, v in query.items()
    }
    assert roles(call(svc, "GET", "/groups/alpha%2Fbeta/members", "mia", **query)) == expected


def test_all_list_filters(svc: FakeService) -> None:
    found = call(svc, "GET", "/projects/alpha%2Fsite/members/all", "pat", query="olga@pub.example")
    assert roles(found) == [("olga", 50)]
    found = call(
        svc,
        "GET",
        "/projects/alpha%2Fsite/members/all",
        "pat",
        **{"user_ids[]": [uid(svc, "carl")]},
    )
    assert roles(found) == [("carl", 20)]


def test_pagination(svc: FakeService) -> None:
    first = call(svc, "GET", "/projects/alpha%2Fsite/members/all", "pat", per_page=3)
    assert roles(first) == [("olga", 50), ("carl", 20), ("pat", 30)]
    assert (first.header("X-Total"), first.header("X-Next-Page")) == ("4", "2")
    second = call(svc, "GET", "/projects/alpha%2Fsite/members/all", "pat", per_page=3, page=2)
    assert roles(second) == [("dan", 40)]
    direct = call(svc, "GET", "/projects/olga%2Fdotfiles/members", "dora", per_page=1, page=2)
    assert (roles(direct), direct.header("X-Total-Pages")) == ([("dora", 20)], "2")


@pytest.mark.parametrize(
    ("path", "who", "status", "body"),
    [
        ("/groups/alpha/members", None, 401, {"message": "401 Unauthorized"}),
        ("/projects/alpha%2Fsite/members/all", None, 401, {"message": "401 Unauthorized"}),
        ("/groups/solo/members", "otto", 404, {"message": "404 Group Not Found"}),
        ("/groups/alpha%2Fbeta/members", "eve", 404, {"message": "404 Group Not Found"}),
        (
            "/projects/alpha%2Fbeta%2Fgamma%2Fvault/members",
            "otto",
            404,
            {"message": "404 Project Not Found"},
        ),
        (
            "/projects/alpha%2Fbeta%2Fapi/members/all",
            "eve",
            404,
            {"message": "404 Project Not Found"},
        ),
        ("/groups/alpha/members/abc", "olga", 400, {"error": "user_id is invalid"}),
        ("/groups/alpha/members?user_ids[]=x", "olga", 400, {"error": "user_ids is invalid"}),
        (
            "/groups/alpha/members?per_page=0",
            "olga",
            400,
            {"error": "per_page has a value not allowed"},
        ),
    ],
)
def test_access_and_parameter_errors(
    svc: FakeService, path: str, who: str | None, status: int, body: dict
) -> None:
    response = call(svc, "GET", path, who)
    assert (response.status, response.json()) == (status, body)


def test_anyone_who_can_read_the_source_may_list(svc: FakeService) -> None:
    assert roles(call(svc, "GET", "/groups/alpha/members", "otto")) == [("olga", 50), ("dan", 30)]
    assert roles(call(svc, "GET", "/groups/alpha%2Fbeta%2Fgamma/members/all", "dan"))[0] == (
        "olga",
        50,
    )
