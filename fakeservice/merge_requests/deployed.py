"""The ``environment``, ``deployed_before`` and ``deployed_after`` filters of merge request
lists: a merged merge request is deployed by a successful deployment whose commit contains
its merge (or squash) commit.

The deployments come from their index per project (``project``, or per environment when
one is named); the commits each deployment contains are read from git once per request
and deployed commit, so a list costs what the filtered projects deployed, not the whole
state.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from fakeservice.core.store import Store
from fakeservice.environments import deployments as deploys
from fakeservice.merge_requests.models import MergeRequest
from fakeservice.projects.models import projects
from fakeservice.repository.models import read_repository


def _deployments(store: Store, project_id: int, environment: str | None) -> Any:
    if environment is None:
        return deploys.deployments_of(store, project_id)
    env = deploys.environments(store).by("project_name", (project_id, environment))
    if env is None:
        return []
    return deploys.deployments(store).select("environment", [env.id])


def predicate(
    store: Store,
    environment: str | None,
    before: dt.datetime | None,
    after: dt.datetime | None,
) -> Callable[[MergeRequest], bool]:
    """Merge requests deployed (to ``environment`` when given) within the bounds."""
    reached: dict[int, set[str]] = {}

    def deployed_commits(project_id: int) -> set[str]:
        if project_id in reached:
            return reached[project_id]
        shas = {
            d.sha
            for d in _deployments(store, project_id, environment)
            if d.status == "success"
            and (before is None or d.updated_at < before)
            and (after is None or d.updated_at > after)
        }
        found: set[str] = set()
        project = projects(store).get(project_id)
        if shas and project is not None:
            repo = read_repository(store, project)
            for sha in shas:
                if sha not in found and repo.resolve(sha) is not None:
                    found.update(c.id for c in repo.commits(sha))
        reached[project_id] = found
        return found

    def deployed(record: MergeRequest) -> bool:
        if record.state != "merged":
            return False
        merged = record.merge_commit_sha or record.squash_commit_sha or record.sha
        return merged is not None and merged in deployed_commits(record.project_id)

    return deployed
