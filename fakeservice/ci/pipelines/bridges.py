"""Bridges: a bridge that becomes pending runs at once and triggers its downstream pipeline.

* ``trigger: include`` makes a child pipeline (``source`` ``parent_pipeline``) from the
  included configuration, at the parent's ref and commit;
* ``trigger: project`` makes a pipeline in that project (``source`` ``pipeline``) for
  ``branch`` or its default branch, when the bridge's user may create pipelines there.

Child pipelines nest at most two levels deep (a deeper one fails the bridge with
``reached_max_descendant_pipelines_depth``), and chains of downstream pipelines stop at
ten levels.

Without ``strategy: depend`` the bridge succeeds once the downstream pipeline exists;
with it, the bridge stays running and takes the downstream pipeline's outcome (success ->
success, canceled -> canceled, failed or skipped -> failed). A downstream pipeline that
cannot be created fails the bridge with ``downstream_pipeline_creation_failed``.
"""

from __future__ import annotations

import datetime as dt

from fakeservice.ci.config import parse_child
from fakeservice.ci.flow import fire_job
from fakeservice.ci.models import Job, Pipeline, jobs, pipelines
from fakeservice.ci.pipelines.creation import create_for_ref, create_planned, local_reader
from fakeservice.ci.repo import RefInfo
from fakeservice.core.errors import ApiError
from fakeservice.core.store import Store
from fakeservice.members.access import project_access
from fakeservice.members.models import DEVELOPER
from fakeservice.projects.models import find_project, projects
from fakeservice.users.models import users

CREATION_FAILED = "downstream_pipeline_creation_failed"
TOO_DEEP = "reached_max_descendant_pipelines_depth"
MAX_CHILD_DEPTH = 2  # parent -> child -> grandchild, as the service allows
MAX_UPSTREAM_DEPTH = 10  # multi-project chains (and loops) stop here


def _depth(store: Store, pipeline: Pipeline, *, children_only: bool) -> int:
    """How many upstream pipelines ``pipeline`` has (through child links only, or through
    every triggering bridge)."""
    depth = 0
    current: Pipeline | None = pipeline
    while current is not None and depth <= MAX_UPSTREAM_DEPTH:
        if children_only:
            upstream_id = current.parent_id
        else:
            bridge = jobs(store).get(current.trigger_job_id)
            upstream_id = bridge.pipeline_id if bridge is not None else None
        if upstream_id is None:
            return depth
        depth += 1
        current = pipelines(store).get(upstream_id)
    return depth


def _depends(bridge: Job) -> bool:
    return bridge.trigger is not None and bridge.trigger.strategy == "depend"


def _child(store: Store, bridge: Job, parent: Pipeline, now: dt.datetime) -> Pipeline:
    project = projects(store).rows[parent.project_id]
    assert bridge.trigger is not None
    config = parse_child(
        bridge.trigger,
        read_local=local_reader(store, project, parent.sha),
        project_path=project.path_with_namespace,
        sha=parent.sha,
    )
    info = RefInfo(parent.ref, parent.tag, parent.sha, parent.commit)
    return create_planned(
        store,
        project,
        info,
        config,
        source="parent_pipeline",
        user_id=bridge.user_id,
        variables=(),
        now=now,
        parent=parent,
        trigger_job=bridge,
    )


def _multi_project(store: Store, bridge: Job, now: dt.datetime) -> Pipeline:
    assert bridge.trigger is not None and bridge.trigger.project is not None
    target = find_project(store, bridge.trigger.project)
    user = users(store).get(bridge.user_id)
    if target is None or user is None:
        raise LookupError("downstream project not found")
    if not user.admin and project_access(store, user, target, now) < DEVELOPER:
        raise LookupError("no permission to create downstream pipelines")
    ref = bridge.trigger.branch or target.default_branch or "main"
    return create_for_ref(
        store, target, ref, source="pipeline", user_id=user.id, now=now, trigger_job=bridge
    )


def start_bridge(store: Store, bridge: Job, now: dt.datetime) -> None:
    """Run a pending bridge: create its downstream pipeline and settle what follows."""
    fire_job(store, bridge, "run", now, refresh=False)
    parent = pipelines(store).rows[bridge.pipeline_id]
    trigger = bridge.trigger
    child = trigger is not None and trigger.child
    if (child and _depth(store, parent, children_only=True) >= MAX_CHILD_DEPTH) or _depth(
        store, parent, children_only=False
    ) >= MAX_UPSTREAM_DEPTH:
        fire_job(store, bridge, "drop", now, refresh=False, failure_reason=TOO_DEEP)
        return
    try:
        if trigger is not None and trigger.child:
            downstream = _child(store, bridge, parent, now)
        elif trigger is not None and trigger.project:
            downstream = _multi_project(store, bridge, now)
        else:
            raise LookupError("nothing to trigger")
    except (ApiError, LookupError):
        fire_job(store, bridge, "drop", now, refresh=False, failure_reason=CREATION_FAILED)
        return
    jobs(store).update(bridge, downstream_pipeline_id=downstream.id)
    if not _depends(bridge):
        fire_job(store, bridge, "success", now, refresh=False)
    else:
        settle_bridge(store, downstream, now, refresh=False)


def settle_bridge(
    store: Store, downstream: Pipeline, now: dt.datetime, *, refresh: bool = True
) -> None:
    """Give a depending bridge the outcome of its finished downstream pipeline."""
    bridge = jobs(store).get(downstream.trigger_job_id)
    if bridge is None or bridge.status != "running" or not _depends(bridge):
        return
    if bridge.downstream_pipeline_id not in (None, downstream.id):
        return
    status = downstream.status
    if status == "success":
        fire_job(store, bridge, "success", now, refresh=refresh)
    elif status == "canceled":
        fire_job(store, bridge, "cancel", now, refresh=refresh)
    elif status in ("failed", "skipped"):
        fire_job(store, bridge, "drop", now, refresh=refresh)
