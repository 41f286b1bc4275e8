"""Project and group clusters over raw HTTP: the owner in the answers, the Maintainer rule,
the environment scope unique per owner, the project-only namespace, the instance
endpoints' error bodies, and the state after each call (a property: no add or edit
body makes a 500, and a refused one changes nothing)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.calls import ROOT, body, call

from fakeservice import FakeService

from .conftest import ALICE, BOB, kube, new_service
from .test_python_gitlab import payloads

CAROL = "carol-token"  # external, not a member of acme: sees it, may not manage it
PROJECT = "/projects/acme%2Fwebsite/clusters"
GROUP = "/groups/acme/clusters"
ACME = {"id": 46, "web_url": "http://fakeservice.test/groups/acme", "name": "ACME"}
BASES = pytest.mark.parametrize("base", [PROJECT, GROUP])


def add_to(svc: FakeService, base: str, token: str = ALICE, **fields: Any) -> tuple[int, Any]:
    payload: dict[str, Any] = {"name": "production", "platform_kubernetes_attributes": kube()}
    payload.update(fields)
    response = call(svc, "POST", f"{base}/user", token, json_body=payload)
    return response.status, body(response)


def get(svc: FakeService, path: str, token: str = ALICE) -> tuple[int, Any]:
    response = call(svc, "GET", path, token)
    return response.status, body(response)


def test_project_cluster_answers_carry_the_project(svc: FakeService) -> None:
    status, created = add_to(svc, PROJECT)
    assert status == 201
    assert created["cluster_type"] == "project_type"
    assert created["user"]["username"] == "alice"
    assert created["project"]["path_with_namespace"] == "acme/website"
    assert created["project"]["namespace"]["full_path"] == "acme"
    assert "group" not in created
    assert get(svc, f"{PROJECT}/{created['id']}") == (200, created)
    status, listed = get(svc, PROJECT)
    assert status == 200
    assert listed == [{k: v for k, v in created.items() if k != "project"}]


def test_group_cluster_answers_carry_the_group(svc: FakeService) -> None:
    status, created = add_to(svc, GROUP, environment_scope="prod/*", domain="apps.example.com")
    assert status == 201
    assert created["cluster_type"] == "group_type"
    assert created["group"] == ACME
    assert created["environment_scope"] == "prod/*"
    assert "project" not in created
    assert get(svc, f"{GROUP}/{created['id']}") == (200, created)
    assert get(svc, GROUP)[1] == [{k: v for k, v in created.items() if k != "group"}]


def test_owners_keep_their_clusters_apart(svc: FakeService) -> None:
    _, project_cluster = add_to(svc, PROJECT)
    _, group_cluster = add_to(svc, GROUP)  # the same scope "*": another owner, allowed
    _, instance = get(svc, "/admin/clusters", ROOT)
    assert instance == []
    assert [c["id"] for c in get(svc, PROJECT)[1]] == [project_cluster["id"]]
    assert [c["id"] for c in get(svc, GROUP)[1]] == [group_cluster["id"]]
    assert get(svc, f"{PROJECT}/{group_cluster['id']}")[0] == 404
    assert get(svc, f"{GROUP}/{project_cluster['id']}")[0] == 404
    assert get(svc, f"/admin/clusters/{project_cluster['id']}", ROOT)[0] == 404


@BASES
def test_duplicate_scope_within_one_owner_is_400_and_adds_nothing(
    svc: FakeService, base: str
) -> None:
    add_to(svc, base)
    status, answer = add_to(svc, base, name="again")
    assert (status, answer) == (
        400,
        {"message": {"environment_scope": ["cannot add duplicated environment scope"]}},
    )
    assert len(get(svc, base)[1]) == 1


def test_namespace_is_allowed_on_a_managed_project_cluster_only(svc: FakeService) -> None:
    status, created = add_to(svc, PROJECT, platform_kubernetes_attributes=kube(namespace="Apps"))
    assert status == 201
    assert created["platform_kubernetes"]["namespace"] == "apps"
    status, answer = add_to(svc, GROUP, platform_kubernetes_attributes=kube(namespace="apps"))
    assert (status, answer) == (
        400,
        {"message": {"platform_kubernetes.namespace": ["only allowed for project cluster"]}},
    )
    status, unmanaged = add_to(
        svc, GROUP, managed=False, platform_kubernetes_attributes=kube(namespace="apps")
    )
    assert status == 201
    assert unmanaged["platform_kubernetes"]["namespace"] == "apps"


@BASES
def test_missing_kubernetes_attributes_are_the_instance_messages(
    svc: FakeService, base: str
) -> None:
    response = call(svc, "POST", f"{base}/user", ALICE, json_body={"name": "x"})
    assert response.status == 400
    assert body(response) == {
        "error": "platform_kubernetes_attributes is missing, "
        "platform_kubernetes_attributes[api_url] is missing, "
        "platform_kubernetes_attributes[token] is missing"
    }
    assert get(svc, base)[1] == []


@BASES
@pytest.mark.parametrize(
    "payload",
    [
        {"name": "x", "platform_kubernetes_attributes": "nope"},
        {"name": ["x"], "platform_kubernetes_attributes": kube()},
        {"name": "x", "enabled": "maybe", "platform_kubernetes_attributes": kube()},
        {"name": "x", "management_project_id": "abc", "platform_kubernetes_attributes": kube()},
        {"name": "x", "platform_kubernetes_attributes": kube(api_url="http://127.0.0.1")},
    ],
)
def test_bad_add_bodies_are_400_and_add_nothing(
    svc: FakeService, base: str, payload: dict[str, Any]
) -> None:
    response = call(svc, "POST", f"{base}/user", ALICE, json_body=payload)
    assert response.status == 400, response.body
    assert get(svc, base)[1] == []


@BASES
def test_edit_round_trips_through_get_and_list(svc: FakeService, base: str) -> None:
    _, created = add_to(svc, base)
    path = f"{base}/{created['id']}"
    svc.clock.advance(60)
    response = call(
        svc,
        "PUT",
        path,
        ALICE,
        json_body={
            "name": "renamed",
            "enabled": False,
            "managed": False,
            "domain": "apps.example.org",
            "environment_scope": "review/*",
            "management_project_id": 1,
            "platform_kubernetes_attributes": {"api_url": "https://k8s2.example.com"},
        },
    )
    assert response.status == 200, response.body
    edited = body(response)
    assert get(svc, path) == (200, edited)
    listed = get(svc, base)[1][0]
    for key in ("name", "enabled", "managed", "domain", "environment_scope"):
        assert edited[key] == listed[key]
    assert (listed["name"], listed["enabled"], listed["managed"]) == ("renamed", False, False)
    assert listed["domain"] == "apps.example.org"
    assert listed["environment_scope"] == "review/*"
    assert listed["management_project"]["id"] == 1
    assert listed["platform_kubernetes"]["api_url"] == "https://k8s2.example.com"


@BASES
def test_invalid_edit_is_400_and_changes_nothing(svc: FakeService, base: str) -> None:
    _, created = add_to(svc, base)
    path = f"{base}/{created['id']}"
    response = call(svc, "PUT", path, ALICE, json_body={"name": "", "domain": "-bad-"})
    assert response.status == 400
    assert body(response) == {
        "message": {
            "name": ["has to be present"],
            "domain": ["begins or ends with a hyphen"],
        }
    }
    assert get(svc, path)[1]["name"] == "production"
    bad_id = call(svc, "PUT", f"{base}/abc", ALICE, json_body={"name": "x"})
    assert (bad_id.status, body(bad_id)) == (400, {"error": "cluster_id is invalid"})


@BASES
def test_delete_removes_the_cluster(svc: FakeService, base: str) -> None:
    _, created = add_to(svc, base)
    path = f"{base}/{created['id']}"
    assert call(svc, "DELETE", path, ALICE).status == 204
    assert get(svc, path) == (404, {"message": "404 Not found"})
    assert get(svc, base)[1] == []
    assert call(svc, "DELETE", path, ALICE).status == 404


@BASES
def test_unknown_clusters_are_404(svc: FakeService, base: str) -> None:
    assert get(svc, f"{base}/999") == (404, {"message": "404 Not found"})
    assert call(svc, "PUT", f"{base}/999", ALICE, json_body={"name": "x"}).status == 404
    assert call(svc, "DELETE", f"{base}/999", ALICE).status == 404


def test_unknown_owners_are_404(svc: FakeService) -> None:
    assert get(svc, "/projects/9999/clusters") == (404, {"message": "404 Project Not Found"})
    assert get(svc, "/groups/9999/clusters") == (404, {"message": "404 Group Not Found"})
    status, _ = add_to(svc, "/projects/9999/clusters")
    assert status == 404


@BASES
@pytest.mark.parametrize("token", [CAROL, BOB])
def test_below_maintainer_is_403_and_adds_nothing(svc: FakeService, base: str, token: str) -> None:
    assert get(svc, base, token) == (403, {"message": "403 Forbidden"})
    status, _ = add_to(svc, base, token)
    assert status == 403
    assert get(svc, base)[1] == []


@BASES
def test_anonymous_is_401(svc: FakeService, base: str) -> None:
    assert call(svc, "GET", base, None).status == 401


@BASES
def test_administrators_manage_every_owner(svc: FakeService, base: str) -> None:
    status, created = add_to(svc, base, ROOT)
    assert status == 201
    assert created["user"]["username"] == "root"
    assert get(svc, base, ROOT)[1][0]["id"] == created["id"]


_SERVICES: dict[str, FakeService] = {}


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=payloads, edit=st.booleans(), base=st.sampled_from([PROJECT, GROUP]))
def test_no_body_makes_a_500_and_a_refusal_changes_nothing(
    payload: dict[str, Any], edit: bool, base: str
) -> None:
    if base not in _SERVICES:
        _SERVICES[base] = new_service()
        assert add_to(_SERVICES[base], base, name="base")[0] == 201
    svc = _SERVICES[base]
    before = get(svc, base)
    if edit:
        first = before[1][0]["id"]
        response = call(svc, "PUT", f"{base}/{first}", ALICE, json_body=payload)
        assert response.status in (200, 400), response.body
    else:
        response = call(svc, "POST", f"{base}/user", ALICE, json_body=payload)
        assert response.status in (201, 400), response.body
    if response.status == 400:
        assert get(svc, base) == before
    assert not svc.server_errors
