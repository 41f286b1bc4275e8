"""Transfers: ``PUT /projects/:id/transfer`` and ``POST /groups/:id/transfer`` (paths,
URLs and git follow; the service's refusals), ``GET /groups/:id/transfer_locations``."""

from __future__ import annotations

import base64

import gitlab
import pytest
from support.calls import call_as

from fakeservice import FakeService
from lifecycle.helpers import group_id


def test_a_project_moves_with_its_paths_and_repository(svc: FakeService) -> None:
    moved = call_as(
        svc, "PUT", "/projects/studio%2Fapp/transfer", "root", {"namespace": "acme/platform"}
    )
    assert moved.status == 200, moved.json()
    project = moved.json()
    assert project["path_with_namespace"] == "acme/platform/app"
    assert project["name_with_namespace"] == "ACME / Platform / App"
    assert project["namespace"]["full_path"] == "acme/platform"
    assert project["web_url"].endswith("/acme/platform/app")
    assert project["http_url_to_repo"].endswith("/acme/platform/app.git")
    assert project["visibility"] == "internal"  # narrowed to the internal group's
    assert call_as(svc, "GET", "/projects/studio%2Fapp", "root").status == 404
    raw = call_as(
        svc,
        "GET",
        "/projects/acme%2Fplatform%2Fapp/repository/files/app.py/raw",
        "root",
        ref="main",
    )
    assert raw.body == b"print('app')\n"
    basic = {"Authorization": "Basic " + base64.b64encode(b"root:root-token").decode()}
    upload = "info/refs?service=git-upload-pack"
    assert svc.request("GET", f"/acme/platform/app.git/{upload}", headers=basic).status == 200
    assert svc.request("GET", f"/studio/app.git/{upload}", headers=basic).status == 404
    by_id = call_as(
        svc,
        "PUT",
        f"/projects/{project['id']}/transfer",
        "root",
        {"namespace": group_id(svc, "studio")},
    )
    assert by_id.json()["path_with_namespace"] == "studio/app"


@pytest.mark.parametrize(
    ("who", "namespace", "status", "message"),
    [
        ("gina", "gina", 403, "403 Forbidden"),
        ("root", "nowhere", 404, "404 Namespace Not Found"),
        (
            "root",
            "studio",
            400,
            'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}',
        ),
    ],
)
def test_project_transfer_refusals(
    svc: FakeService, who: str, namespace: str, status: int, message: str
) -> None:
    found = call_as(svc, "PUT", "/projects/studio%2Fapp/transfer", who, {"namespace": namespace})
    assert (found.status, found.json()) == (status, {"message": message})
    assert call_as(svc, "GET", "/projects/studio%2Fapp", "root").status == 200


def test_target_rights_and_taken_paths(svc: FakeService) -> None:
    mine = call_as(svc, "POST", "/projects", "frank", {"name": "app"}).json()
    denied = call_as(
        svc, "PUT", f"/projects/{mine['id']}/transfer", "frank", {"namespace": "studio"}
    )
    assert (denied.status, denied.json()) == (
        400,
        {"message": 'Failed to transfer project {:new_namespace=>["is invalid"]}'},
    )
    call_as(
        svc,
        "POST",
        "/groups/studio/members",
        "root",
        {"user_id": mine["creator_id"], "access_level": 40},
    )
    taken = call_as(
        svc, "PUT", f"/projects/{mine['id']}/transfer", "frank", {"namespace": "studio"}
    )
    assert (taken.status, taken.json()) == (
        400,
        {
            "message": 'Failed to transfer project {:new_namespace=>["Project with same name or path in target namespace already exists"]}'
        },
    )
    assert (
        call_as(svc, "GET", f"/projects/{mine['id']}", "frank").json()["path_with_namespace"]
        == "frank/app"
    )


def test_a_group_moves_with_subgroups_and_projects(svc: FakeService) -> None:
    moved = call_as(
        svc, "POST", "/groups/studio/transfer", "root", {"group_id": group_id(svc, "oss")}
    )
    assert moved.status == 201, moved.json()
    assert (moved.json()["full_path"], moved.json()["parent_id"]) == (
        "oss/studio",
        group_id(svc, "oss"),
    )
    project = call_as(svc, "GET", "/projects/oss%2Fstudio%2Fapp", "root").json()
    assert project["path_with_namespace"] == "oss/studio/app"
    assert project["web_url"].endswith("/oss/studio/app")
    assert call_as(svc, "GET", "/groups/studio", "root").status == 404
    back = call_as(svc, "POST", "/groups/oss%2Fstudio/transfer", "root", {})
    assert (back.status, back.json()["full_path"], back.json()["parent_id"]) == (
        201,
        "studio",
        None,
    )


def test_a_public_group_under_a_private_parent_is_narrowed(svc: FakeService) -> None:
    moved = call_as(
        svc, "POST", "/groups/studio/transfer", "root", {"group_id": group_id(svc, "guests")}
    )
    assert moved.json()["visibility"] == "private"
    assert (
        call_as(svc, "GET", "/projects/guests%2Fstudio%2Fapp", "root").json()["visibility"]
        == "private"
    )
    assert call_as(svc, "GET", "/projects/guests%2Fstudio%2Fapp", "frank").status == 404


@pytest.mark.parametrize(
    ("who", "group", "target", "status", "message"),
    [
        ("root", "studio", None, 400, "Transfer failed: Group is already a root group."),
        (
            "root",
            "acme/platform",
            "acme",
            400,
            "Transfer failed: Group is already associated to the parent group.",
        ),
        (
            "root",
            "acme",
            "acme/platform",
            400,
            "Transfer failed: Cannot transfer group to one of its subgroup.",
        ),
        (
            "alice",
            "acme/platform",
            "studio",
            400,
            "Transfer failed: You don't have enough permissions.",
        ),
        ("gina", "studio", "acme", 403, "403 Forbidden"),
        ("root", "studio", 999999, 404, "404 Group Not Found"),
    ],
)
def test_group_transfer_refusals(
    svc: FakeService, who: str, group: str, target: object, status: int, message: str
) -> None:
    body = (
        {}
        if target is None
        else {"group_id": target if isinstance(target, int) else group_id(svc, target)}
    )
    found = call_as(svc, "POST", f"/groups/{group.replace('/', '%2F')}/transfer", who, body)
    assert (found.status, found.json()) == (status, {"message": message})


def test_group_path_taken_in_the_new_parent(svc: FakeService) -> None:
    call_as(
        svc,
        "POST",
        "/groups",
        "root",
        {"name": "Studio", "path": "studio", "parent_id": group_id(svc, "oss")},
    )
    found = call_as(
        svc, "POST", "/groups/studio/transfer", "root", {"group_id": group_id(svc, "oss")}
    )
    assert (found.status, found.json()) == (
        400,
        {
            "message": "Transfer failed: The parent group already has a subgroup or a project with the same path."
        },
    )


def test_transfer_locations(svc: FakeService) -> None:
    found = call_as(svc, "GET", "/groups/acme%2Fplatform/transfer_locations", "alice")
    paths = [g["full_path"] for g in found.json()]
    assert "acme" not in paths and "acme/platform" not in paths
    assert "acme/secret-ops" in paths
    assert "studio" not in paths
    searched = call_as(
        svc, "GET", "/groups/acme%2Fplatform/transfer_locations", "alice", search="secret"
    )
    assert [g["full_path"] for g in searched.json()] == ["acme/secret-ops"]


def test_python_gitlab_transfers(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="root-token", session=svc.requests_session())
    project = gl.projects.get("studio/app")
    project.transfer("oss")
    assert gl.projects.get(project.id).path_with_namespace == "oss/app"
    group = gl.groups.get("studio")
    group.transfer(gl.groups.get("acme").id)
    assert gl.groups.get(group.id).full_path == "acme/studio"
    group.transfer()
    assert gl.groups.get(group.id).full_path == "studio"
