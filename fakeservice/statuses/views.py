"""The commit status entity: any job of a commit's pipelines (builds, bridges and external
statuses), as ``GET .../commits/:sha/statuses`` and ``POST .../statuses/:sha`` answer."""

from __future__ import annotations

from typing import Any

from fakeservice.ci.models import Job
from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.users.models import users
from fakeservice.users.views import user_ref


def status_view(store: Store, job: Job, base_url: str) -> dict[str, Any]:
    user = users(store).get(job.user_id) if job.user_id is not None else None
    return {
        "id": job.id,
        "sha": job.sha,
        "ref": job.ref,
        "status": job.status,
        "name": job.name,
        "target_url": job.target_url,
        "description": job.description,
        "created_at": iso(job.created_at),
        "started_at": iso(job.started_at),
        "finished_at": iso(job.finished_at),
        "allow_failure": job.allow_failure,
        "coverage": job.coverage,
        "pipeline_id": job.pipeline_id,
        "author": user_ref(user, base_url),
    }
