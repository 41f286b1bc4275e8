"""Sharing projects and groups with groups: the endpoints, their errors, the
``shared_with_groups`` of the views, and the access a share grants (members of the
invited group at min(their role, the share's role))."""

from __future__ import annotations

import gitlab
import pytest
from support.calls import call_as

from fakeservice import FakeService
from lifecycle.helpers import group_id, user_id

VAULT = "/projects/acme%2Fsecret-ops%2Fvault"


def test_a_shared_group_member_reads_a_private_project(svc: FakeService) -> None:
    assert call_as(svc, "GET", VAULT, "hugo").status == 404
    shared = call_as(
        svc,
        "POST",
        f"{VAULT}/share",
        "root",
        {"group_id": group_id(svc, "guests"), "group_access": 20, "expires_at": "2027-01-01"},
    )
    assert shared.status == 201
    link = shared.json()
    assert {k: link[k] for k in ("group_id", "group_access", "expires_at")} == {
        "group_id": group_id(svc, "guests"),
        "group_access": 20,
        "expires_at": "2027-01-01",
    }
    assert isinstance(link["id"], int)
    seen = call_as(svc, "GET", VAULT, "hugo")
    assert seen.status == 200
    assert seen.json()["shared_with_groups"] == [
        {
            "group_id": group_id(svc, "guests"),
            "group_name": "Guests",
            "group_full_path": "guests",
            "group_access_level": 20,
            "expires_at": "2027-01-01",
        }
    ]
    # a Maintainer of the invited group gets the share's Reporter role: no writes
    members = call_as(svc, "GET", f"{VAULT}/members/all", "hugo").json()
    assert {m["username"]: m["access_level"] for m in members}["hugo"] == 20
    assert (
        call_as(svc, "POST", f"{VAULT}/repository/branches", "hugo", branch="x", ref="main").status
        == 403
    )
    listed = call_as(svc, "GET", "/projects", "hugo", membership="true").json()
    assert [p["path_with_namespace"] for p in listed] == ["acme/secret-ops/vault"]
    shared_list = call_as(svc, "GET", "/groups/guests/projects/shared", "hugo").json()
    assert [p["path_with_namespace"] for p in shared_list] == ["acme/secret-ops/vault"]
    gone = call_as(svc, "DELETE", f"{VAULT}/share/{group_id(svc, 'guests')}", "alice")
    assert (gone.status, gone.body) == (204, b"")
    assert call_as(svc, "GET", VAULT, "hugo").status == 404
    assert call_as(svc, "GET", "/groups/guests/projects/shared", "hugo").json() == []


@pytest.mark.parametrize(
    ("who", "body", "status", "message"),
    [
        ("gina", {"group_id": "studio", "group_access": 20}, 403, "403 Forbidden"),
        ("alice", {"group_id": "guests", "group_access": 20}, 404, "Not Found"),
        ("alice", {"group_id": 999999, "group_access": 20}, 404, "Not Found"),
        (
            "alice",
            {"group_id": "acme", "group_access": 20},
            409,
            "Project cannot be shared with the group it is in or one of its ancestors.",
        ),
    ],
)
def test_project_share_refusals(
    svc: FakeService, who: str, body: dict, status: int, message: str
) -> None:
    if isinstance(body["group_id"], str):
        body = {**body, "group_id": group_id(svc, body["group_id"])}
    found = call_as(svc, "POST", "/projects/acme%2Fwebsite/share", who, body)
    assert (found.status, found.json()) == (status, {"message": message})
    assert (
        call_as(svc, "GET", "/projects/acme%2Fwebsite", "root").json()["shared_with_groups"] == []
    )


def test_project_share_parameters_and_duplicates(svc: FakeService) -> None:
    missing = call_as(svc, "POST", "/projects/acme%2Fwebsite/share", "alice", {})
    assert (missing.status, missing.json()) == (
        400,
        {"error": "group_id is missing, group_access is missing"},
    )
    bad = call_as(
        svc, "POST", "/projects/acme%2Fwebsite/share", "alice", {"group_id": 1, "group_access": 25}
    )
    assert (bad.status, bad.json()) == (400, {"error": "group_access does not have a valid value"})
    body = {"group_id": group_id(svc, "oss"), "group_access": 30}
    assert call_as(svc, "POST", "/projects/acme%2Fwebsite/share", "alice", body).status == 201
    again = call_as(svc, "POST", "/projects/acme%2Fwebsite/share", "alice", body)
    assert (again.status, again.json()) == (
        409,
        {"message": "Group already shared with this group"},
    )
    absent = call_as(svc, "DELETE", "/projects/acme%2Fwebsite/share/424242", "alice")
    assert (absent.status, absent.json()) == (404, {"message": "404 Group Link Not Found"})


def test_share_with_group_lock_refuses(svc: FakeService) -> None:
    assert (
        call_as(svc, "PUT", "/groups/acme", "alice", {"share_with_group_lock": True}).status == 200
    )
    body = {"group_id": group_id(svc, "oss"), "group_access": 30}
    found = call_as(svc, "POST", "/projects/acme%2Fwebsite/share", "alice", body)
    assert (found.status, found.json()) == (
        400,
        {"message": "The project sharing with group is disabled"},
    )


def test_group_share_grants_the_group_its_subgroups_and_projects(svc: FakeService) -> None:
    guests = group_id(svc, "guests")
    assert call_as(svc, "GET", "/groups/acme%2Fsecret-ops", "hugo").status == 404
    shared = call_as(
        svc,
        "POST",
        "/groups/acme%2Fsecret-ops/share",
        "root",
        {"group_id": guests, "group_access": 30},
    )
    assert shared.status == 201
    assert shared.json()["shared_with_groups"][0]["group_id"] == guests
    assert shared.json()["shared_with_groups"][0]["group_access_level"] == 30
    assert call_as(svc, "GET", "/groups/acme%2Fsecret-ops", "hugo").status == 200
    assert call_as(svc, "GET", VAULT, "hugo").status == 200
    branch = call_as(
        svc, "POST", f"{VAULT}/repository/branches", "hugo", branch="from-hugo", ref="main"
    )
    assert branch.status == 201
    mine = call_as(svc, "GET", "/projects", "hugo", membership="true").json()
    assert "acme/secret-ops/vault" in [p["path_with_namespace"] for p in mine]
    again = call_as(
        svc,
        "POST",
        "/groups/acme%2Fsecret-ops/share",
        "root",
        {"group_id": guests, "group_access": 30},
    )
    assert (again.status, again.json()) == (
        409,
        {"message": "The group has already been shared with this group"},
    )
    assert call_as(svc, "DELETE", f"/groups/acme%2Fsecret-ops/share/{guests}", "hugo").status == 403
    assert (
        call_as(svc, "DELETE", f"/groups/acme%2Fsecret-ops/share/{guests}", "alice").status == 204
    )
    assert call_as(svc, "GET", VAULT, "hugo").status == 404
    absent = call_as(svc, "DELETE", f"/groups/acme%2Fsecret-ops/share/{guests}", "alice")
    assert (absent.status, absent.json()) == (404, {"message": "404 Not found"})


def test_group_share_refusals(svc: FakeService) -> None:
    itself = call_as(
        svc,
        "POST",
        "/groups/acme%2Fplatform/share",
        "alice",
        {"group_id": group_id(svc, "acme"), "group_access": 30},
    )
    assert itself.status == 409
    unseen = call_as(
        svc,
        "POST",
        "/groups/acme/share",
        "alice",
        {"group_id": group_id(svc, "guests"), "group_access": 30},
    )
    assert (unseen.status, unseen.json()) == (404, {"message": "404 Group Not Found"})
    assert call_as(svc, "GET", "/groups/acme", "root").json()["shared_with_groups"] == []


def test_deleting_an_invited_group_drops_its_shares(svc: FakeService) -> None:
    guests = group_id(svc, "guests")
    call_as(svc, "POST", f"{VAULT}/share", "root", {"group_id": guests, "group_access": 20})
    call_as(svc, "POST", "/groups/acme/share", "root", {"group_id": guests, "group_access": 20})
    assert call_as(svc, "DELETE", "/groups/guests", "root").status == 202
    assert call_as(svc, "GET", VAULT, "root").json()["shared_with_groups"] == []
    assert call_as(svc, "GET", "/groups/acme", "root").json()["shared_with_groups"] == []


def test_python_gitlab_share_and_unshare(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="hugo-token", session=svc.requests_session())
    call_as(
        svc,
        "POST",
        f"{VAULT}/members",
        "root",
        {"user_id": user_id(svc, "hugo"), "access_level": 40},
    )
    guests = group_id(svc, "guests")
    project = gl.projects.get("acme/secret-ops/vault")
    project.share(guests, gitlab.const.AccessLevel.DEVELOPER)
    assert gl.projects.get(project.id).shared_with_groups[0]["group_id"] == guests
    project.unshare(guests)
    assert gl.projects.get(project.id).shared_with_groups == []
    root = gitlab.Gitlab(svc.url, private_token="root-token", session=svc.requests_session())
    group = root.groups.get("acme")
    group.share(guests, gitlab.const.AccessLevel.REPORTER)
    assert root.groups.get("acme").shared_with_groups[0]["group_access_level"] == 20
    group.unshare(guests)
    assert root.groups.get("acme").shared_with_groups == []


def test_group_shared_with_scenario_key() -> None:
    svc = FakeService(
        {
            "extends": "default",
            "users": [
                {"username": "ivy", "name": "Ivy", "tokens": [{"name": "t", "token": "ivy-token"}]}
            ],
            "groups": [
                {
                    "path": "auditors",
                    "visibility": "private",
                    "members": [{"user": "ivy", "role": "owner"}],
                },
                {
                    "path": "vaults",
                    "visibility": "private",
                    "shared_with": [{"group": "auditors", "role": "reporter"}],
                },
            ],
            "projects": [{"path": "vaults/one", "visibility": "private"}],
        }
    )
    assert call_as(svc, "GET", "/projects/vaults%2Fone", "ivy").status == 200
    assert (
        call_as(
            svc, "POST", "/projects/vaults%2Fone/repository/branches", "ivy", branch="b", ref="main"
        ).status
        == 403
    )
    group = call_as(svc, "GET", "/groups/vaults", "ivy").json()
    assert group["shared_with_groups"][0]["group_full_path"] == "auditors"
