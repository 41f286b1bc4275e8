"""Deleting a project, directly or with its group or owner, leaves nothing of it behind."""

from __future__ import annotations

from fakeservice import FakeService

ROOT = "root-token"


def counts(svc: FakeService) -> dict[str, int]:
    tables = svc.store.tables
    return {
        "jobs": len(tables["ci_jobs"]),
        "pipelines": len(tables["ci_pipelines"]),
        "protected_branches": len(tables["protected_branches"]),
        "protected_environments": len(tables["protected_environments"]),
        "repositories": len(svc.store.extras.get("repositories", {})),
    }


def seeded() -> FakeService:
    svc = FakeService()
    svc.runner.set_mode("instant")
    created = svc.request(
        "POST", "/projects/acme%2Fwebsite/pipeline", json_body={"ref": "main"}, token=ROOT
    )
    assert created.status == 201
    protected = svc.request(
        "POST",
        "/projects/acme%2Fwebsite/protected_environments",
        json_body={"name": "production", "deploy_access_levels": [{"access_level": 40}]},
        token=ROOT,
    )
    assert protected.status == 201
    return svc


def test_deleting_a_project_deletes_its_repository_pipelines_and_rules() -> None:
    svc = seeded()
    assert counts(svc) == {
        "jobs": 3,
        "pipelines": 1,
        "protected_branches": 2,
        "protected_environments": 1,
        "repositories": 2,
    }
    response = svc.request("DELETE", "/projects/acme%2Fwebsite", token=ROOT)
    assert (response.status, response.json()) == (202, {"message": "202 Accepted"})
    assert counts(svc) == {
        "jobs": 0,
        "pipelines": 0,
        "protected_branches": 1,
        "protected_environments": 0,
        "repositories": 1,
    }
    assert svc.request("GET", "/projects/1/pipelines/1", token=ROOT).status == 404


def test_deleting_the_group_deletes_its_projects_state_too() -> None:
    svc = seeded()
    assert svc.request("DELETE", "/groups/acme", token=ROOT).status == 202
    assert counts(svc)["jobs"] == 0 and counts(svc)["repositories"] == 1
    assert svc.request("GET", "/projects/acme%2Fwebsite", token=ROOT).status == 404


def test_hard_deleting_the_owner_deletes_personal_and_solely_owned_projects() -> None:
    svc = seeded()
    # alice owns alice/dotfiles and is the only owner of acme (which holds acme/website)
    assert svc.request("DELETE", "/users/2?hard_delete=true", token=ROOT).status == 204
    assert counts(svc) == {
        "jobs": 0,
        "pipelines": 0,
        "protected_branches": 0,
        "protected_environments": 0,
        "repositories": 0,
    }
    assert svc.request("GET", "/projects/alice%2Fdotfiles", token=ROOT).status == 404
    assert svc.server_errors == []
