"""Who may see and manage a runner, and which runners a user owns.

Administrators see and manage every runner. Anyone signed in sees an instance runner;
a group runner is seen by the group's maintainers and managed by its owners; a project
runner is seen and managed by the maintainers of any project it is assigned to. A user
*owns* (``GET /runners``) the group runners of the groups they own (with their
subgroups) and the project runners of the projects they maintain.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import Forbidden, NotFound
from fakeservice.core.store import Selection
from fakeservice.groups.models import namespaces
from fakeservice.members.access import (
    authorized_groups,
    authorized_projects,
    group_role,
    project_role,
)
from fakeservice.members.models import MAINTAINER, OWNER
from fakeservice.projects.models import projects
from fakeservice.runners.models import GROUP, INSTANCE, Runner, runners
from fakeservice.web.context import Context

NO_ACCESS = "No access granted"


def find_runner_or_404(ctx: Context, runner_id: int) -> Runner:
    runner = runners(ctx.store).get(runner_id)
    if runner is None:
        raise NotFound("Runner")
    return runner


def _role(ctx: Context, runner: Runner) -> int:
    """The caller's best role over the runner's group or projects."""
    if runner.runner_type == GROUP:
        group = namespaces(ctx.store).get(runner.group_id)
        return group_role(ctx.store, ctx.user, group, ctx.now) if group is not None else 0
    best = 0
    for project_id in runner.project_ids:
        project = projects(ctx.store).get(project_id)
        if project is not None:
            best = max(best, project_role(ctx.store, ctx.user, project, ctx.now))
    return best


def can_read(ctx: Context, runner: Runner) -> bool:
    if ctx.is_admin or runner.runner_type == INSTANCE:
        return True
    return _role(ctx, runner) >= MAINTAINER


def can_manage(ctx: Context, runner: Runner) -> bool:
    if ctx.is_admin:
        return True
    if runner.runner_type == INSTANCE:
        return False
    return _role(ctx, runner) >= (OWNER if runner.runner_type == GROUP else MAINTAINER)


def readable_runner(ctx: Context, runner_id: int) -> Runner:
    """The runner if the caller may see it (404 unknown, 403 otherwise)."""
    runner = find_runner_or_404(ctx, runner_id)
    if not can_read(ctx, runner):
        raise Forbidden(NO_ACCESS)
    return runner


def managed_runner(ctx: Context, runner_id: int) -> Runner:
    """The runner if the caller may change it (404 unknown, 403 otherwise)."""
    runner = find_runner_or_404(ctx, runner_id)
    if not can_manage(ctx, runner):
        raise Forbidden(NO_ACCESS)
    return runner


def owned(ctx: Context) -> Selection[Runner]:
    """The caller's runners: of the groups they own and the projects they maintain."""
    table = runners(ctx.store)
    found: set[int] = set()
    for group_id, level in authorized_groups(ctx.store, ctx.user, ctx.now).items():
        if level >= OWNER:
            found.update(entry[-1] for entry in table.sorted["by_group"].part(group_id))
    for project_id, level in authorized_projects(ctx.store, ctx.user, ctx.now).items():
        if level >= MAINTAINER:
            found.update(entry[-1] for entry in table.sorted["by_project"].part(project_id))
    return table.ordered((table.rows[rid] for rid in found), lambda r: ())


def visible_project_ids(ctx: Context) -> Any:
    """For a non-administrator's job lists: the projects they maintain (None: all)."""
    if ctx.is_admin:
        return None
    levels = authorized_projects(ctx.store, ctx.user, ctx.now)
    return {pid for pid, level in levels.items() if level >= MAINTAINER}
