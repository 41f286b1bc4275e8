"""JSON shapes of CI records: job, bridge, pipeline (detail and list item), variables,
and the job-token views (seed 000 §2.4-§2.7, §4.1).

A :class:`Renderer` is made per request (base URL, clock reading) and caches projects
and users, so a page of 100 jobs costs 100 small dictionaries.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from fakeservice.ci.artifacts import job_artifacts as artifacts
from fakeservice.ci.detailed_status import job_status, pipeline_status
from fakeservice.ci.machines import job_duration, job_queued_duration
from fakeservice.ci.models import Job, Pipeline, coverage_of, latest_jobs, pipelines
from fakeservice.ci.runner.assignment import runner_view
from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.projects.models import Project, projects
from fakeservice.projects.views import project_identity
from fakeservice.users.models import users
from fakeservice.users.views import user_ref, user_ref_with_profile


def _number(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


class Renderer:
    """Renders CI records for one request."""

    def __init__(self, store: Store, base_url: str, now: dt.datetime) -> None:
        self.store = store
        self.base_url = base_url
        self.now = now
        self._projects: dict[int, Project] = {}
        self._users: dict[int, dict[str, Any] | None] = {}

    # -- shared pieces -------------------------------------------------------------------
    def project(self, project_id: int) -> Project:
        found = self._projects.get(project_id)
        if found is None:
            found = self._projects[project_id] = projects(self.store).rows[project_id]
        return found

    def _user(self, user_id: int | None) -> dict[str, Any] | None:
        if user_id is None:
            return None
        if user_id not in self._users:
            user = users(self.store).get(user_id)
            self._users[user_id] = user_ref_with_profile(user, self.base_url) if user else None
        return self._users[user_id]

    def _user_ref(self, user_id: int | None) -> dict[str, Any] | None:
        user = users(self.store).get(user_id) if user_id is not None else None
        return user_ref(user, self.base_url) if user is not None else None

    def project_url(self, project_id: int) -> str:
        return f"{self.base_url}/{self.project(project_id).path_with_namespace}"

    def pipeline_url(self, pipeline: Pipeline) -> str:
        return f"{self.project_url(pipeline.project_id)}/-/pipelines/{pipeline.id}"

    def job_url(self, job: Job) -> str:
        return f"{self.project_url(job.project_id)}/-/jobs/{job.id}"

    def commit(self, pipeline: Pipeline | None, job: Job) -> dict[str, Any] | None:
        if pipeline is None or not pipeline.commit:
            return None
        out = dict(pipeline.commit)
        out["web_url"] = f"{self.project_url(job.project_id)}/-/commit/{out['id']}"
        return out

    def _pipeline_times(self, pipeline: Pipeline) -> dict[str, Any]:
        """``created_at``, ``updated_at`` and ``web_url``: the tail of every pipeline shape."""
        return {
            "created_at": iso(pipeline.created_at),
            "updated_at": iso(pipeline.updated_at),
            "web_url": self.pipeline_url(pipeline),
        }

    # -- jobs ----------------------------------------------------------------------------
    def _common(
        self, job: Job, pipeline_view: Callable[[Pipeline], dict[str, Any]]
    ) -> dict[str, Any]:
        """The fields jobs and bridges share, up to ``project`` (``pipeline`` rendered by
        ``pipeline_view``)."""
        pipeline = pipelines(self.store).get(job.pipeline_id)
        out: dict[str, Any] = {
            "id": job.id,
            "status": job.status,
            "stage": job.stage,
            "name": job.name,
            "ref": job.ref,
            "tag": job.tag,
            "coverage": job.coverage,
            "allow_failure": job.allow_failure,
            "created_at": iso(job.created_at),
            "started_at": iso(job.started_at),
            "finished_at": iso(job.finished_at),
            "erased_at": iso(job.erased_at),
            "duration": job_duration(job, self.now),
            "queued_duration": job_queued_duration(job, self.now),
            "user": self._user(job.user_id),
            "commit": self.commit(pipeline, job),
            "pipeline": pipeline_view(pipeline) if pipeline is not None else None,
        }
        if job.status == "failed":
            out["failure_reason"] = job.failure_reason
        out["web_url"] = self.job_url(job)
        out["detailed_status"] = job_status(
            job.status,
            self.job_url(job).removeprefix(self.base_url),
            allow_failure=job.allow_failure,
            failure_reason=job.failure_reason,
            retryable=not job.retried,
        )
        out["project"] = {"ci_job_token_scope_enabled": False}
        return out

    def job(self, job: Job, *, download_url: bool = False) -> dict[str, Any]:
        """The Job object (§2.4)."""
        out = self._common(job, _pipeline_ref)
        archive = artifacts.archive_of(job, self.now)
        if archive is not None:
            out["artifacts_file"] = {"filename": artifacts.ARCHIVE_NAME, "size": len(archive)}
        out["artifacts"] = artifacts.entries(job, self.now)
        out["runner"] = (
            runner_view(self.store, job.runner_id, self.now) if job.runner_id is not None else None
        )
        out["runner_manager"] = None
        out["artifacts_expire_at"] = iso(job.artifacts_expire_at)
        out["archived"] = False
        out["tag_list"] = list(job.tag_list)
        if download_url:
            out["download_url"] = (
                f"{self.job_url(job)}/artifacts/download" if archive is not None else None
            )
        return out

    def bridge(self, job: Job) -> dict[str, Any]:
        """The Bridge job object (§2.5)."""
        out = self._common(job, lambda p: {**_pipeline_ref(p), **self._pipeline_times(p)})
        downstream = pipelines(self.store).get(job.downstream_pipeline_id)
        out["downstream_pipeline"] = (
            {
                "id": downstream.id,
                "sha": downstream.sha,
                "ref": downstream.ref,
                "status": downstream.status,
                **self._pipeline_times(downstream),
            }
            if downstream is not None
            else None
        )
        return out

    # -- pipelines -----------------------------------------------------------------------
    def pipeline_item(self, pipeline: Pipeline) -> dict[str, Any]:
        """A pipeline list item (§2.6)."""
        return {
            "id": pipeline.id,
            "iid": pipeline.iid,
            "project_id": pipeline.project_id,
            "sha": pipeline.sha,
            "ref": pipeline.ref,
            "status": pipeline.status,
            "source": pipeline.source,
            **self._pipeline_times(pipeline),
        }

    def pipeline(self, pipeline: Pipeline) -> dict[str, Any]:
        """The Pipeline object (§2.6)."""
        out = self.pipeline_item(pipeline)
        out.update(
            {
                "before_sha": pipeline.before_sha,
                "tag": pipeline.tag,
                "yaml_errors": pipeline.yaml_errors,
                "user": self._user_ref(pipeline.user_id),
                "started_at": iso(pipeline.started_at),
                "finished_at": iso(pipeline.finished_at),
                "committed_at": iso(pipeline.committed_at),
                "duration": _whole(pipeline.duration),
                "queued_duration": _number(pipeline.queued_duration),
                "coverage": self.coverage(pipeline),
                "detailed_status": pipeline_status(
                    pipeline.status,
                    self.pipeline_url(pipeline).removeprefix(self.base_url),
                    warnings=pipeline.status == "success" and self._has_warnings(pipeline),
                ),
            }
        )
        return out

    def _has_warnings(self, pipeline: Pipeline) -> bool:
        return any(
            job.allow_failure and job.status in ("failed", "canceled")
            for job in latest_jobs(self.store, pipeline.id)
        )

    def coverage(self, pipeline: Pipeline) -> str | None:
        value = coverage_of(self.store, pipeline.id)
        return None if value is None else f"{value:.2f}"

    # -- job token views -------------------------------------------------------------------
    def allowed_agents(self, job: Job) -> dict[str, Any]:
        project = self.project(job.project_id)
        pipeline = pipelines(self.store).rows[job.pipeline_id]
        return {
            "allowed_agents": [],
            "job": {
                "id": job.id,
                "name": job.name,
                "stage": job.stage,
                "project_id": job.project_id,
                "project_name": project.name,
            },
            "pipeline": {
                "id": pipeline.id,
                "project_id": pipeline.project_id,
                "sha": pipeline.sha,
                "ref": pipeline.ref,
                "status": pipeline.status,
                **self._pipeline_times(pipeline),
            },
            "project": project_identity(project),
            "user": self._user_ref(job.user_id),
        }


def _pipeline_ref(pipeline: Pipeline) -> dict[str, Any]:
    """The pipeline a job belongs to, as the job shows it."""
    return {
        "id": pipeline.id,
        "project_id": pipeline.project_id,
        "ref": pipeline.ref,
        "sha": pipeline.sha,
        "status": pipeline.status,
    }


def _whole(value: float | None) -> int | None:
    return None if value is None else round(value)


def variables(pipeline: Pipeline) -> list[dict[str, str]]:
    """Pipeline variables (§2.7)."""
    return [
        {"key": v["key"], "variable_type": v["variable_type"], "value": v["value"]}
        for v in pipeline.variables
    ]
