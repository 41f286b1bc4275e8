"""The CI area's registration: tables, endpoints (jobs, pipelines, artifacts, lint, the
``/_fake/ci`` runner controls), reactions to other areas (a project going, refs moving,
a job token presented), the CI scenario keys (pipeline schedules and trigger tokens too) and replay actions, and ``service.runner``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.ci import (
        job_token_scope,
        lifecycle,
        models,
        routes_erase,
        routes_latest,
        scenario,
        variables_models,
        variables_routes,
        variables_scenario,
    )
    from fakeservice.ci.artifacts import routes as artifact_routes
    from fakeservice.ci.config import routes as lint_routes
    from fakeservice.ci.flow import BRIDGE_PENDING, DOWNSTREAM_COMPLETED, JOB_CREATED, JOB_MOVED
    from fakeservice.ci.jobs import routes as job_routes
    from fakeservice.ci.jobs.operations import token_lookup
    from fakeservice.ci.pipelines import bridges, push
    from fakeservice.ci.pipelines import routes as pipeline_routes
    from fakeservice.ci.resource_groups import models as resource_group_models
    from fakeservice.ci.resource_groups import routes as resource_group_routes
    from fakeservice.ci.runner import extension
    from fakeservice.ci.runner import routes as runner_routes
    from fakeservice.ci.schedules import models as schedule_models
    from fakeservice.ci.schedules import routes as schedule_routes
    from fakeservice.ci.schedules import runs as schedule_runs
    from fakeservice.ci.schedules import scenario as schedule_scenario
    from fakeservice.ci.triggers import models as trigger_models
    from fakeservice.ci.triggers import routes as trigger_routes
    from fakeservice.ci.triggers import run as trigger_run
    from fakeservice.ci.triggers import scenario as trigger_scenario
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.repository.models import REFS_MOVED
    from fakeservice.web.auth import JOB_TOKEN_LOOKUP

    setup.tables(models.install)
    setup.tables(variables_models.install)
    setup.tables(schedule_models.install)
    setup.tables(trigger_models.install)
    setup.tables(resource_group_models.install)
    for routes in (
        job_routes,
        pipeline_routes,
        artifact_routes,
        lint_routes,
        runner_routes,
        routes_erase,
        routes_latest,
        variables_routes,
        job_token_scope,
        schedule_routes,
        trigger_routes,
        trigger_run,
        resource_group_routes,
    ):
        setup.routes(routes.api)  # one router, shared by the area's routes modules
    setup.listen(PROJECT_DELETED, lifecycle.delete_pipelines)
    setup.listen(PROJECT_DELETED, schedule_models.forget_project)
    setup.listen(PROJECT_DELETED, trigger_models.forget_project)
    setup.listen(PROJECT_DELETED, resource_group_models.forget_project)
    setup.listen(JOB_CREATED, resource_group_models.on_job_created)
    setup.listen(JOB_MOVED, resource_group_models.on_job_moved)
    setup.listen(REFS_MOVED, push.on_refs_moved)
    setup.listen(JOB_TOKEN_LOOKUP, token_lookup)
    setup.listen(BRIDGE_PENDING, bridges.start_bridge)
    setup.listen(DOWNSTREAM_COMPLETED, bridges.settle_bridge)
    scenario.register(setup.sections)
    variables_scenario.register(setup.sections)
    job_token_scope.register(setup.sections)
    schedule_scenario.register(setup.sections)
    trigger_scenario.register(setup.sections)
    setup.extension(extension.extend)
    setup.extension(schedule_runs.extend)
