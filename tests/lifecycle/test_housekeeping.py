"""``POST /projects/:id/housekeeping``: 201 with a job id, the hour's lease (409), the
role rule, the task values, and the record tests can read."""

from __future__ import annotations

import gitlab
from support.calls import call_as

from fakeservice import FakeService
from fakeservice.housekeeping.routes import LEASE_TAKEN, housekeeping_runs

APP = "/projects/studio%2Fapp"


def test_housekeeping_answers_and_takes_the_lease(svc: FakeService) -> None:
    first = call_as(svc, "POST", f"{APP}/housekeeping", "root", {"task": "prune"})
    assert first.status == 201
    assert isinstance(first.json(), str) and len(first.json()) == 24
    project_id = call_as(svc, "GET", APP, "root").json()["id"]
    runs = housekeeping_runs(svc.store, project_id)
    assert [(r["task"], r["job_id"]) for r in runs] == [("prune", first.json())]
    again = call_as(svc, "POST", f"{APP}/housekeeping", "root")
    assert (again.status, again.json()) == (409, {"message": LEASE_TAKEN})
    svc.clock.advance(seconds=3600)
    later = call_as(svc, "POST", f"{APP}/housekeeping", "root")
    assert later.status == 201
    assert [r["task"] for r in housekeeping_runs(svc.store, project_id)] == ["prune", "eager"]


def test_housekeeping_rules(svc: FakeService) -> None:
    assert call_as(svc, "POST", f"{APP}/housekeeping", "gina").status == 403
    assert call_as(svc, "POST", f"{APP}/housekeeping", None).status == 401
    bad = call_as(svc, "POST", f"{APP}/housekeeping", "root", {"task": "gc"})
    assert (bad.status, bad.json()) == (400, {"error": "task does not have a valid value"})
    assert (
        call_as(svc, "POST", "/projects/acme%2Fsecret-ops%2Fvault/housekeeping", "frank").status
        == 404
    )


def test_python_gitlab_housekeeping(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="root-token", session=svc.requests_session())
    gl.projects.get("studio/app").housekeeping()
    project_id = gl.projects.get("studio/app").id
    assert len(housekeeping_runs(svc.store, project_id)) == 1
