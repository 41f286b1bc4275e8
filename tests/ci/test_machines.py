"""Tests for the job and pipeline state machines, composite status and stage processing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fakeservice.ci import machines as m
from fakeservice.core.clock import Clock
from fakeservice.core.errors import IllegalTransition

START = dt.datetime(2026, 1, 1, 9, 0, 0, tzinfo=dt.UTC)


@attrs.define
class Job:
    name: str = "job"
    status: str = "created"
    stage_idx: int = 0
    when: str = "on_success"
    needs: Sequence[str] | None = None
    allow_failure: bool = False
    retried: bool = False
    queued_at: dt.datetime | None = None
    started_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None
    failure_reason: str | None = None
    updated_at: dt.datetime | None = None


@attrs.define
class Pipeline:
    status: str = "created"
    created_at: dt.datetime = START
    updated_at: dt.datetime = START
    started_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None
    duration: int | None = None
    queued_duration: int | None = None


@pytest.fixture
def clock() -> Clock:
    return Clock("manual", START)


# -- job machine -----------------------------------------------------------------------------------

LEGAL = [
    ("created", "enqueue", "pending"),
    ("skipped", "enqueue", "pending"),
    ("manual", "enqueue", "pending"),
    ("scheduled", "enqueue", "pending"),
    ("pending", "run", "running"),
    ("created", "success", "success"),
    ("pending", "success", "success"),
    ("running", "success", "success"),
    ("waiting_for_resource", "success", "success"),
    ("preparing", "success", "success"),
    ("running", "drop", "failed"),
    ("manual", "drop", "failed"),
    ("scheduled", "drop", "failed"),
    ("created", "skip", "skipped"),
    ("pending", "skip", "skipped"),
    ("created", "cancel", "canceled"),
    ("pending", "cancel", "canceled"),
    ("running", "cancel", "canceled"),
    ("scheduled", "cancel", "canceled"),
    ("manual", "cancel", "canceled"),
    ("waiting_for_resource", "cancel", "canceled"),
    ("preparing", "cancel", "canceled"),
    ("created", "actionize", "manual"),
    ("manual", "play", "pending"),
    ("created", "schedule", "scheduled"),
]

ILLEGAL = [
    ("success", "run"),
    ("success", "cancel"),
    ("failed", "cancel"),
    ("canceled", "enqueue"),
    ("running", "skip"),
    ("running", "play"),
    ("pending", "play"),
    ("success", "drop"),
    ("skipped", "skip"),
    ("created", "run"),
    ("pending", "actionize"),
]


@pytest.mark.parametrize(("source", "event", "target"), LEGAL)
def test_legal_job_transitions(source: str, event: str, target: str, clock: Clock) -> None:
    job = Job(status=source)
    assert m.JOB_MACHINE.fire(job, event, clock=clock) == target
    assert job.status == target
    assert job.updated_at == START


@pytest.mark.parametrize(("source", "event"), ILLEGAL)
def test_illegal_job_transitions(source: str, event: str, clock: Clock) -> None:
    job = Job(status=source)
    with pytest.raises(IllegalTransition) as caught:
        m.JOB_MACHINE.fire(job, event, clock=clock)
    assert (caught.value.machine, caught.value.state, caught.value.event) == ("job", source, event)
    assert job.status == source


def test_status_sets_match_the_machine() -> None:
    assert {s for s in m.JOB_STATES if m.JOB_MACHINE.target(s, "cancel")} == m.CANCELABLE | {
        "canceling"
    }
    assert {"success", "failed", "canceled"} == m.RETRYABLE
    assert {s for s in m.JOB_STATES if m.JOB_MACHINE.target(s, "play")} == m.PLAYABLE
    assert "running" in m.ACTIVE and "success" not in m.ACTIVE


def test_job_timestamps_follow_the_clock(clock: Clock) -> None:
    job = Job()
    m.JOB_MACHINE.fire(job, "enqueue", clock=clock)
    assert job.queued_at == START and job.started_at is None
    clock.advance(seconds=30)
    m.JOB_MACHINE.fire(job, "run", clock=clock)
    assert job.started_at == START + dt.timedelta(seconds=30)
    clock.advance(seconds=15)
    assert m.job_duration(job, clock.now()) == 15.0
    assert m.job_queued_duration(job, clock.now()) == 30.0
    clock.advance(seconds=45)
    m.JOB_MACHINE.fire(job, "success", clock=clock)
    assert job.finished_at == START + dt.timedelta(seconds=90)
    clock.advance(seconds=1000)
    assert m.job_duration(job, clock.now()) == 60.0
    assert m.job_queued_duration(job, clock.now()) == 30.0


def test_durations_before_start(clock: Clock) -> None:
    job = Job()
    assert m.job_duration(job, clock.now()) is None
    assert m.job_queued_duration(job, clock.now()) is None
    m.JOB_MACHINE.fire(job, "enqueue", clock=clock)
    clock.advance(seconds=7.5)
    assert m.job_duration(job, clock.now()) is None
    assert m.job_queued_duration(job, clock.now()) == 7.5


def test_drop_records_the_failure_reason(clock: Clock) -> None:
    job = Job(status="running")
    m.JOB_MACHINE.fire(job, "drop", clock=clock, failure_reason="script_failure")
    assert (job.status, job.failure_reason, job.finished_at) == ("failed", "script_failure", START)
    other = Job(status="pending")
    m.JOB_MACHINE.fire(other, "drop", now=START)
    assert other.failure_reason == "unknown_failure"


def test_skip_and_cancel_timestamps(clock: Clock) -> None:
    skipped, canceled = Job(), Job(status="pending")
    m.JOB_MACHINE.fire(skipped, "skip", clock=clock)
    m.JOB_MACHINE.fire(canceled, "cancel", clock=clock)
    assert skipped.finished_at is None
    assert canceled.finished_at == START


def test_firing_without_a_clock_is_refused() -> None:
    with pytest.raises(TypeError):
        m.JOB_MACHINE.fire(Job(), "enqueue")


def test_machines_render_as_mermaid() -> None:
    diagram = m.JOB_MACHINE.to_mermaid()
    assert diagram.startswith("stateDiagram-v2\n")
    assert "    manual --> pending: play" in diagram
    assert "    running --> failed: drop" in diagram
    assert "    failed --> success: succeed" in m.PIPELINE_MACHINE.to_mermaid()
    assert set(m.PIPELINE_STATES) >= {
        "created",
        "pending",
        "running",
        "success",
        "manual",
        "scheduled",
    }


# -- composite status -------------------------------------------------------------------------------

COMPOSITE = [
    ([], "skipped"),
    ([("skipped", False)], "skipped"),
    ([("manual", True), ("skipped", False)], "skipped"),
    ([("success", False), ("skipped", False)], "success"),
    ([("success", False), ("failed", True)], "success"),
    ([("success", False), ("canceled", True)], "success"),
    ([("success", False), ("manual", True)], "success"),
    ([("created", False)], "created"),
    ([("created", False), ("manual", True)], "created"),
    ([("canceled", False), ("success", False)], "canceled"),
    ([("pending", False), ("created", False), ("skipped", False)], "pending"),
    ([("pending", False), ("success", False)], "running"),
    ([("running", False), ("failed", False)], "running"),
    ([("success", False), ("created", False)], "running"),
    ([("manual", False), ("success", False)], "manual"),
    ([("scheduled", False), ("success", False)], "scheduled"),
    ([("failed", False), ("success", False)], "failed"),
    ([("failed", False), ("canceled", False)], "failed"),
    ([("manual", False), ("failed", False)], "manual"),
    ([("waiting_for_resource", False), ("success", False)], "waiting_for_resource"),
    ([("preparing", False)], "preparing"),
]


@pytest.mark.parametrize(("jobs", "expected"), COMPOSITE)
def test_composite_status_table(jobs: list[tuple[str, bool]], expected: str) -> None:
    assert m.composite_status(jobs) == expected


def test_dag_variant() -> None:
    assert m.composite_status([("success", False), ("skipped", False)], dag=True) == "skipped"
    assert m.composite_status([("success", False), ("running", False)], dag=True) == "pending"
    assert m.composite_status([("failed", False)], dag=True) == "failed"


job_statuses = st.sampled_from(m.JOB_STATES)
pairs = st.lists(st.tuples(job_statuses, st.booleans()), max_size=8)


@given(pairs, st.sampled_from(["failed", "canceled", "manual"]))
def test_allowed_failures_never_turn_success_into_failed(
    jobs: list[tuple[str, bool]], extra: str
) -> None:
    before = m.composite_status(jobs)
    after = m.composite_status([*jobs, (extra, True)])
    if before == "success":
        assert after == "success"
    assert after != "failed" or before == "failed"


@given(pairs)
def test_composite_is_order_independent(jobs: list[tuple[str, bool]]) -> None:
    assert m.composite_status(jobs) == m.composite_status(list(reversed(jobs)))
    assert m.composite_status(jobs) in m.PIPELINE_STATES


@given(
    st.lists(st.sampled_from(["success", "skipped"]), min_size=1).filter(lambda s: "success" in s)
)
def test_passed_jobs_make_a_successful_pipeline(statuses: list[str]) -> None:
    assert m.composite_status([(s, False) for s in statuses]) == "success"


# -- pipelines ---------------------------------------------------------------------------------------


def test_pipeline_timestamps_follow_its_jobs(clock: Clock) -> None:
    pipeline = Pipeline()
    jobs = [Job("a"), Job("b", stage_idx=1)]
    m.process_pipeline(jobs, clock=clock)
    assert m.sync_pipeline(pipeline, jobs, clock=clock) == "pending"
    assert pipeline.started_at is None
    clock.advance(seconds=20)
    m.JOB_MACHINE.fire(jobs[0], "run", clock=clock)
    assert m.sync_pipeline(pipeline, jobs, clock=clock) == "running"
    assert pipeline.started_at == START + dt.timedelta(seconds=20)
    assert pipeline.queued_duration == 20
    clock.advance(seconds=40)
    m.JOB_MACHINE.fire(jobs[0], "success", clock=clock)
    assert m.process_pipeline(jobs, clock=clock) == [jobs[1]]
    assert m.sync_pipeline(pipeline, jobs, clock=clock) == "running"
    m.JOB_MACHINE.fire(jobs[1], "run", clock=clock)
    clock.advance(seconds=40)
    m.JOB_MACHINE.fire(jobs[1], "drop", clock=clock, failure_reason="script_failure")
    assert m.sync_pipeline(pipeline, jobs, clock=clock) == "failed"
    assert pipeline.finished_at == START + dt.timedelta(seconds=100)
    assert pipeline.duration == 80
    assert isinstance(pipeline.duration, int)
    assert pipeline.updated_at == pipeline.finished_at


def test_retried_pipeline_reopens(clock: Clock) -> None:
    pipeline = Pipeline(status="failed", started_at=START, finished_at=START, duration=5.0)
    old = Job("a", status="failed", retried=True)
    new = Job("a", status="pending")
    assert m.sync_pipeline(pipeline, [old, new], clock=clock) == "pending"
    assert (pipeline.finished_at, pipeline.duration, pipeline.started_at) == (None, None, START)


def test_immediate_start_has_no_queued_duration(clock: Clock) -> None:
    pipeline = Pipeline(status="pending")
    m.PIPELINE_MACHINE.fire(pipeline, "run", clock=clock)
    assert (pipeline.started_at, pipeline.queued_duration) == (START, None)


def test_created_never_moves_a_pipeline(clock: Clock) -> None:
    pipeline = Pipeline()
    assert m.sync_pipeline(pipeline, [Job()], clock=clock) == "created"
    assert m.pipeline_status([]) == "skipped"


# -- stage processing ------------------------------------------------------------------------------------


def test_processing_follows_stages_and_when(clock: Clock) -> None:
    build = Job("build", stage_idx=1)
    test_ok = Job("test", stage_idx=2)
    cleanup = Job("cleanup", stage_idx=2, when="always")
    notify = Job("notify", stage_idx=2, when="on_failure")
    deploy = Job("deploy", stage_idx=3, when="manual")
    jobs = [deploy, notify, cleanup, test_ok, build]
    assert m.process_pipeline(jobs, clock=clock) == [build]
    assert build.status == "pending"
    assert m.process_pipeline(jobs, clock=clock) == []
    m.JOB_MACHINE.fire(build, "run", clock=clock)
    m.JOB_MACHINE.fire(build, "drop", clock=clock)
    changed = m.process_pipeline(jobs, clock=clock)
    assert [j.name for j in changed] == ["notify", "cleanup", "test"]
    assert [notify.status, cleanup.status, test_ok.status] == ["pending", "pending", "skipped"]
    m.JOB_MACHINE.fire(notify, "success", clock=clock)
    m.JOB_MACHINE.fire(cleanup, "success", clock=clock)
    m.process_pipeline(jobs, clock=clock)
    assert deploy.status == "skipped"


def test_processing_manual_delayed_and_allowed_failures(clock: Clock) -> None:
    flaky = Job("flaky", status="failed", allow_failure=True)
    deploy = Job("deploy", stage_idx=1, when="manual", allow_failure=True)
    later = Job("later", stage_idx=1, when="delayed")
    after = Job("after", stage_idx=2)
    jobs = [flaky, deploy, later, after]
    m.process_pipeline(jobs, clock=clock)
    assert (deploy.status, later.status) == ("manual", "scheduled")
    assert after.status == "created"  # waits for the scheduled job
    m.JOB_MACHINE.fire(later, "enqueue", clock=clock)
    m.JOB_MACHINE.fire(later, "success", clock=clock)
    m.process_pipeline(jobs, clock=clock)
    assert after.status == "pending"  # the optional manual job is ignored


def test_processing_with_needs(clock: Clock) -> None:
    compile_ = Job("compile", stage_idx=1)
    lint = Job("lint", stage_idx=1)
    unit = Job("unit", stage_idx=2, needs=["compile"])
    first = Job("first", stage_idx=3, needs=[])
    jobs = [compile_, lint, unit, first]
    assert [j.name for j in m.process_pipeline(jobs, clock=clock)] == ["compile", "lint", "first"]
    m.JOB_MACHINE.fire(compile_, "success", clock=clock)
    assert m.process_pipeline(jobs, clock=clock) == [unit]
    assert unit.status == "pending" and lint.status == "pending"
