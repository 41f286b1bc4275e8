"""Deploy tokens: instance list (administrators), project and group list/get/create/delete
(Maintainer and above), validation, and git over HTTP with the token's username."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import gitlab
import pytest
from support.calls import call

from fakeservice import FakeService

VAULT = "/projects/acme%2Fsecret-ops%2Fvault"
FIELDS = {"id", "name", "username", "expires_at", "revoked", "expired", "scopes"}


def create(svc: FakeService, path: str = VAULT, token: str = "root-token", **body: Any) -> Any:
    payload = {"name": "deployer", "scopes": ["read_repository"], **body}
    return call(svc, "POST", f"{path}/deploy_tokens", token=token, json_body=payload)


def basic(user: str, secret: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{secret}".encode()).decode()}


def refs(svc: FakeService, path: str, headers: dict[str, str]) -> Any:
    return svc.request("GET", f"/{path}.git/info/refs?service=git-upload-pack", headers=headers)


def test_create_get_list_delete(svc: FakeService) -> None:
    response = create(svc, expires_at="2026-02-01T00:00:00Z", username="ci+deploy")
    assert response.status == 201
    made = response.json()
    assert set(made) == FIELDS | {"token"}
    assert {k: made[k] for k in FIELDS - {"id"}} == {
        "name": "deployer",
        "username": "ci+deploy",
        "expires_at": "2026-02-01T00:00:00Z",
        "revoked": False,
        "expired": False,
        "scopes": ["read_repository"],
    }
    default = create(svc, "/groups/acme", token="alice-token", scopes=["read_registry"]).json()
    assert default["username"] == f"gitlab+deploy-token-{default['id']}"
    got = call(svc, "GET", f"{VAULT}/deploy_tokens/{made['id']}").json()
    assert got == {k: v for k, v in made.items() if k != "token"}
    assert [t["id"] for t in call(svc, "GET", f"{VAULT}/deploy_tokens").json()] == [made["id"]]
    everyone = call(svc, "GET", "/deploy_tokens").json()
    assert [t["id"] for t in everyone] == [made["id"], default["id"]]
    svc.clock.advance(days=40)
    assert [
        t["id"] for t in call(svc, "GET", "/deploy_tokens", query={"active": "true"}).json()
    ] == [default["id"]]
    assert call(svc, "GET", f"{VAULT}/deploy_tokens/{made['id']}").json()["expired"] is True
    # a token of one owner is not found under another
    other = call(svc, "GET", f"/groups/acme/deploy_tokens/{made['id']}")
    assert (other.status, other.json()) == (404, {"message": "404 Deploy Token Not Found"})
    assert call(svc, "DELETE", f"{VAULT}/deploy_tokens/{made['id']}").status == 204
    assert call(svc, "GET", f"{VAULT}/deploy_tokens/{made['id']}").status == 404


def test_validation_and_roles(svc: FakeService) -> None:
    before = svc.snapshot()
    for body, expected in (
        ({"scopes": ["api"]}, {"error": "scopes does not have a valid value"}),
        ({"name": ""}, {"error": "name is empty"}),
        ({"expires_at": "tomorrow"}, {"error": "expires_at is invalid"}),
        ({"scopes": []}, {"message": {"scopes": ["can't be blank"]}}),
        (
            {"username": "has space"},
            {"message": {"username": ["can contain only letters, digits, '_', '-', '+', and '.'"]}},
        ),
    ):
        response = create(svc, **body)
        assert (response.status, response.json()) == (400, expected)
    assert svc.snapshot() == before
    # bob is a reporter in acme: 403; carol cannot see the private project: 404
    assert create(svc, "/projects/acme%2Fwebsite", token="carol-token").status == 403
    assert create(svc, token="carol-token").status == 404
    assert call(svc, "GET", "/groups/acme/deploy_tokens", token="carol-token").status == 403
    assert call(svc, "GET", "/deploy_tokens", token="alice-token").status == 403


def test_git_reads_with_the_token_username_on_the_projects_it_reaches(svc: FakeService) -> None:
    project = create(svc).json()
    group = create(svc, "/groups/acme%2Fsecret-ops").json()
    other = create(svc, "/projects/acme%2Fwebsite").json()
    vault = "acme/secret-ops/vault"
    assert refs(svc, vault, basic(project["username"], project["token"])).status == 200
    assert refs(svc, vault, basic(group["username"], group["token"])).status == 200
    assert refs(svc, vault, basic("someone", project["token"])).status == 401
    assert refs(svc, vault, basic(other["username"], other["token"])).status == 404
    registry = create(svc, scopes=["read_registry"]).json()
    assert refs(svc, vault, basic(registry["username"], registry["token"])).status == 404
    push = svc.request(
        "GET",
        f"/{vault}.git/info/refs?service=git-receive-pack",
        headers=basic(project["username"], project["token"]),
    )
    assert push.status == 401
    call(svc, "DELETE", f"{VAULT}/deploy_tokens/{project['id']}")
    assert refs(svc, vault, basic(project["username"], project["token"])).status == 401


@pytest.mark.skipif(shutil.which("git") is None, reason="git CLI not installed")
def test_git_clone_and_python_gitlab(served: tuple[FakeService, str], tmp_path: Path) -> None:
    _, url = served
    gl = gitlab.Gitlab(url, private_token="alice-token")
    project = gl.projects.get("acme/secret-ops/vault")
    token = project.deploytokens.create({"name": "clone", "scopes": ["read_repository"]})
    assert [t.name for t in project.deploytokens.list(get_all=True)] == ["clone"]
    scheme, _, rest = url.partition("://")
    remote = f"{scheme}://{token.username}:{token.token}@{rest}/acme/secret-ops/vault.git"
    env = {**os.environ, "HOME": str(tmp_path), "GIT_TERMINAL_PROMPT": "0"}
    done = subprocess.run(
        ["git", "clone", "-q", remote, "vault"], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "vault" / ".git").is_dir()
    group = gl.groups.get("acme")
    made = group.deploytokens.create({"name": "g", "scopes": ["read_registry"]})
    group.deploytokens.delete(made.id)
    assert group.deploytokens.list(get_all=True) == []
    admin = gitlab.Gitlab(url, private_token="root-token")
    assert [t.name for t in admin.deploytokens.list(get_all=True)] == ["clone"]
