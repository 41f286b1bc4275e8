"""The environments area's registration: protected environments (table, endpoints,
cleanup when a project goes, ``projects[].protected_environments`` in scenarios), and
the environments and deployments CI jobs with ``environment:`` make."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.ci.flow import JOB_CREATED, JOB_MOVED
    from fakeservice.environments import (
        deployment_routes,
        deployments,
        environment_routes,
        lifecycle,
        models,
        routes,
        scenario,
        update,
    )
    from fakeservice.projects.models import PROJECT_DELETED

    setup.tables(models.install)
    setup.tables(deployments.install)
    for module in (routes, update, environment_routes, deployment_routes):
        setup.routes(module.api)  # one router, shared by the area's routes modules
    setup.listen(PROJECT_DELETED, lifecycle.forget_environments)
    setup.listen(JOB_CREATED, deployments.job_created)
    setup.listen(JOB_MOVED, deployments.job_moved)
    scenario.register(setup.sections)
