"""Instance clusters over raw HTTP (seed 000 §4.6): shapes, every parameter and model
error, the administrator rule, and the state after each call."""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService

from .conftest import ADD, ALICE, BOB, CA_CERT, add, kube, new_service

ROOT_REF = {
    "id": 1,
    "username": "root",
    "name": "Administrator",
    "state": "active",
    "locked": False,
    "avatar_url": None,
    "web_url": "http://fakeservice.test/root",
}
WEBSITE = {
    "id": 1,
    "description": "The public website",
    "name": "Website",
    "name_with_namespace": "ACME / Website",
    "path": "website",
    "path_with_namespace": "acme/website",
    "created_at": "2026-01-01T09:00:00Z",
}


def listed(svc: FakeService) -> list[dict[str, Any]]:
    response = call(svc, "GET", "/admin/clusters")
    assert response.status == 200, response.body
    return body(response)


# -- add -----------------------------------------------------------------------------------


def test_add_with_defaults_answers_201_with_the_full_shape(svc: FakeService) -> None:
    response = add(svc)
    assert response.status == 201
    assert response.header("Content-Type") == "application/json"
    assert body(response) == {
        "id": 1,
        "name": "production",
        "created_at": "2026-01-01T09:00:00Z",
        "managed": True,
        "enabled": True,
        "domain": None,
        "provider_type": "user",
        "platform_type": "kubernetes",
        "environment_scope": "*",
        "cluster_type": "instance_type",
        "user": ROOT_REF,
        "platform_kubernetes": {
            "api_url": "https://k8s.example.com:6443",
            "namespace": None,
            "authorization_type": "rbac",
            "ca_cert": None,
        },
        "provider_gcp": None,
        "management_project": None,
    }
    assert b"secret-token" not in response.body
    assert listed(svc) == [body(response)]


def test_add_with_every_field(svc: FakeService) -> None:
    response = add(
        svc,
        name="staging cluster",
        domain="apps.example.com",
        environment_scope="review/*",
        management_project_id=1,
        enabled=False,
        managed=False,
        platform_kubernetes_attributes=kube(
            api_url="  http://203.0.113.7  ",
            token="  padded  ",
            ca_cert=f"\n{CA_CERT}\n\n",
            namespace="Apps-Ns",
            authorization_type="abac",
        ),
    )
    assert response.status == 201, response.body
    data = body(response)
    assert {k: data[k] for k in ("name", "domain", "environment_scope", "enabled", "managed")} == {
        "name": "staging cluster",
        "domain": "apps.example.com",
        "environment_scope": "review/*",
        "enabled": False,
        "managed": False,
    }
    assert data["platform_kubernetes"] == {
        "api_url": "http://203.0.113.7",
        "namespace": "apps-ns",
        "authorization_type": "abac",
        "ca_cert": CA_CERT,
    }
    assert data["management_project"] == WEBSITE
    assert b"padded" not in response.body
    from fakeservice.clusters.models import find_cluster

    stored = find_cluster(svc.store, data["id"])
    assert stored is not None and stored.token == "padded"


def test_add_with_form_style_hash_keys(svc: FakeService) -> None:
    response = call(
        svc,
        "POST",
        ADD,
        data={
            "name": "form",
            "enabled": "false",
            "platform_kubernetes_attributes[api_url]": "https://k8s.example.com",
            "platform_kubernetes_attributes[token]": "t0k3n",
            "platform_kubernetes_attributes[authorization_type]": "unknown_authorization",
        },
    )
    assert response.status == 201, response.body
    data = body(response)
    assert data["enabled"] is False
    assert data["platform_kubernetes"]["authorization_type"] == "unknown_authorization"


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        ({"platform_kubernetes_attributes": kube()}, "name is missing"),
        (
            {"name": "c"},
            "platform_kubernetes_attributes is missing, platform_kubernetes_attributes[api_url] "
            "is missing, platform_kubernetes_attributes[token] is missing",
        ),
        (
            {"name": "c", "platform_kubernetes_attributes": "https://k8s"},
            "platform_kubernetes_attributes is invalid, platform_kubernetes_attributes[api_url] "
            "is missing, platform_kubernetes_attributes[token] is missing",
        ),
        (
            {"name": "c", "platform_kubernetes_attributes": None},
            "platform_kubernetes_attributes[api_url] is missing, "
            "platform_kubernetes_attributes[token] is missing",
        ),
        (
            {"name": "c", "platform_kubernetes_attributes": {"token": "t"}},
            "platform_kubernetes_attributes[api_url] is missing",
        ),
        (
            {"name": "c", "platform_kubernetes_attributes": {"api_url": "https://k8s.io"}},
            "platform_kubernetes_attributes[token] is missing",
        ),
        (
            {"name": "c", "platform_kubernetes_attributes": kube(api_url=" ")},
            "platform_kubernetes_attributes[api_url] is empty",
        ),
        (
            {"name": "c", "platform_kubernetes_attributes": kube(api_url=None)},
            "platform_kubernetes_attributes[api_url] is empty",
        ),
        (
            {"name": "c", "platform_kubernetes_attributes": kube(token=["a"])},
            "platform_kubernetes_attributes[token] is invalid",
        ),
        (
            {"name": "c", "platform_kubernetes_attributes": kube(authorization_type="none")},
            "platform_kubernetes_attributes[authorization_type] does not have a valid value",
        ),
        (
            {"name": "c", "enabled": "maybe", "platform_kubernetes_attributes": kube()},
            "enabled is invalid",
        ),
        (
            {"name": "c", "management_project_id": "one", "platform_kubernetes_attributes": kube()},
            "management_project_id is invalid",
        ),
        (
            {"name": {"a": 1}, "platform_kubernetes_attributes": kube()},
            "name is invalid",
        ),
    ],
)
def test_add_parameter_errors(svc: FakeService, payload: dict[str, Any], error: str) -> None:
    response = call(svc, "POST", ADD, json_body=payload)
    assert response.status == 400
    assert body(response) == {"error": error}
    assert listed(svc) == []


@pytest.mark.parametrize(
    ("api_url", "message"),
    [
        ("k8s.example.com", "is blocked: Only allowed schemes are http, https"),
        ("ftp://k8s.example.com", "is blocked: Only allowed schemes are http, https"),
        ("https://", "is blocked: URI is invalid"),
        ("https://exa mple.com", "is blocked: URI is invalid"),
        ("https://[::1", "is blocked: URI is invalid"),
        ("https://k8s.example.com:99999", "is blocked: URI is invalid"),
        ("https://localhost:6443", "is blocked: Requests to localhost are not allowed"),
        ("http://127.0.0.1", "is blocked: Requests to localhost are not allowed"),
        ("http://[::1]:8080", "is blocked: Requests to localhost are not allowed"),
        ("http://0.0.0.0", "is blocked: Requests to localhost are not allowed"),
        ("https://10.1.2.3", "is blocked: Requests to the local network are not allowed"),
        ("https://192.168.0.10", "is blocked: Requests to the local network are not allowed"),
        (
            "https://169.254.169.254",
            "is blocked: Requests to the link local network are not allowed",
        ),
    ],
)
def test_api_url_must_be_a_public_http_url(svc: FakeService, api_url: str, message: str) -> None:
    response = add(svc, platform_kubernetes_attributes=kube(api_url=api_url))
    assert response.status == 400
    assert body(response) == {"message": {"platform_kubernetes.api_url": [message]}}


@pytest.mark.parametrize(
    ("fields", "errors"),
    [
        ({"name": ""}, {"name": ["has to be present"]}),
        ({"name": None}, {"name": ["has to be present"]}),
        ({"name": "n" * 2049}, {"name": ["is too long"]}),
        (
            {"environment_scope": ""},
            {
                "environment_scope": [
                    "can't be blank",
                    "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces",
                ]
            },
        ),
        (
            {"environment_scope": "prod!"},
            {
                "environment_scope": [
                    "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces"
                ]
            },
        ),
        ({"domain": "a"}, {"domain": ["must be between 1 and 255 characters long"]}),
        ({"domain": "-bad-.example.com"}, {"domain": ["begins or ends with a hyphen"]}),
        (
            {"domain": "under_score.io"},
            {"domain": ["contains invalid characters (valid characters: [a-z0-9-])"]},
        ),
        (
            {"domain": "a..b"},
            {
                "domain": [
                    "must be between 1 and 63 characters long",
                    "contains invalid characters (valid characters: [a-z0-9-])",
                    "must not contain consecutive dots",
                ]
            },
        ),
        ({"domain": "example.com."}, {"domain": ["must not end with a dot"]}),
        ({"domain": "x" * 64 + ".io"}, {"domain": ["must be between 1 and 63 characters long"]}),
        (
            {"platform_kubernetes_attributes": kube(token="  ")},
            {"platform_kubernetes.token": ["can't be blank"]},
        ),
        (
            {"platform_kubernetes_attributes": kube(ca_cert="not a certificate")},
            {"platform_kubernetes.ca_cert": ["must be a valid PEM certificate"]},
        ),
        (
            {
                "platform_kubernetes_attributes": kube(
                    ca_cert="-----BEGIN CERTIFICATE-----\nbm90IGRlcg==\n-----END CERTIFICATE-----"
                )
            },
            {"platform_kubernetes.ca_cert": ["must be a valid PEM certificate"]},
        ),
        (
            {"platform_kubernetes_attributes": kube(namespace="apps")},
            {"platform_kubernetes.namespace": ["only allowed for project cluster"]},
        ),
        (
            {"managed": False, "platform_kubernetes_attributes": kube(namespace="-apps")},
            {
                "platform_kubernetes.namespace": [
                    "can contain only lowercase letters, digits, and '-'. Must start with a letter, "
                    "and cannot end with '-'"
                ]
            },
        ),
        (
            {"managed": False, "platform_kubernetes_attributes": kube(namespace="n" * 64)},
            {"platform_kubernetes.namespace": ["is too long (maximum is 63 characters)"]},
        ),
        (
            {
                "managed": False,
                "platform_kubernetes_attributes": kube(namespace="gitlab-managed-apps"),
            },
            {"platform_kubernetes.namespace": ["is reserved"]},
        ),
    ],
)
def test_add_model_errors(svc: FakeService, fields: dict[str, Any], errors: dict[str, Any]) -> None:
    response = add(svc, **fields)
    assert response.status == 400
    assert body(response) == {"message": errors}
    assert listed(svc) == []


def test_blank_namespace_and_domain_are_allowed(svc: FakeService) -> None:
    response = add(svc, domain="", platform_kubernetes_attributes=kube(namespace="  ", ca_cert=""))
    assert response.status == 201, response.body
    data = body(response)
    assert data["domain"] == ""
    assert data["platform_kubernetes"]["namespace"] is None


def test_numeric_and_unicode_domains(svc: FakeService) -> None:
    assert add(svc, name="a", domain="123.45.io").status == 201
    response = add(svc, name="b", environment_scope="b", domain="bücher.de")
    assert body(response) == {
        "message": {"domain": ["contains invalid characters (valid characters: [a-z0-9-])"]}
    }


def test_several_model_errors_come_in_the_models_order(svc: FakeService) -> None:
    assert add(svc).status == 201
    response = add(
        svc,
        name="",
        domain="bad_domain",
        platform_kubernetes_attributes=kube(api_url="ftp://x", token="", namespace="ns"),
    )
    assert response.status == 400
    data = body(response)["message"]
    assert list(data) == [
        "platform_kubernetes.namespace",
        "platform_kubernetes.api_url",
        "platform_kubernetes.token",
        "name",
        "domain",
        "environment_scope",
    ]
    assert data["environment_scope"] == ["cannot add duplicated environment scope"]


def test_duplicate_environment_scope(svc: FakeService) -> None:
    assert add(svc, environment_scope="production").status == 201
    response = add(svc, name="other", environment_scope="production")
    assert response.status == 400
    assert body(response) == {
        "message": {"environment_scope": ["cannot add duplicated environment scope"]}
    }
    assert add(svc, name="other", environment_scope="Production").status == 201
    assert [c["environment_scope"] for c in listed(svc)] == ["production", "Production"]


def test_unknown_management_project_is_the_only_error_reported(svc: FakeService) -> None:
    response = add(svc, name="", management_project_id=999999)
    assert response.status == 400
    assert body(response) == {
        "message": {
            "management_project_id": [
                "Project does not exist or you don't have permission to perform this action"
            ]
        }
    }


def test_private_management_project_is_allowed_for_administrators(svc: FakeService) -> None:
    response = add(svc, management_project_id=3)
    assert response.status == 201
    assert body(response)["management_project"]["path_with_namespace"] == "acme/secret-ops/vault"


def test_deleted_management_project_shows_null(svc: FakeService) -> None:
    cluster = body(add(svc, management_project_id=1))
    assert call(svc, "DELETE", "/projects/1").status in (202, 204)
    from fakeservice.projects.models import projects

    project = projects(svc.store).get(1)
    if project is not None:
        projects(svc.store).delete(project)
    fetched = call(svc, "GET", f"/admin/clusters/{cluster['id']}")
    assert body(fetched)["management_project"] is None


# -- list, get, delete -----------------------------------------------------------------------


def test_list_is_ordered_by_id_and_paginated(svc: FakeService) -> None:
    for index in range(5):
        assert add(svc, name=f"c{index}", environment_scope=f"env{index}").status == 201
    assert [c["name"] for c in listed(svc)] == ["c0", "c1", "c2", "c3", "c4"]
    response = call(svc, "GET", "/admin/clusters", query={"per_page": 2, "page": 3})
    assert [c["name"] for c in body(response)] == ["c4"]
    assert response.header("X-Total") == "5"
    assert response.header("X-Total-Pages") == "3"
    assert response.header("X-Next-Page") == ""
    assert response.header("X-Prev-Page") == "2"


def test_get_one_and_unknown_ids(svc: FakeService) -> None:
    created = body(add(svc))
    response = call(svc, "GET", f"/admin/clusters/{created['id']}")
    assert (response.status, body(response)) == (200, created)
    assert "project" not in body(response)
    missing = call(svc, "GET", "/admin/clusters/999")
    assert (missing.status, body(missing)) == (404, {"message": "404 Not found"})
    invalid = call(svc, "GET", "/admin/clusters/abc")
    assert (invalid.status, body(invalid)) == (400, {"error": "cluster_id is invalid"})


def test_remove_answers_204_and_frees_the_scope(svc: FakeService) -> None:
    created = body(add(svc))
    response = call(svc, "DELETE", f"/admin/clusters/{created['id']}")
    assert (response.status, response.body) == (204, b"")
    assert listed(svc) == []
    again = call(svc, "DELETE", f"/admin/clusters/{created['id']}")
    assert (again.status, body(again)) == (404, {"message": "404 Not found"})
    readded = add(svc)
    assert readded.status == 201
    assert body(readded)["id"] == created["id"] + 1


def test_wrong_method_is_405(svc: FakeService) -> None:
    response = call(svc, "POST", "/admin/clusters")
    assert (response.status, body(response)) == (405, {"error": "405 Not Allowed"})


# -- edit ------------------------------------------------------------------------------------


def test_edit_changes_fields_and_answers_with_project_null(svc: FakeService) -> None:
    created = body(add(svc, management_project_id=1))
    response = call(
        svc,
        "PUT",
        f"/admin/clusters/{created['id']}",
        json_body={
            "name": "renamed",
            "domain": "apps.example.org",
            "environment_scope": "staging",
            "enabled": False,
            "management_project_id": None,
            "platform_kubernetes_attributes": {
                "api_url": "https://k8s2.example.com",
                "token": "",
                "ca_cert": CA_CERT,
                "authorization_type": "abac",
            },
        },
    )
    assert response.status == 200, response.body
    data = body(response)
    expected = {
        **created,
        "name": "renamed",
        "domain": "apps.example.org",
        "environment_scope": "staging",
        "enabled": False,
        "management_project": None,
        "platform_kubernetes": {
            "api_url": "https://k8s2.example.com",
            "namespace": None,
            "authorization_type": "rbac",
            "ca_cert": CA_CERT,
        },
        "project": None,
    }
    assert data == expected
    fetched = body(call(svc, "GET", f"/admin/clusters/{created['id']}"))
    assert fetched == {k: v for k, v in expected.items() if k != "project"}
    from fakeservice.clusters.models import find_cluster

    stored = find_cluster(svc.store, created["id"])
    assert stored is not None and stored.token == "secret-token"


def test_edit_with_form_keys_and_a_new_token(svc: FakeService) -> None:
    created = body(add(svc))
    response = call(
        svc,
        "PUT",
        f"/admin/clusters/{created['id']}",
        data={
            "managed": "false",
            "platform_kubernetes_attributes[token]": "rotated",
            "platform_kubernetes_attributes[namespace]": "Team-A",
        },
    )
    assert response.status == 200, response.body
    data = body(response)
    assert data["managed"] is False
    assert data["platform_kubernetes"]["namespace"] == "team-a"
    from fakeservice.clusters.models import find_cluster

    stored = find_cluster(svc.store, created["id"])
    assert stored is not None and stored.token == "rotated"


def test_edit_with_nothing_changes_nothing(svc: FakeService) -> None:
    created = body(add(svc))
    response = call(svc, "PUT", f"/admin/clusters/{created['id']}")
    assert response.status == 200
    assert {k: v for k, v in body(response).items() if k != "project"} == created


def test_edit_keeps_its_own_scope_but_not_another(svc: FakeService) -> None:
    first = body(add(svc, environment_scope="production"))
    second = body(add(svc, name="second", environment_scope="staging"))
    same = call(
        svc, "PUT", f"/admin/clusters/{first['id']}", json_body={"environment_scope": "production"}
    )
    assert same.status == 200
    clash = call(
        svc, "PUT", f"/admin/clusters/{second['id']}", json_body={"environment_scope": "production"}
    )
    assert clash.status == 400
    assert body(clash) == {
        "message": {"environment_scope": ["cannot add duplicated environment scope"]}
    }
    assert [c["environment_scope"] for c in listed(svc)] == ["production", "staging"]


@pytest.mark.parametrize(
    ("payload", "status", "answer"),
    [
        ({"name": ""}, 400, {"message": {"name": ["has to be present"]}}),
        (
            {"environment_scope": None},
            400,
            {
                "message": {
                    "environment_scope": [
                        "can't be blank",
                        "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces",
                    ]
                }
            },
        ),
        (
            {"platform_kubernetes_attributes": {"api_url": ""}},
            400,
            {"message": {"platform_kubernetes.api_url": ["must be a valid URL", "can't be blank"]}},
        ),
        (
            {"platform_kubernetes_attributes": {"api_url": "gopher://x"}},
            400,
            {
                "message": {
                    "platform_kubernetes.api_url": [
                        "is blocked: Only allowed schemes are http, https"
                    ]
                }
            },
        ),
        (
            {"platform_kubernetes_attributes": {"ca_cert": "x"}},
            400,
            {"message": {"platform_kubernetes.ca_cert": ["must be a valid PEM certificate"]}},
        ),
        (
            {"platform_kubernetes_attributes": {"namespace": "ns"}},
            400,
            {"message": {"platform_kubernetes.namespace": ["only allowed for project cluster"]}},
        ),
        (
            {"management_project_id": 424242},
            400,
            {
                "message": {
                    "management_project_id": [
                        "Project does not exist or you don't have permission to perform this action"
                    ]
                }
            },
        ),
        (
            {"platform_kubernetes_attributes": "x"},
            400,
            {"error": "platform_kubernetes_attributes is invalid"},
        ),
        (
            {"platform_kubernetes_attributes": {"api_url": {"u": 1}}},
            400,
            {"error": "platform_kubernetes_attributes[api_url] is invalid"},
        ),
        ({"enabled": "sometimes"}, 400, {"error": "enabled is invalid"}),
    ],
)
def test_edit_errors_leave_the_cluster_unchanged(
    svc: FakeService, payload: dict[str, Any], status: int, answer: dict[str, Any]
) -> None:
    created = body(add(svc))
    response = call(svc, "PUT", f"/admin/clusters/{created['id']}", json_body=payload)
    assert response.status == status
    assert body(response) == answer
    assert body(call(svc, "GET", f"/admin/clusters/{created['id']}")) == created


def test_edit_unknown_cluster(svc: FakeService) -> None:
    response = call(svc, "PUT", "/admin/clusters/77", json_body={"name": "x"})
    assert (response.status, body(response)) == (404, {"message": "404 Not found"})
    invalid = call(svc, "PUT", "/admin/clusters/77", json_body={"enabled": "x"})
    assert (invalid.status, body(invalid)) == (400, {"error": "enabled is invalid"})


def test_unchanged_long_name_is_not_rechecked(svc: FakeService) -> None:
    from fakeservice.clusters.models import clusters

    created = body(add(svc))
    record = clusters(svc.store).get(created["id"])
    assert record is not None
    clusters(svc.store).update(record, name="n" * 3000)
    response = call(svc, "PUT", f"/admin/clusters/{created['id']}", json_body={"enabled": False})
    assert response.status == 200


# -- access ----------------------------------------------------------------------------------


ENDPOINTS = [
    ("GET", "/admin/clusters", None),
    ("GET", "/admin/clusters/1", None),
    ("POST", ADD, {"name": "x", "platform_kubernetes_attributes": kube()}),
    ("PUT", "/admin/clusters/1", {"name": "x"}),
    ("DELETE", "/admin/clusters/1", None),
]


@pytest.mark.parametrize(("method", "path", "payload"), ENDPOINTS)
def test_anonymous_is_401(svc: FakeService, method: str, path: str, payload: Any) -> None:
    add(svc)
    response = call(svc, method, path, None, json_body=payload)
    assert (response.status, body(response)) == (401, {"message": "401 Unauthorized"})


@pytest.mark.parametrize(("method", "path", "payload"), ENDPOINTS)
def test_non_administrators_are_403(svc: FakeService, method: str, path: str, payload: Any) -> None:
    add(svc)
    for token in (ALICE, BOB):
        response = call(svc, method, path, token, json_body=payload)
        assert response.status == 403
    alice = call(svc, method, path, ALICE, json_body=payload)
    assert body(alice) == {"message": "403 Forbidden"}
    assert [c["name"] for c in listed(svc)] == ["production"]


def test_invalid_token_is_401(svc: FakeService) -> None:
    response = call(svc, "GET", "/admin/clusters", "nope")
    assert (response.status, body(response)) == (401, {"message": "401 Unauthorized"})


def test_sudo_to_a_non_administrator_is_403(svc: FakeService) -> None:
    response = call(svc, "GET", "/admin/clusters", ROOT, headers={"Sudo": "alice"})
    assert (response.status, body(response)) == (403, {"message": "403 Forbidden"})


def test_the_adding_administrator_is_the_user(svc: FakeService) -> None:
    # a second administrator (made through the API) adds a cluster: it is their reference
    made = call(
        svc,
        "POST",
        "/users",
        json_body={
            "username": "ops",
            "name": "Ops Admin",
            "email": "ops@example.com",
            "password": "long-enough-password",
            "admin": True,
        },
    )
    assert made.status == 201, made.body
    response = add(svc, token=ROOT, name="mine")
    assert body(response)["user"]["username"] == "root"
    by_sudo = call(
        svc,
        "POST",
        ADD,
        ROOT,
        headers={"Sudo": "ops"},
        json_body={
            "name": "theirs",
            "environment_scope": "x",
            "platform_kubernetes_attributes": kube(),
        },
    )
    assert by_sudo.status == 201, by_sudo.body
    assert body(by_sudo)["user"]["username"] == "ops"


def test_services_do_not_share_clusters() -> None:
    first, second = new_service(), new_service()
    add(first)
    assert listed(second) == []


def test_remove_honours_if_unmodified_since(svc: FakeService) -> None:
    created = body(add(svc))
    svc.clock.advance(seconds=60)
    edited = call(svc, "PUT", f"/admin/clusters/{created['id']}", json_body={"name": "moved"})
    assert edited.status == 200
    path = f"/admin/clusters/{created['id']}"
    stale = {"If-Unmodified-Since": "Thu, 01 Jan 2026 09:00:30 GMT"}
    refused = call(svc, "DELETE", path, headers=stale)
    assert (refused.status, body(refused)) == (412, {"message": "412 Precondition Failed"})
    assert [c["name"] for c in listed(svc)] == ["moved"]
    ignored = call(svc, "DELETE", path, headers={"If-Unmodified-Since": "garbage"})
    assert ignored.status == 204


def test_remove_accepts_an_iso_if_unmodified_since(svc: FakeService) -> None:
    created = body(add(svc))
    fresh = {"If-Unmodified-Since": "2026-01-01T09:00:00Z"}
    assert call(svc, "DELETE", f"/admin/clusters/{created['id']}", headers=fresh).status == 204
