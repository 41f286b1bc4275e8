"""Property test: random sequences of pipeline and job events through the HTTP API and the
runner, in manual and timed mode, keep the CI state machines honest.

Invariants after every step:

* every job transition is one the job machine allows, and no status changes without one
  (statuses are replayed from the observed transitions and compared);
* timestamps never go backwards, follow each other (queued <= started <= finished) and
  never pass the clock;
* a pipeline's status is the composite status of its latest jobs;
* no request answered 500.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from fakeservice.ci import flow
from fakeservice.ci.machines import JOB_MACHINE, pipeline_status
from fakeservice.ci.models import Job, jobs, latest_jobs, pipelines
from fakeservice.ci.runner.simulation import RunnerError

from .ci_support import PROJECT, new_service

JOB_TIMES = ("queued_at", "started_at", "finished_at")
REFS = ("main", "feature/x", "v1.0")


class PipelineMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.svc = new_service()
        self.transitions: list[tuple[int, str, str, str]] = []
        self.undo = flow.observe(self._seen)
        self.statuses: dict[int, str] = {}
        self.times: dict[tuple[str, int, str], dt.datetime] = {}

    def _seen(self, job: Job, old: str, event: str, new: str) -> None:
        self.transitions.append((job.id, old, event, new))

    def teardown(self) -> None:
        self.undo()

    # -- helpers -----------------------------------------------------------------------------
    def _jobs(self, *statuses: str) -> list[Job]:
        table = jobs(self.svc.store)
        return [
            job
            for job in table
            if not job.is_bridge and not job.retried and (not statuses or job.status in statuses)
        ]

    def _post(self, path: str, allowed: tuple[int, ...]) -> None:
        response = self.svc.request("POST", f"/projects/{PROJECT}{path}", token="root-token")
        assert response.status in allowed, (path, response.status, response.body)

    # -- rules -----------------------------------------------------------------------------
    @initialize(mode=st.sampled_from(["manual", "timed"]), pickup=st.sampled_from([0, 5]))
    def choose_mode(self, mode: str, pickup: int) -> None:
        self.svc.runner.set_mode(mode, pickup_seconds=pickup)

    @rule(ref=st.sampled_from(REFS))
    def create_pipeline(self, ref: str) -> None:
        response = self.svc.request(
            "POST", f"/projects/{PROJECT}/pipeline", token="root-token", json_body={"ref": ref}
        )
        assert response.status == 201, response.body

    @rule(seconds=st.integers(min_value=0, max_value=90))
    def advance_clock(self, seconds: int) -> None:
        self.svc.clock.advance(seconds=seconds)

    @rule(mode=st.sampled_from(["manual", "timed", "instant"]))
    def switch_mode(self, mode: str) -> None:
        self.svc.runner.set_mode(mode, project="acme/pipes")

    @precondition(lambda self: self._jobs("pending"))
    @rule(data=st.data())
    def start_job(self, data: st.DataObject) -> None:
        job = data.draw(st.sampled_from(self._jobs("pending")))
        self.svc.runner.start(job.id)

    @precondition(lambda self: self._jobs("pending", "running"))
    @rule(data=st.data(), status=st.sampled_from(["success", "failed", "canceled"]))
    def finish_job(self, data: st.DataObject, status: str) -> None:
        job = data.draw(st.sampled_from(self._jobs("pending", "running")))
        self.svc.runner.finish(job.id, status)

    @precondition(lambda self: self._jobs())
    @rule(data=st.data(), action=st.sampled_from(["cancel", "retry", "play"]))
    def job_action(self, data: st.DataObject, action: str) -> None:
        job = data.draw(st.sampled_from(self._jobs()))
        self._post(f"/jobs/{job.id}/{action}", (201, 400, 403))

    @precondition(lambda self: len(pipelines(self.svc.store)) > 0)
    @rule(data=st.data(), action=st.sampled_from(["cancel", "retry"]))
    def pipeline_action(self, data: st.DataObject, action: str) -> None:
        pipeline = data.draw(st.sampled_from(list(pipelines(self.svc.store))))
        self._post(f"/pipelines/{pipeline.id}/{action}", (200, 201))

    @precondition(lambda self: len(pipelines(self.svc.store)) > 0)
    @rule(data=st.data())
    def run_to_completion(self, data: st.DataObject) -> None:
        pipeline = data.draw(st.sampled_from(list(pipelines(self.svc.store))))
        try:
            self.svc.runner.run_all(pipeline.id)
        except RunnerError as exc:  # pragma: no cover - a runner refusal is a failure
            raise AssertionError(str(exc)) from exc

    # -- invariants ---------------------------------------------------------------------------
    @invariant()
    def only_legal_transitions(self) -> None:
        expected = dict(self.statuses)
        for job_id, old, event, new in self.transitions:
            assert JOB_MACHINE.target(old, event) == new, (job_id, old, event, new)
            assert expected.get(job_id, "created") == old, (job_id, expected.get(job_id), old)
            expected[job_id] = new
        self.transitions.clear()
        actual = {job.id: job.status for job in jobs(self.svc.store)}
        for job_id, status in actual.items():
            assert expected.get(job_id, "created") == status, (job_id, status)
        self.statuses = actual

    @invariant()
    def timestamps_move_forward(self) -> None:
        now = self.svc.clock.now()
        for job in jobs(self.svc.store):
            stamps = [getattr(job, name) for name in JOB_TIMES]
            present = [s for s in stamps if s is not None]
            assert present == sorted(present), (job.id, stamps)
            assert all(job.created_at <= s <= now for s in present), (job.id, stamps, now)
            self._forward("job", job.id, {n: getattr(job, n) for n in JOB_TIMES})
        for pipeline in pipelines(self.svc.store):
            started, finished = pipeline.started_at, pipeline.finished_at
            assert pipeline.created_at <= pipeline.updated_at <= now
            if started is not None:
                assert pipeline.created_at <= started <= now
            if finished is not None and started is not None:
                assert started <= finished <= now
            self._forward("pipeline", pipeline.id, {"updated_at": pipeline.updated_at})

    def _forward(self, kind: str, record_id: int, stamps: dict[str, Any]) -> None:
        for name, value in stamps.items():
            key = (kind, record_id, name)
            before = self.times.get(key)
            if value is None:
                continue
            assert before is None or value >= before, (key, before, value)
            self.times[key] = value

    @invariant()
    def pipeline_status_is_the_composite(self) -> None:
        store = self.svc.store
        for pipeline in pipelines(store):
            latest = latest_jobs(store, pipeline.id)
            if not latest:
                continue
            derived = pipeline_status(latest)
            if derived != "created":
                assert pipeline.status == derived, (pipeline.id, pipeline.status, derived)

    @invariant()
    def no_server_errors(self) -> None:
        assert self.svc.server_errors == []


PipelineMachine.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestPipelineMachine = PipelineMachine.TestCase
