"""Issue 12, item 3: neighbouring endpoints real CI clients call: job erase,
``pipelines/latest`` and a user's impersonation tokens, through raw HTTP and python-gitlab."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from support.calls import ROOT, call
from support.services import stamp

from fakeservice import FakeService

WEBSITE = "/projects/acme%2Fwebsite"


@pytest.fixture
def svc() -> FakeService:
    return stamp("default", "default")


def client(svc: FakeService, token: str = ROOT) -> gitlab.Gitlab:
    return gitlab.Gitlab(svc.url, private_token=token, session=svc.requests_session())


def finished_pipeline(svc: FakeService, token: str = ROOT) -> tuple[int, dict[str, Any]]:
    created = call(svc, "POST", f"{WEBSITE}/pipeline", token, json_body={"ref": "main"}).json()
    svc.runner.run_all(created["id"])
    listed = call(svc, "GET", f"{WEBSITE}/pipelines/{created['id']}/jobs").json()
    return created["id"], {job["name"]: job for job in listed}


# -- job erase ------------------------------------------------------------------------------


def test_erase_removes_artifacts_and_log(svc: FakeService) -> None:
    _, jobs = finished_pipeline(svc)
    build = jobs["build"]
    assert (
        build["artifacts"] and call(svc, "GET", f"{WEBSITE}/jobs/{build['id']}/trace").status == 200
    )
    erased = call(svc, "POST", f"{WEBSITE}/jobs/{build['id']}/erase")
    assert erased.status == 201
    body = erased.json()
    assert body["erased_at"] == svc.clock.now().isoformat().replace("+00:00", "Z")
    assert body["artifacts"] == [] and "artifacts_file" not in body
    assert call(svc, "GET", f"{WEBSITE}/jobs/{build['id']}/trace").status == 404
    assert call(svc, "GET", f"{WEBSITE}/jobs/{build['id']}/artifacts").status == 404
    again = call(svc, "POST", f"{WEBSITE}/jobs/{build['id']}/erase")
    assert (again.status, again.json()) == (
        403,
        {"message": "403 Forbidden - Job is not erasable!"},
    )


def test_an_unfinished_job_is_not_erasable(svc: FakeService) -> None:
    _, jobs = finished_pipeline(svc)
    manual = next(job for job in jobs.values() if job["status"] == "manual")
    response = call(svc, "POST", f"{WEBSITE}/jobs/{manual['id']}/erase")
    assert response.json() == {"message": "403 Forbidden - Job is not erasable!"}


def test_erase_needs_a_maintainer_or_the_job_owner(svc: FakeService) -> None:
    _, jobs = finished_pipeline(svc)
    reporter = call(svc, "POST", f"{WEBSITE}/jobs/{jobs['build']['id']}/erase", "bob-read-token")
    assert reporter.status == 403
    assert call(svc, "GET", f"{WEBSITE}/jobs/{jobs['build']['id']}").json()["erased_at"] is None


def test_python_gitlab_erases_a_job(svc: FakeService) -> None:
    _, jobs = finished_pipeline(svc)
    job = client(svc).projects.get("acme/website").jobs.get(jobs["build"]["id"])
    job.erase()
    assert client(svc).projects.get("acme/website").jobs.get(job.id).erased_at is not None


# -- pipelines/latest -------------------------------------------------------------------------


def test_latest_pipeline_of_the_default_branch_and_of_a_ref(svc: FakeService) -> None:
    older, _ = finished_pipeline(svc)
    newer = call(svc, "POST", f"{WEBSITE}/pipeline", json_body={"ref": "main"}).json()["id"]
    latest = call(svc, "GET", f"{WEBSITE}/pipelines/latest")
    assert (latest.status, latest.json()["id"]) == (200, newer)
    assert latest.json() == call(svc, "GET", f"{WEBSITE}/pipelines/{newer}").json()
    assert call(svc, "GET", f"{WEBSITE}/pipelines/latest?ref=main").json()["id"] == newer
    assert older != newer


def test_no_latest_pipeline_is_403(svc: FakeService) -> None:
    assert call(svc, "GET", f"{WEBSITE}/pipelines/latest").status == 403
    assert call(svc, "GET", f"{WEBSITE}/pipelines/latest?ref=nope").status == 403


def test_python_gitlab_latest_pipeline(svc: FakeService) -> None:
    pipeline_id, _ = finished_pipeline(svc)
    project = client(svc).projects.get("acme/website")
    assert project.pipelines.latest().id == pipeline_id
    assert project.pipelines.latest(ref="main").status == "success"


# -- impersonation tokens ------------------------------------------------------------------------


def test_listing_a_users_impersonation_tokens(svc: FakeService) -> None:
    made = [
        call(
            svc, "POST", "/users/2/impersonation_tokens", json_body={"name": n, "scopes": ["api"]}
        ).json()
        for n in ("one", "two")
    ]
    call(
        svc, "POST", "/users/2/personal_access_tokens", json_body={"name": "pat", "scopes": ["api"]}
    )
    call(svc, "DELETE", f"/personal_access_tokens/{made[0]['id']}")
    listed = call(svc, "GET", "/users/2/impersonation_tokens")
    assert [t["name"] for t in listed.json()] == ["one", "two"]
    assert listed.header("X-Total") == "2"
    assert all(t["impersonation"] is True and "token" not in t for t in listed.json())
    active = call(svc, "GET", "/users/2/impersonation_tokens?state=active").json()
    assert [t["name"] for t in active] == ["two"]
    inactive = call(svc, "GET", "/users/2/impersonation_tokens?state=inactive").json()
    assert [t["name"] for t in inactive] == ["one"]
    one = call(svc, "GET", f"/users/2/impersonation_tokens/{made[1]['id']}")
    assert one.json()["name"] == "two"
    missing = call(svc, "GET", "/users/2/impersonation_tokens/999")
    assert missing.json() == {"message": "404 Impersonation Token Not Found"}
    assert call(svc, "GET", "/users/2/impersonation_tokens", "alice-token").status == 403
    assert call(svc, "GET", "/users/2/impersonation_tokens?state=x").json() == {
        "error": "state does not have a valid value"
    }


def test_python_gitlab_lists_impersonation_tokens(svc: FakeService) -> None:
    user = client(svc).users.get(2)
    user.impersonationtokens.create({"name": "bot", "scopes": ["read_api"]})
    assert [t.name for t in user.impersonationtokens.list(state="active")] == ["bot"]
