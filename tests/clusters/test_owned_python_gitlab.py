"""Project and group clusters through python-gitlab's ``project.clusters`` and
``group.clusters`` managers over a live server: create (``POST .../clusters/user``), list,
get, save and delete, and the errors python-gitlab raises."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest

from fakeservice import FakeService

from .conftest import ALICE, kube


def _owner(gl: gitlab.Gitlab, kind: str) -> Any:
    return gl.projects.get("acme/website") if kind == "project" else gl.groups.get("acme")


@pytest.mark.parametrize("kind", ["project", "group"])
def test_python_gitlab_cluster_round_trip(svc: FakeService, kind: str) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ALICE)
        owner = _owner(gl, kind)
        assert owner.clusters.list() == []

        created = owner.clusters.create(
            {
                "name": "production",
                "environment_scope": "production",
                "platform_kubernetes_attributes": kube(),
            }
        )
        assert created.cluster_type == f"{kind}_type"
        assert getattr(created, kind)["id"] == owner.id
        assert "token" not in created.platform_kubernetes

        fetched = owner.clusters.get(created.id)
        fetched.name = "prod"
        fetched.domain = "apps.example.com"
        fetched.save()
        again = owner.clusters.get(created.id)
        assert (again.name, again.domain) == ("prod", "apps.example.com")
        assert [(c.id, c.name) for c in owner.clusters.list()] == [(created.id, "prod")]

        with pytest.raises(gitlab.GitlabCreateError) as duplicate:
            owner.clusters.create(
                {
                    "name": "again",
                    "environment_scope": "production",
                    "platform_kubernetes_attributes": kube(),
                }
            )
        assert duplicate.value.response_code == 400
        assert "cannot add duplicated environment scope" in str(duplicate.value.error_message)

        again.delete()
        assert owner.clusters.list() == []
        with pytest.raises(gitlab.GitlabGetError) as missing:
            owner.clusters.get(created.id)
        assert missing.value.response_code == 404


def test_python_gitlab_non_member_is_refused(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token="carol-token")
        with pytest.raises(gitlab.GitlabListError) as refused:
            gl.projects.get("acme/website", lazy=True).clusters.list()
        assert refused.value.response_code == 403
