"""``POST /groups``, ``PUT /groups/:id`` and ``DELETE /groups/:id``: permissions,
validation bodies, and the state after each call."""

from __future__ import annotations

import pytest

from fakeservice import FakeService
from fakeservice.web.http import Response

from .helpers import call, full_paths, get, group_id, user_id

FORBIDDEN = (403, {"message": "403 Forbidden"})


def status_body(response: Response) -> tuple[int, object]:
    return response.status, response.json()


# -- create ----------------------------------------------------------------------------------
def test_create_top_level_group(svc: FakeService) -> None:
    response = call(
        svc,
        "POST",
        "/groups",
        "otto",
        {
            "name": "Otto's",
            "path": "ottos",
            "description": "mine",
            "emails_enabled": False,
            "request_access_enabled": False,
        },
    )
    assert response.status == 201
    body = response.json()
    assert body["full_path"] == "ottos" and body["full_name"] == "Otto's"
    assert (body["visibility"], body["parent_id"], body["description"]) == ("private", None, "mine")
    assert (body["emails_disabled"], body["emails_enabled"], body["request_access_enabled"]) == (
        True,
        False,
        False,
    )
    assert (body["projects"], body["shared_projects"]) == ([], [])
    assert body["runners_token"].startswith("GR1348941")
    assert body["created_at"] == "2026-03-01T12:00:00Z"
    members = get(svc, "/groups/ottos/members", "otto").json()
    otto = user_id(svc, "otto")
    assert [(m["id"], m["access_level"], m["created_by"]["id"]) for m in members] == [
        (otto, 50, otto)
    ]
    assert get(svc, "/groups/ottos", "olga").status == 404
    assert get(svc, "/groups/ottos", "otto").json() == body


def test_create_subgroup_needs_the_subgroup_creation_role(svc: FakeService) -> None:
    beta = group_id(svc, "alpha/beta")
    created = call(svc, "POST", "/groups", "mia", {"name": "New", "path": "new", "parent_id": beta})
    assert created.status == 201
    assert (created.json()["full_path"], created.json()["full_name"]) == (
        "alpha/beta/new",
        "Alpha / Beta / New",
    )
    assert created.json()["parent_id"] == beta
    assert (
        status_body(
            call(
                svc,
                "POST",
                "/groups",
                "dan",
                {"name": "X", "path": "x", "parent_id": group_id(svc, "alpha")},
            )
        )
        == FORBIDDEN
    )
    assert (
        status_body(
            call(
                svc,
                "POST",
                "/groups",
                "mia",
                {"name": "X", "path": "x", "parent_id": group_id(svc, "alpha")},
            )
        )
        == FORBIDDEN
    )
    assert (
        call(
            svc, "PUT", "/groups/alpha%2Fbeta", "olga", {"subgroup_creation_level": "owner"}
        ).status
        == 200
    )
    assert (
        status_body(
            call(svc, "POST", "/groups", "mia", {"name": "Y", "path": "y", "parent_id": beta})
        )
        == FORBIDDEN
    )
    assert (
        call(svc, "POST", "/groups", "olga", {"name": "Y", "path": "y", "parent_id": beta}).status
        == 201
    )
    assert (
        call(svc, "POST", "/groups", "root", {"name": "Z", "path": "z", "parent_id": beta}).status
        == 201
    )


def test_create_needs_can_create_group_for_top_level(svc: FakeService) -> None:
    assert status_body(call(svc, "POST", "/groups", "nog", {"name": "N", "path": "n"})) == FORBIDDEN
    assert status_body(call(svc, "POST", "/groups", None, {"name": "N", "path": "n"})) == (
        401,
        {"message": "401 Unauthorized"},
    )


@pytest.mark.parametrize("parent", ["zeta_id", 99999])
def test_create_under_an_invisible_parent_is_404(svc: FakeService, parent: object) -> None:
    parent_id = group_id(svc, "zeta") if parent == "zeta_id" else parent
    response = call(
        svc, "POST", "/groups", "otto", {"name": "N", "path": "n", "parent_id": parent_id}
    )
    assert status_body(response) == (404, {"message": "404 Group Not Found"})


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"name": "A", "path": "alpha"}, (400, {"message": {"path": ["has already been taken"]}})),
        ({"name": "A", "path": "olga"}, (400, {"message": {"path": ["has already been taken"]}})),
        (
            {"name": "A", "path": "-bad"},
            (
                400,
                {
                    "message": {
                        "path": [
                            "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'"
                        ]
                    }
                },
            ),
        ),
        ({"name": " ", "path": "fine"}, (400, {"message": {"name": ["can't be blank"]}})),
        ({"path": "fine"}, (400, {"error": "name is missing"})),
        ({}, (400, {"error": "name is missing, path is missing"})),
        (
            {"name": "A", "path": "a", "visibility": "secret"},
            (400, {"error": "visibility does not have a valid value"}),
        ),
        ({"name": "A", "path": "a", "parent_id": "x"}, (400, {"error": "parent_id is invalid"})),
        (
            {"name": "A", "path": "a", "project_creation_level": "everyone"},
            (400, {"error": "project_creation_level does not have a valid value"}),
        ),
        (
            {"name": "A", "path": "a", "subgroup_creation_level": "developer"},
            (400, {"error": "subgroup_creation_level does not have a valid value"}),
        ),
        (
            {"name": "A", "path": "a", "default_branch_protection": 9},
            (400, {"error": "default_branch_protection does not have a valid value"}),
        ),
        (
            {"name": "A", "path": "a", "lfs_enabled": "maybe"},
            (400, {"error": "lfs_enabled is invalid"}),
        ),
    ],
)
def test_create_validation(svc: FakeService, body: dict, expected: tuple) -> None:
    before = full_paths(get(svc, "/groups", "root"))
    assert status_body(call(svc, "POST", "/groups", "otto", body)) == expected
    assert full_paths(get(svc, "/groups", "root")) == before


def test_create_subgroup_more_visible_than_its_parent(svc: FakeService) -> None:
    body = {
        "name": "P",
        "path": "p",
        "parent_id": group_id(svc, "alpha/beta"),
        "visibility": "public",
    }
    assert status_body(call(svc, "POST", "/groups", "root", body)) == (
        400,
        {
            "message": {
                "visibility_level": [
                    "public is not allowed since the parent group has a internal visibility."
                ]
            }
        },
    )


# -- update ----------------------------------------------------------------------------------
def test_rename_moves_every_descendant_path(svc: FakeService) -> None:
    response = call(svc, "PUT", "/groups/alpha", "olga", {"path": "first", "name": "First"})
    assert response.status == 200
    body = response.json()
    assert (body["full_path"], body["full_name"], body["path"], body["name"]) == (
        "first",
        "First",
        "first",
        "First",
    )
    assert [p["path_with_namespace"] for p in body["projects"]] == [
        "first/secret",
        "first/tools",
        "first/site",
    ]
    assert get(svc, "/groups/alpha", "olga").status == 404
    gamma = get(svc, "/groups/first%2Fbeta%2Fgamma", "olga").json()
    assert (gamma["full_name"], gamma["web_url"]) == (
        "First / Beta / Gamma",
        "http://fakeservice.test/groups/first/beta/gamma",
    )
    project = get(svc, "/projects/first%2Fbeta%2Fgamma%2Fcore", "olga").json()
    assert project["name_with_namespace"] == "First / Beta / Gamma / core"
    assert get(svc, "/projects/alpha%2Fsite", "olga").status == 404
    assert full_paths(get(svc, "/groups/first/descendant_groups", "olga")) == [
        "first/beta",
        "first/delta",
        "first/beta/gamma",
    ]


def test_update_settings(svc: FakeService) -> None:
    body = call(
        svc,
        "PUT",
        "/groups/alpha%2Fdelta",
        "olga",
        {
            "description": "D",
            "visibility": "internal",
            "two_factor_grace_period": 12,
            "emails_disabled": True,
            "lfs_enabled": False,
        },
    ).json()
    assert (body["description"], body["visibility"], body["two_factor_grace_period"]) == (
        "D",
        "internal",
        12,
    )
    assert (body["emails_disabled"], body["lfs_enabled"]) == (True, False)
    assert get(svc, "/groups/alpha%2Fdelta", "otto").status == 200


@pytest.mark.parametrize(
    ("who", "status"), [("dan", 403), ("mia", 403), ("otto", 403), ("root", 200), ("olga", 200)]
)
def test_update_needs_owner(svc: FakeService, who: str, status: int) -> None:
    assert call(svc, "PUT", "/groups/alpha", who, {"description": "changed"}).status == status


def test_update_invisible_group_is_404_and_anonymous_401(svc: FakeService) -> None:
    assert status_body(call(svc, "PUT", "/groups/zeta", "otto", {"description": "x"})) == (
        404,
        {"message": "404 Group Not Found"},
    )
    assert call(svc, "PUT", "/groups/alpha", None, {"description": "x"}).status == 401


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        (
            "alpha",
            {"visibility": "private"},
            {
                "visibility_level": [
                    "private is not allowed since this group contains projects with higher visibility."
                ]
            },
        ),
        ("alpha%2Fdelta", {"path": "beta"}, {"path": ["has already been taken"]}),
        ("alpha%2Fdelta", {"visibility": "public", "name": ""}, {"name": ["can't be blank"]}),
        ("alpha%2Fdelta", {"name": None}, {"name": ["can't be blank"]}),
        (
            "alpha%2Fdelta",
            {"path": None},
            {
                "path": [
                    "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', "
                    "end in '.git' or end in '.atom'"
                ]
            },
        ),
        (
            "alpha%2Fbeta%2Fgamma",
            {"visibility": "public"},
            {
                "visibility_level": [
                    "public is not allowed since the parent group has a internal visibility."
                ]
            },
        ),
    ],
)
def test_update_validation(svc: FakeService, path: str, body: dict, message: dict) -> None:
    before = get(svc, f"/groups/{path}", "root").json()
    assert status_body(call(svc, "PUT", f"/groups/{path}", "root", body)) == (
        400,
        {"message": message},
    )
    assert get(svc, f"/groups/{path}", "root").json() == before


def test_update_to_less_visible_than_a_subgroup(svc: FakeService) -> None:
    assert (
        call(
            svc, "POST", "/groups", "otto", {"name": "Box", "path": "box", "visibility": "public"}
        ).status
        == 201
    )
    box = group_id(svc, "box")
    body = {"name": "Inner", "path": "inner", "visibility": "public", "parent_id": box}
    assert call(svc, "POST", "/groups", "otto", body).status == 201
    assert status_body(call(svc, "PUT", "/groups/box", "otto", {"visibility": "private"})) == (
        400,
        {
            "message": {
                "visibility_level": [
                    "private is not allowed since there are sub-groups with higher visibility."
                ]
            }
        },
    )


# -- delete ----------------------------------------------------------------------------------
def test_delete_group_with_everything_below(svc: FakeService) -> None:
    assert status_body(call(svc, "DELETE", "/groups/alpha", "dan")) == FORBIDDEN
    response = call(svc, "DELETE", "/groups/alpha", "olga")
    assert status_body(response) == (202, {"message": "202 Accepted"})
    for path in ("alpha", "alpha%2Fbeta", "alpha%2Fbeta%2Fgamma"):
        assert status_body(get(svc, f"/groups/{path}", "root")) == (
            404,
            {"message": "404 Group Not Found"},
        )
    assert get(svc, "/projects/alpha%2Fbeta%2Fapi", "root").status == 404
    assert full_paths(get(svc, "/groups", "root")) == ["pub", "zeta/hidden", "omega", "zeta"]
    assert full_paths(get(svc, "/groups", "dan")) == []
    assert full_paths(get(svc, "/groups", "olga")) == ["zeta/hidden", "zeta"]
    assert get(svc, "/projects/pub%2Fshared", "root").status == 200


def test_delete_permissions(svc: FakeService) -> None:
    assert call(svc, "DELETE", "/groups/alpha", None).status == 401
    assert status_body(call(svc, "DELETE", "/groups/zeta", "otto")) == (
        404,
        {"message": "404 Group Not Found"},
    )
    assert status_body(call(svc, "DELETE", "/groups/zeta", "olga")) == FORBIDDEN  # Reporter
    assert call(svc, "DELETE", "/groups/zeta", "root").status == 202
