"""What forks add to the full project entry: ``forked_from_project`` (the upstream's
basic details, when the upstream still exists) and ``mr_default_target_self``."""

from __future__ import annotations

from typing import Any

from fakeservice.core.store import Store
from fakeservice.forks.models import MR_DEFAULT_TARGET_SELF, upstream_of
from fakeservice.projects.models import Project
from fakeservice.projects.views import project_simple


def fork_fields(store: Store, project: Project, out: dict[str, Any], base_url: str) -> None:
    """The ``PROJECT_FULL_VIEW`` extension."""
    if project.forked_from_id is None:
        return
    upstream = upstream_of(store, project)
    if upstream is not None:
        out["forked_from_project"] = project_simple(store, upstream, base_url)
    out[MR_DEFAULT_TARGET_SELF] = bool(project.settings.get(MR_DEFAULT_TARGET_SELF, False))
