"""Catch-up work (settling what became due: timed jobs, background steps, schedules,
merges waiting for pipelines) skipped while nothing moved (:mod:`fakeservice.core.catchup`):
reads after writes, ticks and restores still see the settled state, over raw HTTP and
python-gitlab."""

from __future__ import annotations

from typing import Any

import gitlab

from fakeservice import FakeService
from fakeservice.core.catchup import CatchUp
from fakeservice.web.http import Request

ROOT = "root-token"
GET = Request("GET", "/api/v4/version")


def test_reads_after_writes_and_restores() -> None:
    svc = FakeService()
    before = svc.request("GET", "/projects/1", token=ROOT).json()
    snapshot = svc.snapshot()
    edited = svc.request("PUT", "/projects/1", token=ROOT, json_body={"description": "new"})
    assert edited.status == 200
    assert svc.request("GET", "/projects/1", token=ROOT).json()["description"] == "new"
    svc.restore(snapshot)
    assert svc.request("GET", "/projects/1", token=ROOT).json() == before


def test_python_gitlab_reads_are_fresh() -> None:
    svc = FakeService()
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token=ROOT, session=svc.requests_session()
    )
    project = gl.projects.get(1)
    project.description = "changed through the client"
    project.save()
    assert gl.projects.get(1).description == "changed through the client"


def test_catch_up_runs_only_when_something_moved() -> None:
    svc = FakeService()
    runs: list[int] = []
    catch_up = CatchUp(svc)
    catch_up.works.append(lambda: runs.append(1))
    catch_up(GET)
    catch_up(GET)
    assert runs == [1]  # nothing moved: the second read skips it
    catch_up(Request("POST", "/api/v4/projects"))
    assert runs == [1, 1]  # a write request always runs it
    svc.clock.advance(seconds=1)
    catch_up(GET)
    assert runs == [1, 1, 1]
    svc.request("POST", "/projects", token=ROOT, json_body={"name": "moved"})
    catch_up(GET)
    catch_up(GET)
    assert runs == [1, 1, 1, 1]


def test_a_run_that_wrote_runs_again() -> None:
    svc = FakeService()
    counts: dict[str, Any] = {"runs": 0}

    def work() -> None:
        counts["runs"] += 1
        if counts["runs"] == 1:
            svc.store.extras["catch-up-test"] = 1  # the first run writes

    catch_up = CatchUp(svc)
    catch_up.works.append(work)
    for _ in range(4):
        catch_up(GET)
    assert counts["runs"] == 2  # the second found nothing: the rest are skipped


def test_timed_jobs_move_with_reads_only() -> None:
    svc = FakeService()
    svc.runner.set_mode("timed")
    created = svc.request(
        "POST", "/projects/acme%2Fwebsite/pipeline", json_body={"ref": "main"}, token=ROOT
    )
    path = f"/projects/1/pipelines/{created.json()['id']}"
    assert svc.request("GET", path, token=ROOT).json()["status"] in ("created", "pending")
    assert svc.request("GET", path, token=ROOT).json()["status"] in ("created", "pending")
    svc.clock.advance(seconds=600)
    assert svc.request("GET", path, token=ROOT).json()["status"] == "success"
