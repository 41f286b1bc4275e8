"""Pipeline and job payloads (``object_kind`` ``pipeline`` and ``build``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.ci.machines import job_duration, job_queued_duration
from fakeservice.ci.models import Job, Pipeline, latest_jobs
from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.hooks.payloads.common import (
    commit_payload,
    project_payload,
    repository_payload,
    user_of,
    user_payload,
)
from fakeservice.projects.models import Project
from fakeservice.repository.models import find_repository


def _commit(store: Store, project: Project, sha: str, base_url: str) -> dict[str, Any] | None:
    repo = find_repository(store, project)
    info = repo.find_commit(sha) if repo is not None else None
    web_url = f"{base_url}/{project.path_with_namespace}"
    return commit_payload(info, web_url) if info is not None else None


def _build(store: Store, job: Job, base_url: str, now: dt.datetime) -> dict[str, Any]:
    return {
        "id": job.id,
        "stage": job.stage,
        "name": job.name,
        "status": job.status,
        "created_at": iso(job.created_at),
        "started_at": iso(job.started_at),
        "finished_at": iso(job.finished_at),
        "duration": job_duration(job, now),
        "queued_duration": job_queued_duration(job, now),
        "failure_reason": job.failure_reason,
        "when": job.when,
        "manual": job.when == "manual",
        "allow_failure": job.allow_failure,
        "user": user_payload(user_of(store, job.user_id), base_url),
        "runner": None,
        "artifacts_file": {"filename": None, "size": None},
        "environment": None,
    }


def pipeline_payload(
    store: Store, project: Project, pipeline: Pipeline, base_url: str, now: dt.datetime
) -> dict[str, Any]:
    return {
        "object_kind": "pipeline",
        "object_attributes": {
            "id": pipeline.id,
            "iid": pipeline.iid,
            "name": None,
            "ref": pipeline.ref,
            "tag": pipeline.tag,
            "sha": pipeline.sha,
            "before_sha": pipeline.before_sha,
            "source": pipeline.source,
            "status": pipeline.status,
            "detailed_status": pipeline.status,
            "stages": list(pipeline.stages),
            "created_at": iso(pipeline.created_at),
            "finished_at": iso(pipeline.finished_at),
            "duration": pipeline.duration,
            "queued_duration": pipeline.queued_duration,
            "variables": [dict(v) for v in pipeline.variables],
            "url": f"{base_url}/{project.path_with_namespace}/-/pipelines/{pipeline.id}",
        },
        "merge_request": None,
        "user": user_payload(user_of(store, pipeline.user_id), base_url),
        "project": project_payload(store, project, base_url),
        "commit": _commit(store, project, pipeline.sha, base_url),
        "source_pipeline": None,
        "builds": [_build(store, job, base_url, now) for job in latest_jobs(store, pipeline.id)],
    }


def job_payload(
    store: Store,
    project: Project,
    job: Job,
    pipeline: Pipeline | None,
    base_url: str,
    now: dt.datetime,
) -> dict[str, Any]:
    commit = _commit(store, project, job.sha, base_url) or {}
    return {
        "object_kind": "build",
        "ref": job.ref,
        "tag": job.tag,
        "before_sha": pipeline.before_sha if pipeline is not None else None,
        "sha": job.sha,
        "retries_count": job.attempt - 1,
        "build_id": job.id,
        "build_name": job.name,
        "build_stage": job.stage,
        "build_status": job.status,
        "build_created_at": iso(job.created_at),
        "build_started_at": iso(job.started_at),
        "build_finished_at": iso(job.finished_at),
        "build_duration": job_duration(job, now),
        "build_queued_duration": job_queued_duration(job, now),
        "build_allow_failure": job.allow_failure,
        "build_failure_reason": job.failure_reason or "unknown_failure",
        "pipeline_id": job.pipeline_id,
        "runner": None,
        "project_id": project.id,
        "project_name": project.name_with_namespace,
        "user": user_payload(user_of(store, job.user_id), base_url),
        "commit": {
            "id": pipeline.id if pipeline is not None else None,
            "name": None,
            "sha": job.sha,
            "message": commit.get("message"),
            "author_name": (commit.get("author") or {}).get("name"),
            "author_email": (commit.get("author") or {}).get("email"),
            "author_url": None,
            "status": pipeline.status if pipeline is not None else None,
            "duration": pipeline.duration if pipeline is not None else None,
            "started_at": iso(pipeline.started_at) if pipeline is not None else None,
            "finished_at": iso(pipeline.finished_at) if pipeline is not None else None,
        },
        "repository": repository_payload(store, project, base_url),
        "project": project_payload(store, project, base_url),
        "environment": None,
    }
