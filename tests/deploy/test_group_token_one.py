"""One group deploy token: get and delete, over raw HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
from support.calls import call

from fakeservice import FakeService

from .test_deploy_tokens import FIELDS, create


def test_get_and_delete(svc: FakeService) -> None:
    made = create(svc, "/groups/acme", token="alice-token", scopes=["read_repository"]).json()
    path = f"/groups/acme/deploy_tokens/{made['id']}"
    got = call(svc, "GET", path, token="alice-token")
    assert got.status == 200
    assert got.json() == {k: made[k] for k in FIELDS}
    assert got.json()["username"] == f"gitlab+deploy-token-{made['id']}"
    assert call(svc, "GET", path, token="bob-read-token").status == 403
    assert call(svc, "DELETE", path, token="alice-token").status == 204
    gone = call(svc, "GET", path, token="alice-token")
    assert (gone.status, gone.json()) == (404, {"message": "404 Deploy Token Not Found"})


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token="alice-token", session=svc.requests_session()
    )
    group = gl.groups.get("acme")
    made = group.deploytokens.create({"name": "d", "scopes": ["read_repository"]})
    got = group.deploytokens.get(made.id)
    assert (got.name, got.scopes, got.revoked) == ("d", ["read_repository"], False)
    got.delete()
    assert group.deploytokens.list(get_all=True) == []
