"""CI records: pipelines, jobs (builds and bridges), their variables and artifacts.

Statuses change only through the machines in :mod:`fakeservice.ci.machines`; a pipeline's
status is derived from its latest jobs. Lists are served from sorted indexes:
jobs by project (and by project and status, for ``scope``), by pipeline; pipelines by
project (per ``order_by``) and by parent pipeline.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import attrs

from fakeservice.core.store import Store, Table


@attrs.define(slots=True)
class Outcome:
    """What the simulated runner does with a job when it runs it."""

    status: str = "success"  # success, failed, canceled
    failure_reason: str | None = None
    duration: float = 60.0
    log: list[str] = attrs.field(factory=list)
    artifacts: dict[str, bytes] = attrs.field(factory=dict)
    coverage: float | None = None
    exit_code: int | None = None


@attrs.define(slots=True)
class Artifact:
    """One stored artifact file of a job (archive, metadata, trace, junit...)."""

    file_type: str
    filename: str
    file_format: str
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)


@attrs.define(slots=True)
class Job:
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
    kind: str = "build"  # "build" or "bridge"
    status: str = "created"
    when: str = "on_success"
    allow_failure: bool = False
    needs: list[str] | None = None
    failure_reason: str | None = None
    coverage: float | None = None
    queued_at: dt.datetime | None = None
    started_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None
    erased_at: dt.datetime | None = None
    retried: bool = False
    user_id: int | None = None
    tag_list: list[str] = attrs.field(factory=list)
    token: str = ""
    script: list[str] = attrs.field(factory=list)
    variables: dict[str, str] = attrs.field(factory=dict)
    environment: str | None = None
    trace: list[str] = attrs.field(factory=list)
    artifacts: list[Artifact] = attrs.field(factory=list)
    artifact_files: dict[str, bytes] = attrs.field(factory=dict)
    artifact_paths: list[str] = attrs.field(factory=list)
    junit_paths: list[str] = attrs.field(factory=list)
    artifacts_expire_in: float | None = None
    artifacts_expire_at: dt.datetime | None = None
    artifacts_locked: bool = False
    outcome: Outcome | None = None
    trigger: dict[str, Any] | None = None
    downstream_pipeline_id: int | None = None
    retry_of: int | None = None
    run_ends_at: dt.datetime | None = None

    @property
    def is_bridge(self) -> bool:
        return self.kind == "bridge"


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
    duration: int | None = None
    queued_duration: int | None = None
    coverage: str | None = None
    variables: list[dict[str, str]] = attrs.field(factory=list)
    parent_id: int | None = None
    trigger_job_id: int | None = None
    stages: list[str] = attrs.field(factory=list)
    name: str | None = None


def jobs(store: Store) -> Table[Job]:
    return store.tables["ci_jobs"]


def pipelines(store: Store) -> Table[Pipeline]:
    return store.tables["ci_pipelines"]


PIPELINE_ORDERS = {
    "id": lambda p: (),
    "status": lambda p: (p.status,),
    "ref": lambda p: (p.ref,),
    "updated_at": lambda p: (p.updated_at,),
    "user_id": lambda p: (p.user_id or 0,),
}


def install(store: Store) -> None:
    job_table = store.table("ci_jobs")
    job_table.add_unique("token", lambda j: j.token or None)
    job_table.add_sorted("builds_by_project", lambda j: j.project_id if not j.is_bridge else None)
    job_table.add_sorted(
        "builds_by_project_status",
        lambda j: (j.project_id, j.status) if not j.is_bridge else None,
    )
    job_table.add_sorted("by_pipeline", lambda j: j.pipeline_id)
    job_table.add_sorted(
        "latest_by_pipeline_name",
        lambda j: (j.pipeline_id, j.name) if not j.retried else None,
    )
    pipeline_table = store.table("ci_pipelines")
    for order, key in PIPELINE_ORDERS.items():
        pipeline_table.add_sorted(
            f"roots_by_{order}",
            lambda p: p.project_id if p.parent_id is None else None,
            key,
        )
    pipeline_table.add_sorted("children", lambda p: p.parent_id)
    pipeline_table.add_sorted("by_project_ref", lambda p: (p.project_id, p.ref))


def pipeline_jobs(store: Store, pipeline_id: int) -> list[Job]:
    table = jobs(store)
    return [table.rows[e[-1]] for e in table.sorted["by_pipeline"].part(pipeline_id)]


def latest_jobs(store: Store, pipeline_id: int) -> list[Job]:
    return [j for j in pipeline_jobs(store, pipeline_id) if not j.retried]


def child_pipelines(store: Store, pipeline_id: int) -> list[Pipeline]:
    table = pipelines(store)
    return [table.rows[e[-1]] for e in table.sorted["children"].part(pipeline_id)]
