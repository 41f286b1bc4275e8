"""The count of live job archives (Geo's ``job_artifacts_count``) comes from the
``archives`` index, kept in step when artifacts are collected, kept, erased or expire:
it always equals a scan of every job."""

from __future__ import annotations

from fakeservice import FakeService
from fakeservice.ci.artifacts.job_artifacts import archive_of, live_archives
from fakeservice.ci.models import jobs

from .ci_support import ALICE, PROJECT, call, create_pipeline, job_named


def scanned(svc: FakeService) -> int:
    now = svc.clock.now()
    return sum(1 for job in jobs(svc.store) if archive_of(job, now) is not None)


def counted(svc: FakeService) -> int:
    found = live_archives(svc.store, svc.clock.now())
    assert found == scanned(svc)
    return found


def test_counter_follows_collect_expiry_keep_and_erase(svc: FakeService) -> None:
    assert counted(svc) == 0
    first = create_pipeline(svc)
    svc.runner.run_all(first["id"])
    per_pipeline = counted(svc)
    assert per_pipeline >= 1
    second = create_pipeline(svc)
    svc.runner.run_all(second["id"])
    assert counted(svc) == 2 * per_pipeline
    kept = job_named(svc, first["id"], "build")["id"]
    path = f"/projects/{PROJECT}/jobs/{kept}"
    assert call(svc, "POST", f"{path}/artifacts/keep", ALICE).status == 201
    svc.clock.advance(days=7)  # the 7-day archives expire exactly now
    left = counted(svc)
    assert 1 <= left < 2 * per_pipeline
    svc.clock.advance(days=400)
    assert counted(svc) <= left
    assert call(svc, "DELETE", f"{path}/artifacts", ALICE).status == 204
    assert counted(svc) == 0
    third = create_pipeline(svc)
    svc.runner.run_all(third["id"])
    assert counted(svc) == per_pipeline
    erased = job_named(svc, third["id"], "build")["id"]
    assert call(svc, "POST", f"/projects/{PROJECT}/jobs/{erased}/erase", ALICE).status == 201
    assert counted(svc) == per_pipeline - 1
