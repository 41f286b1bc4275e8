"""CI records: pipelines, jobs (builds and bridges) and their stored artifacts, with indexes.

Statuses change only through the machines in :mod:`fakeservice.ci.machines`, by way of
:func:`fakeservice.ci.flow.fire_job`; a pipeline's status is derived from its latest jobs.
Lists are served from sorted indexes (all ordered by id within a partition):

* jobs: ``builds_by_project`` and ``builds_by_project_status`` (for ``scope``),
  ``by_pipeline_kind`` and ``by_pipeline_kind_status`` (pipeline jobs and bridges),
  ``by_pipeline`` (every job of a pipeline), ``latest_by_pipeline_name`` (artifacts by
  job name), ``runner_due`` (timed runner events, ordered by due time),
  ``active_builds`` (pending, delayed and running builds, for draining), ``archives``
  (jobs with an archive, kept or expiring by expiry time), ``token``;
* pipelines: ``roots_by_<order_by>`` (project lists, children left out), ``children``,
  ``roots_by_project_ref`` and ``by_project_ref_status`` (latest / latest successful).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from fakeservice.ci.config import ArtifactsSpec, EnvironmentSpec, RetrySpec, TriggerSpec
from fakeservice.core.store import SortKey, Store, Table

BUILD = "build"
BRIDGE = "bridge"
# a commit status posted through the API (``POST /projects/:id/statuses/:sha``): counts
# for its pipeline's status, is never run, and is left out of the build lists
EXTERNAL = "external"
ACTIVE_BUILD: frozenset[str] = frozenset({"pending", "scheduled", "running"})
NO_VARIABLES: tuple[dict[str, str], ...] = ()
JOB_SCOPES: tuple[str, ...] = (
    "created",
    "pending",
    "running",
    "failed",
    "success",
    "canceled",
    "skipped",
    "manual",
)


@attrs.define(slots=True)
class Job:
    """A build (run by a runner) or a bridge (``kind == "bridge"``, triggers a pipeline)."""

    id: int
    project_id: int
    pipeline_id: int
    name: str
    stage: str
    stage_idx: int
    ref: str
    sha: str
    tag: bool
    created_at: dt.datetime
    kind: str = BUILD
    status: str = "created"
    when: str = "on_success"
    allow_failure: bool = False
    needs: tuple[str, ...] | None = None
    failure_reason: str | None = None
    coverage: float | None = None
    queued_at: dt.datetime | None = None
    started_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None
    erased_at: dt.datetime | None = None
    retried: bool = False
    attempt: int = 1
    retry_of: int | None = None
    user_id: int | None = None
    tag_list: tuple[str, ...] = ()
    script: tuple[str, ...] = ()
    token: str = ""
    start_in: int | None = None
    timeout: int | None = None
    retry: RetrySpec | None = None
    coverage_regex: str | None = None
    artifacts_spec: ArtifactsSpec | None = None
    trigger: TriggerSpec | None = None
    downstream_pipeline_id: int | None = None
    runner_id: int | None = None
    due_at: dt.datetime | None = None
    trace: list[str] | None = None
    archive: bytes | None = None
    metadata: bytes | None = None
    junit_documents: tuple[bytes, ...] = ()
    junit_gz: bytes | None = None
    artifacts_expire_at: dt.datetime | None = None
    artifacts_locked: bool = False
    target_url: str | None = None
    description: str | None = None
    environment: EnvironmentSpec | None = None  # ``environment:`` of its definition
    resource_group: str | None = None  # ``resource_group:`` of its definition

    @property
    def is_bridge(self) -> bool:
        return self.kind == BRIDGE

    @property
    def is_build(self) -> bool:
        return self.kind == BUILD


@attrs.define(slots=True)
class Pipeline:
    id: int
    iid: int
    project_id: int
    ref: str
    sha: str
    before_sha: str
    tag: bool
    source: str
    created_at: dt.datetime
    updated_at: dt.datetime
    status: str = "created"
    user_id: int | None = None
    yaml_errors: str | None = None
    started_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None
    committed_at: dt.datetime | None = None
    duration: float | None = None
    queued_duration: float | None = None
    # the variables the pipeline was run with (never changed afterwards: pipelines
    # without any share one empty tuple)
    variables: Sequence[dict[str, str]] = attrs.field(factory=tuple)
    parent_id: int | None = None
    trigger_job_id: int | None = None
    stages: tuple[str, ...] = ()
    commit: dict[str, Any] = attrs.field(factory=dict)


def jobs(store: Store) -> Table[Job]:
    return store.tables["ci_jobs"]


def pipelines(store: Store) -> Table[Pipeline]:
    return store.tables["ci_pipelines"]


PIPELINE_ORDERS: dict[str, Callable[[Pipeline], SortKey]] = {
    "id": lambda p: (),
    "status": lambda p: (p.status,),
    "ref": lambda p: (p.ref,),
    "updated_at": lambda p: (p.updated_at,),
    "user_id": lambda p: (p.user_id or 0,),
}


def _root_project(p: Pipeline) -> int | None:
    return p.project_id if p.parent_id is None else None


def archive_partition(job: Job) -> str | None:
    """``"kept"`` for an archive that never expires, ``"expiring"`` for one that does,
    None for a job without an archive (the ``archives`` index, for Geo's counters)."""
    if job.archive is None:
        return None
    return "kept" if job.artifacts_locked or job.artifacts_expire_at is None else "expiring"


def install(store: Store) -> None:
    job_table = store.table("ci_jobs")
    job_table.add_unique("token", lambda j: j.token or None)
    job_table.add_sorted("builds_by_project", lambda j: j.project_id if j.is_build else None)
    job_table.add_sorted(
        "builds_by_project_status",
        lambda j: (j.project_id, j.status) if j.is_build else None,
    )
    job_table.add_sorted("by_pipeline", lambda j: j.pipeline_id)
    job_table.add_sorted("by_pipeline_kind", lambda j: (j.pipeline_id, j.kind))
    job_table.add_sorted("by_pipeline_kind_status", lambda j: (j.pipeline_id, j.kind, j.status))
    job_table.add_sorted(
        "latest_by_pipeline_name",
        lambda j: None if j.retried else (j.pipeline_id, j.name),
    )
    job_table.add_sorted(
        "runner_due", lambda j: None if j.due_at is None else "due", lambda j: (j.due_at,)
    )
    job_table.add_sorted("archives", archive_partition, lambda j: (j.artifacts_expire_at,))
    job_table.add_sorted(
        "active_builds",
        lambda j: j.status if j.is_build and j.status in ACTIVE_BUILD else None,
    )
    pipeline_table = store.table("ci_pipelines")
    for order, key in PIPELINE_ORDERS.items():
        pipeline_table.add_sorted(f"roots_by_{order}", _root_project, key)
    pipeline_table.add_sorted("children", lambda p: p.parent_id)
    pipeline_table.add_sorted(
        "roots_by_project_ref",
        lambda p: (p.project_id, p.ref) if p.parent_id is None else None,
    )
    pipeline_table.add_sorted("by_project_ref_status", lambda p: (p.project_id, p.ref, p.status))


# -- queries ----------------------------------------------------------------------------------


def _records(table: Table[Any], index: str, key: Any, *, reverse: bool = False) -> Iterator[Any]:
    part = table.sorted[index].part(key)
    entries = reversed(part) if reverse else iter(part)
    return (table.rows[entry[-1]] for entry in entries)


def pipeline_jobs(store: Store, pipeline_id: int) -> list[Job]:
    """Every job of a pipeline (builds and bridges, retried included), oldest first."""
    return list(_records(jobs(store), "by_pipeline", pipeline_id))


def latest_jobs(store: Store, pipeline_id: int) -> list[Job]:
    """The jobs of the latest attempt of a pipeline, oldest first."""
    return [job for job in _records(jobs(store), "by_pipeline", pipeline_id) if not job.retried]


def latest_named(store: Store, pipeline_id: int, name: str) -> Job | None:
    """The latest attempt of the job called ``name`` in a pipeline."""
    return next(
        _records(jobs(store), "latest_by_pipeline_name", (pipeline_id, name), reverse=True), None
    )


def child_pipelines(store: Store, pipeline_id: int) -> list[Pipeline]:
    """Child pipelines, oldest first."""
    return list(_records(pipelines(store), "children", pipeline_id))


def pipeline_tree(store: Store, pipeline: Pipeline) -> list[Pipeline]:
    """``pipeline`` and its descendants, parents before children."""
    out = [pipeline]
    position = 0
    while position < len(out):
        out.extend(child_pipelines(store, out[position].id))
        position += 1
    return out


def root_of(store: Store, pipeline: Pipeline) -> Pipeline:
    table = pipelines(store)
    current = pipeline
    for _ in range(64):
        parent = table.get(current.parent_id)
        if parent is None:
            return current
        current = parent
    return current


def latest_for_ref(store: Store, project_id: int, ref: str) -> Pipeline | None:
    """The newest root pipeline of a ref."""
    return next(
        _records(pipelines(store), "roots_by_project_ref", (project_id, ref), reverse=True), None
    )


def latest_with_status(store: Store, project_id: int, ref: str, status: str) -> Iterator[Pipeline]:
    """Pipelines (children included) of a ref with a status, newest first."""
    return _records(
        pipelines(store), "by_project_ref_status", (project_id, ref, status), reverse=True
    )


def active_builds(store: Store, status: str) -> list[Job]:
    """Builds of every project in ``status`` (pending, scheduled or running), oldest first."""
    return list(_records(jobs(store), "active_builds", status))


def find_build(store: Store, project_id: int, job_id: int) -> Job | None:
    job = jobs(store).get(job_id)
    if job is None or job.project_id != project_id or not job.is_build:
        return None
    return job


def find_pipeline(store: Store, project_id: int, pipeline_id: int) -> Pipeline | None:
    pipeline = pipelines(store).get(pipeline_id)
    if pipeline is None or pipeline.project_id != project_id:
        return None
    return pipeline


def coverage_of(store: Store, pipeline_id: int) -> float | None:
    """A pipeline's coverage: the mean of its latest jobs' (bridges aside), None without."""
    values = [
        job.coverage
        for job in latest_jobs(store, pipeline_id)
        if not job.is_bridge and job.coverage is not None
    ]
    return sum(values) / len(values) if values else None
