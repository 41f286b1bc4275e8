"""Instance clusters through python-gitlab over a live server (python-gitlab 8 has no
manager for instance clusters, so its raw ``http_*`` calls are used, as its users do), plus
a property test: no add or edit body, however malformed, makes the service answer 500."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.calls import ROOT, call

from fakeservice import FakeService

from .conftest import ADD, ALICE, kube, new_service


def test_python_gitlab_round_trip(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ROOT)
        assert gl.http_get("/admin/clusters") == []

        created = gl.http_post(
            ADD,
            post_data={
                "name": "production",
                "environment_scope": "production",
                "platform_kubernetes_attributes": kube(),
            },
        )
        assert isinstance(created, dict)
        assert created["cluster_type"] == "instance_type"
        assert created["platform_kubernetes"]["api_url"] == "https://k8s.example.com:6443"
        assert "token" not in created["platform_kubernetes"]

        gl.http_post(ADD, post_data={"name": "staging", "platform_kubernetes_attributes": kube()})
        names = [c["name"] for c in gl.http_list("/admin/clusters", get_all=True)]
        assert names == ["production", "staging"]

        edited = gl.http_put(f"/admin/clusters/{created['id']}", post_data={"enabled": False})
        assert isinstance(edited, dict)
        assert edited["enabled"] is False
        assert edited["project"] is None
        assert gl.http_get(f"/admin/clusters/{created['id']}")["enabled"] is False

        with pytest.raises(gitlab.GitlabHttpError) as duplicate:
            gl.http_post(ADD, post_data={"name": "again", "platform_kubernetes_attributes": kube()})
        assert duplicate.value.response_code == 400
        assert "cannot add duplicated environment scope" in str(duplicate.value.error_message)

        with pytest.raises(gitlab.GitlabHttpError) as missing:
            gl.http_post(ADD, post_data={"name": "x", "platform_kubernetes_attributes": {}})
        assert missing.value.response_code == 400
        assert missing.value.error_message == (
            "platform_kubernetes_attributes[api_url] is missing, "
            "platform_kubernetes_attributes[token] is missing"
        )

        gl.http_delete(f"/admin/clusters/{created['id']}")
        with pytest.raises(gitlab.GitlabHttpError) as gone:
            gl.http_get(f"/admin/clusters/{created['id']}")
        assert gone.value.response_code == 404

        with pytest.raises(gitlab.GitlabHttpError) as forbidden:
            gitlab.Gitlab(url, private_token=ALICE).http_get("/admin/clusters")
        assert forbidden.value.response_code == 403
        with pytest.raises(gitlab.GitlabAuthenticationError):
            gitlab.Gitlab(url).http_get("/admin/clusters")


_SERVICE: list[FakeService] = []

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=10),
    st.sampled_from(
        ["https://k8s.example.com", "http://10.0.0.1", "rbac", "abac", "*", "", "-----BEGIN"]
    ),
)
kube_hashes = st.dictionaries(
    st.sampled_from(["api_url", "token", "ca_cert", "namespace", "authorization_type", "x"]),
    scalars,
    max_size=5,
)
payloads = st.dictionaries(
    st.sampled_from(
        [
            "name",
            "domain",
            "environment_scope",
            "management_project_id",
            "enabled",
            "managed",
            "platform_kubernetes_attributes",
        ]
    ),
    st.one_of(scalars, kube_hashes, st.lists(scalars, max_size=2)),
    max_size=7,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=payloads, edit=st.booleans())
def test_no_body_makes_a_500(payload: dict[str, Any], edit: bool) -> None:
    if not _SERVICE:
        _SERVICE.append(new_service())
        response = call(
            _SERVICE[0],
            "POST",
            ADD,
            json_body={"name": "base", "platform_kubernetes_attributes": kube()},
        )
        assert response.status == 201
    svc = _SERVICE[0]
    if edit:
        response = call(svc, "PUT", "/admin/clusters/1", json_body=payload)
        assert response.status in (200, 400), response.body
    else:
        response = call(svc, "POST", ADD, json_body=payload)
        assert response.status in (201, 400), response.body
    listed = call(svc, "GET", "/admin/clusters", query={"per_page": 100})
    assert listed.status == 200
    assert not svc.server_errors
