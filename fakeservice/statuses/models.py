"""Commit statuses as CI records: an external status is a job of kind
:data:`~fakeservice.ci.models.EXTERNAL` in the ``external`` stage of a pipeline for its
commit (a pipeline of source ``external`` is made when none matches), and its status
changes only through :func:`~fakeservice.ci.flow.fire_job`, so the pipeline's composite
status follows it as it follows builds.

Indexes (added to the CI tables): ``by_project_sha`` and ``by_project_sha_pipeline`` over
jobs (every commit status of a commit, by id or by pipeline), ``by_project_sha`` over
pipelines (newest last).

The service's rules: an ``external`` status of the same name, ref and user that is still
pending or running is updated; otherwise a new one is made and older ones of that name in
the pipeline become retried. ``state`` maps to an event (``running`` enqueues first when
it can); a transition the machine refuses is ``400`` with the state machine's message.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import attrs

from fakeservice.ci.flow import fire_job
from fakeservice.ci.machines import JOB_MACHINE
from fakeservice.ci.models import EXTERNAL, Job, Pipeline, jobs, latest_jobs, pipelines
from fakeservice.ci.pipelines.creation import new_pipeline
from fakeservice.ci.repo import RefInfo
from fakeservice.core.errors import BadRequest, NotFound
from fakeservice.core.store import Store
from fakeservice.projects.models import Project
from fakeservice.repository.git import Repository
from fakeservice.repository.views import commit_entity

STATES: tuple[str, ...] = ("pending", "running", "success", "failed", "canceled", "skipped")
EVENTS: dict[str, str] = {
    "pending": "enqueue",
    "running": "run",
    "success": "success",
    "failed": "drop",
    "canceled": "cancel",
    "skipped": "skip",
}
STAGE = "external"
STAGE_IDX = 1_000_000  # the service's position of the external stage: after every other
OPEN = frozenset({"pending", "running"})
FAILURE_REASON = "api_failure"


@attrs.frozen
class Report:
    """One status report, as the API receives it (already validated)."""

    state: str
    name: str
    ref: str | None = None
    target_url: str | None = None
    description: str | None = None
    coverage: float | None = None
    pipeline_id: int | None = None


def install(store: Store) -> None:
    job_table = store.table("ci_jobs")
    job_table.add_sorted("by_project_sha", lambda j: (j.project_id, j.sha))
    job_table.add_sorted(
        "by_project_sha_pipeline", lambda j: (j.project_id, j.sha), lambda j: (j.pipeline_id,)
    )
    store.table("ci_pipelines").add_sorted("by_project_sha", lambda p: (p.project_id, p.sha))


def _pipelines_of(store: Store, project_id: int, sha: str) -> Iterator[Pipeline]:
    table = pipelines(store)
    part = table.sorted["by_project_sha"].part((project_id, sha))
    return (table.rows[entry[-1]] for entry in reversed(part))


def default_ref(repo: Repository, sha: str) -> str | None:
    """The first branch (by name) whose history holds ``sha``, as the service picks it."""
    for branch in sorted(repo.branches(), key=lambda b: b.name):
        if branch.commit_id == sha or repo.is_ancestor(sha, branch.commit_id):
            return branch.name
    return None


def matching_pipeline(
    store: Store, project_id: int, sha: str, ref: str | None, pipeline_id: int | None
) -> Pipeline | None:
    """The newest pipeline of the commit (of ``ref`` and with ``pipeline_id`` when given)."""
    for pipeline in _pipelines_of(store, project_id, sha):
        if ref is not None and pipeline.ref != ref:
            continue
        if pipeline_id is not None and pipeline.id != pipeline_id:
            continue
        return pipeline
    return None


def open_status(store: Store, pipeline: Pipeline, name: str, ref: str, user_id: int) -> Job | None:
    """The external status of that name, ref and user still pending or running."""
    for job in latest_jobs(store, pipeline.id):
        if (
            job.kind == EXTERNAL
            and job.status in OPEN
            and job.name == name
            and job.ref == ref
            and job.user_id == user_id
        ):
            return job
    return None


def transition_error(state: str, event: str) -> BadRequest:
    reason = f'Status cannot transition via "{event}"'
    return BadRequest(
        f"Cannot transition status via :{event} from :{state} (Reason(s): {reason})", raw=True
    )


def _check_transition(job: Job | None, report: Report) -> None:
    """Refuse, before anything changes, an event the status's state does not allow."""
    current = "created" if job is None else job.status
    event = EVENTS[report.state]
    if report.state == "running" and JOB_MACHINE.target(current, "enqueue") is not None:
        current = "pending"
    if JOB_MACHINE.target(current, event) is None:
        raise transition_error(current, event)


def post(
    store: Store,
    project: Project,
    repo: Repository,
    sha: str,
    report: Report,
    user_id: int,
    now: dt.datetime,
) -> Job:
    """Record ``report`` on commit ``sha``: validate, then make or update the status."""
    info = repo.find_commit(sha)
    if info is None:
        raise NotFound("Commit")
    sha = info.id
    ref = report.ref or (
        pipeline.ref
        if (pipeline := matching_pipeline(store, project.id, sha, None, report.pipeline_id))
        else default_ref(repo, sha)
    )
    if ref is None:
        raise NotFound("References for commit")
    pipeline = matching_pipeline(store, project.id, sha, ref, report.pipeline_id)
    job = open_status(store, pipeline, report.name, ref, user_id) if pipeline else None
    _check_transition(job, report)
    if pipeline is None:
        tag = repo.branch(ref) is None and repo.tag(ref) is not None
        pipeline = new_pipeline(
            store,
            project,
            RefInfo(ref, tag, sha, commit_entity(info, with_trailers=False)),
            source="external",
            user_id=user_id,
            now=now,
        )
        pipelines(store).insert(pipeline)
    table = jobs(store)
    if job is None:
        job = _new_status(store, pipeline, report, ref, user_id, now)
    table.update(
        job,
        target_url=report.target_url if report.target_url is not None else job.target_url,
        description=report.description if report.description is not None else job.description,
        coverage=report.coverage if report.coverage is not None else job.coverage,
    )
    if report.state == "running" and JOB_MACHINE.can(job, "enqueue"):
        fire_job(store, job, "enqueue", now, refresh=False)
    fire_job(store, job, EVENTS[report.state], now, failure_reason=FAILURE_REASON)
    return job


def _new_status(
    store: Store, pipeline: Pipeline, report: Report, ref: str, user_id: int, now: dt.datetime
) -> Job:
    table = jobs(store)
    for older in latest_jobs(store, pipeline.id):
        if older.name == report.name:
            table.update(older, retried=True)
    job = Job(
        id=store.next_id("ci_jobs"),
        project_id=pipeline.project_id,
        pipeline_id=pipeline.id,
        name=report.name,
        stage=STAGE,
        stage_idx=STAGE_IDX,
        ref=ref,
        sha=pipeline.sha,
        tag=pipeline.tag,
        created_at=now,
        kind=EXTERNAL,
        user_id=user_id,
    )
    if STAGE not in pipeline.stages:
        pipelines(store).update(pipeline, stages=(*pipeline.stages, STAGE))
    return table.insert(job)
