"""Pipelines on push (opt-in): a push of a branch or tag creates a ``push`` pipeline.

The service creates a pipeline whenever a branch or tag is pushed (git push over HTTP,
commits through the files or commits API) and the project has a CI file at the new head.
Here this only happens for projects where the runner's ``pipelines_on_push`` is on (for
the project, else for the service; off by default, so ids and states of existing tests
do not change). :func:`on_refs_moved` is registered with the repository area's
:data:`~fakeservice.repository.models.REFS_MOVED` event:

* each created or moved branch or tag gets one pipeline, in the order the refs moved,
  with ``source: push``, the pusher as ``user``, the new head as ``sha`` and the ref's
  previous head as ``before_sha`` (all zeros for a new ref); deleted refs get none;
* no CI file at the new head: no pipeline; a CI file the engine refuses: a ``failed``
  pipeline with ``yaml_errors``, as ``POST /projects/:id/pipeline`` stores; rules that
  leave no job: no pipeline; the pusher never sees an error;
* a head commit whose message holds ``[ci skip]`` or ``[skip ci]`` (any case) gets a
  ``skipped`` pipeline without jobs, as the service records it;
* writes made while a scenario loads are the scenario's content, not pushes.

Pipelines then run by the runner's mode, like any other (``instant`` finishes them at once).
"""

from __future__ import annotations

import re

from fakeservice.ci.pipelines.creation import create_planned, create_skipped, parse_at
from fakeservice.ci.repo import RefInfo, ci_config_path, read_text, ref_at
from fakeservice.ci.runner.outcomes import pipelines_on_push
from fakeservice.ci.runner.simulation import settle
from fakeservice.core.errors import ApiError
from fakeservice.repository.git import RefUpdate
from fakeservice.repository.models import RefChange
from fakeservice.scenarios.loader import loading

SOURCE = "push"
_SKIP_CI = re.compile(r"\[(ci[ _-]skip|skip[ _-]ci)\]", re.IGNORECASE)


def _pushed_ref(change: RefChange, update: RefUpdate) -> RefInfo | None:
    if update.deleted:
        return None
    if update.branch is not None:
        return ref_at(change.store, change.project, update.branch, tag=False)
    if update.tag is not None:
        return ref_at(change.store, change.project, update.tag, tag=True)
    return None


def _create(change: RefChange, info: RefInfo, before_sha: str) -> None:
    store, project, now = change.store, change.project, change.now
    user_id = change.user.id if change.user is not None else None
    content = read_text(store, project, info.sha, ci_config_path(project))
    if content is None:
        return
    if _SKIP_CI.search(str(info.commit.get("message") or "")):
        create_skipped(
            store, project, info, source=SOURCE, user_id=user_id, now=now, before_sha=before_sha
        )
        return
    config = parse_at(store, project, info.sha, content)
    try:
        create_planned(
            store,
            project,
            info,
            config,
            source=SOURCE,
            user_id=user_id,
            variables=(),
            now=now,
            before_sha=before_sha,
        )
    except ApiError:
        # the failed pipeline (yaml_errors) is stored; a plan without jobs stores nothing
        return


def on_refs_moved(change: RefChange) -> None:
    """The :data:`~fakeservice.repository.models.REFS_MOVED` listener."""
    if loading() or not pipelines_on_push(change.store, change.project.id):
        return
    created = False
    for update in change.updates:
        info = _pushed_ref(change, update)
        if info is not None:
            _create(change, info, update.old)
            created = True
    if created:
        settle(change.store, change.now)
