"""Pipeline Hook deliveries: a pipeline whose jobs were created or moved is noted, and
when the outbox settles (after the write) each noted pipeline whose status differs from
the one last announced gets one delivery (``hook_pipeline_marks`` keeps that status)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import attrs

from fakeservice.ci.models import pipelines
from fakeservice.core.store import Store, Table
from fakeservice.hooks.emit import emit
from fakeservice.hooks.outbox import outbox_of
from fakeservice.hooks.payloads.ci import pipeline_payload
from fakeservice.hooks.payloads.common import project_of

if TYPE_CHECKING:
    from fakeservice.hooks.outbox import Outbox


@attrs.define(slots=True)
class PipelineMark:
    id: int  # the pipeline's id
    status: str


def marks(store: Store) -> Table[PipelineMark]:
    return store.tables["hook_pipeline_marks"]


def install(store: Store) -> None:
    store.table("hook_pipeline_marks")


def touch(store: Store, pipeline_id: int) -> None:
    box = outbox_of(store)
    if box is not None:
        box.touched_pipelines.add(pipeline_id)


def announce_pipeline(store: Store, pipeline: Any, now: dt.datetime) -> None:
    """Queue a Pipeline Hook when ``pipeline``'s status is not the one last announced."""
    project = project_of(store, pipeline.project_id)
    mark = marks(store).get(pipeline.id)
    if project is None or pipeline.status == "created":
        return  # a pipeline is announced from the moment it is pending
    if mark is not None and mark.status == pipeline.status:
        return
    if mark is None:
        marks(store).insert(PipelineMark(pipeline.id, pipeline.status))
    else:
        marks(store).update(mark, status=pipeline.status)
    emit(
        store,
        project,
        "pipeline_hooks",
        lambda url: pipeline_payload(store, project, pipeline, url, now),
        now,
    )


def settle_pipelines(box: Outbox) -> None:
    """Announce each noted pipeline whose status changed since it was last announced."""
    store = box.store
    touched = sorted(box.touched_pipelines)
    box.touched_pipelines.clear()
    now = box.service.clock.now()
    for pipeline_id in touched:
        pipeline = pipelines(store).get(pipeline_id)
        if pipeline is not None:
            announce_pipeline(store, pipeline, now)
