"""Merge request pipelines: the pipelines of the source branch at the merge request's
commits, a ``merge_request_event`` pipeline created from the CI file at the source head,
the head pipeline, and merge when pipeline succeeds wired to the pipeline's status.
"""

from __future__ import annotations

import datetime as dt

from fakeservice.ci.models import Pipeline, pipelines
from fakeservice.ci.pipelines import creation
from fakeservice.core.store import Store
from fakeservice.merge_requests import gitops, operations
from fakeservice.merge_requests.models import MergeRequest, change, waiting_for_pipelines
from fakeservice.projects.models import Project
from fakeservice.users.models import users

SUCCESS = "success"
STOPPED = ("failed", "canceled", "skipped")


def of_merge_request(store: Store, record: MergeRequest) -> list[Pipeline]:
    """Root pipelines of the source branch at one of the merge request's commits, newest first."""
    repo = operations.repo_of(store, record)
    shas = set(gitops.commits_between(repo, record.start_sha, record.sha))
    if record.sha:
        shas.add(record.sha)
    table = pipelines(store)
    found = table.select(
        "roots_by_project_ref", [(record.source_project_id, record.source_branch)], reverse=True
    )
    return [p for p in found if p.sha in shas]


def head_pipeline(store: Store, record: MergeRequest) -> Pipeline | None:
    """The newest pipeline at the source head."""
    for pipeline in of_merge_request(store, record):
        if pipeline.sha == record.sha:
            return pipeline
    return None


def create(
    store: Store, source: Project, record: MergeRequest, user_id: int, now: dt.datetime
) -> Pipeline:
    """A ``merge_request_event`` pipeline at the head of the merge request's source
    branch in ``source``, its source project (400 without a CI file)."""
    pipeline = creation.create_for_ref(
        store, source, record.source_branch, source="merge_request_event", user_id=user_id, now=now
    )
    change(store, record, None, head_pipeline_id=pipeline.id)
    return pipeline


def settle_waiting(store: Store, now: dt.datetime) -> None:
    """Merge the merge requests waiting on a head pipeline that succeeded; stop waiting
    on one that failed or was canceled."""
    for record in waiting_for_pipelines(store):
        pipeline = head_pipeline(store, record)
        if pipeline is None:
            continue
        if pipeline.status in STOPPED:
            change(store, record, now, merge_when_pipeline_succeeds=False)
            continue
        if pipeline.status != SUCCESS or record.state != "opened":
            continue
        user = users(store).get(record.merge_user_id)
        if user is None:
            continue
        try:
            operations.check_now(store, record, now)
            if record.merge_status != "can_be_merged":
                raise ValueError
            operations.run_guards(store, operations.project_of(store, record), record, user)
            operations.perform_merge(store, record, user, now, record.merge_params)
        except Exception:
            change(
                store, record, now, merge_when_pipeline_succeeds=False, merge_error="Merge failed"
            )


def settle(store: Store, now: dt.datetime) -> None:
    """Everything waiting on the clock or on pipelines, up to ``now``."""
    operations.settle_due(store, now)
    settle_waiting(store, now)
