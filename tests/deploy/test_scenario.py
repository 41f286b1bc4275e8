"""Deploy tokens declared in scenarios (projects and groups), checked like the API checks them."""

from __future__ import annotations

import base64

import pytest
import yaml
from support.calls import call
from support.services import track

from fakeservice import FakeService
from fakeservice.scenarios.problems import ScenarioError

YAML_WORLD = """
users:
  - {username: root, admin: true, tokens: [{token: root-token}]}
groups:
  - path: acme
    deploy_tokens:
      - {token: acme-pull, name: group pull, expires_at: 2030-01-01T00:00:00Z}
projects:
  - path: acme/vault
    files: {README.md: "hi"}
    deploy_tokens:
      - {token: vault-pull, username: puller, scopes: [read_repository, read_registry]}
"""


def test_scenario_deploy_tokens_are_listed_and_clone() -> None:
    svc = track(FakeService(yaml.safe_load(YAML_WORLD)))
    listed = call(svc, "GET", "/deploy_tokens").json()
    assert [(t["name"], t["username"], t["scopes"], t["expires_at"]) for t in listed] == [
        ("group pull", "gitlab+deploy-token-1", ["read_repository"], "2030-01-01T00:00:00Z"),
        ("deploy token", "puller", ["read_repository", "read_registry"], None),
    ]
    auth = base64.b64encode(b"puller:vault-pull").decode()
    refs = svc.request(
        "GET",
        "/acme/vault.git/info/refs?service=git-upload-pack",
        headers={"Authorization": f"Basic {auth}"},
    )
    assert refs.status == 200


def test_bad_deploy_tokens_are_scenario_errors() -> None:
    with pytest.raises(ScenarioError, match="used twice"):
        FakeService(yaml.safe_load(YAML_WORLD.replace("acme-pull", "vault-pull")))
    with pytest.raises(ScenarioError, match="can contain only"):
        FakeService(yaml.safe_load(YAML_WORLD.replace("username: puller", "username: 'pull er'")))


@pytest.mark.parametrize(
    "written", ["2030-01-01 08:00:00", "2030-01-01T08:00:00", "2030-01-01 09:00:00+01:00"]
)
def test_an_expiry_without_a_zone_is_utc(written: str) -> None:
    world = yaml.safe_load(YAML_WORLD.replace("2030-01-01T00:00:00Z", written))
    svc = track(FakeService(world))
    listed = call(svc, "GET", "/deploy_tokens")
    assert listed.status == 200
    assert listed.json()[0]["expires_at"] == "2030-01-01T08:00:00Z"
