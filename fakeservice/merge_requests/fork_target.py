"""Where a new merge request goes: ``target_project_id`` names another project of the
source's fork network (its upstream, an upstream of that, or a fork of the source); the
merge request then lives in that project with ``source_project_id`` the source.

As the service decides: a target the caller cannot read, or whose merge requests are
disabled, is ignored (the merge request stays in the source project); a target outside
the fork network is ``400 {"message": ["Source project is not a fork of the target
project"]}``.
"""

from __future__ import annotations

from fakeservice.core.errors import ApiError
from fakeservice.core.store import Store
from fakeservice.members.access import can_read_project
from fakeservice.projects.models import Project, projects
from fakeservice.web.context import Context

NOT_A_FORK = "Source project is not a fork of the target project"


def network_root(store: Store, project: Project) -> int:
    """The id of the project at the root of ``project``'s fork network."""
    table = projects(store)
    seen = {project.id}
    current = project
    while current.forked_from_id is not None:
        upstream = table.get(current.forked_from_id)
        if upstream is None or upstream.id in seen:
            break
        seen.add(upstream.id)
        current = upstream
    return current.id


def target_project(ctx: Context, source: Project) -> Project:
    """The project a merge request created from ``source`` goes into."""
    wanted = ctx.params.get("target_project_id")
    if wanted is None or wanted == source.id:
        return source
    target = projects(ctx.store).get(wanted)
    if (
        target is None
        or not can_read_project(ctx.store, ctx.user, target, ctx.now)
        or not target.feature_enabled("merge_requests")
    ):
        return source
    if network_root(ctx.store, source) != network_root(ctx.store, target):
        raise ApiError({"message": [NOT_A_FORK]}, status=400)
    return target
