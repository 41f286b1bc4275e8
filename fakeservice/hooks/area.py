"""The hooks area's registration: project, group and system hooks (tables, endpoints,
``hooks`` scenario keys), the deliveries they get from other areas' events, and the
outbox that sends them after each write."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.ci.flow import JOB_CREATED, JOB_MOVED
    from fakeservice.core.events import RECORD_EVENT
    from fakeservice.groups.models import NAMESPACE_DELETED
    from fakeservice.hooks import (
        control,
        deliveries,
        lifecycle,
        listeners,
        models,
        pipelines,
        routes,
        scenario,
        system_routes,
    )
    from fakeservice.issues.events import ISSUABLE_CHANGED
    from fakeservice.merge_requests.operations import MR_EVENT
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.repository.models import REFS_MOVED

    setup.tables(models.install)
    setup.tables(deliveries.install)
    setup.tables(pipelines.install)
    for module in (routes, system_routes, control):
        setup.routes(module.api)  # one router, shared by the area's routes modules
    setup.listen(PROJECT_DELETED, lifecycle.forget_project)
    setup.listen(NAMESPACE_DELETED, lifecycle.forget_namespace)
    setup.listen(REFS_MOVED, listeners.refs_moved)
    setup.listen(MR_EVENT, listeners.merge_request_event)
    setup.listen(ISSUABLE_CHANGED, listeners.issuable_changed)
    setup.listen(RECORD_EVENT, listeners.record_event)
    setup.listen(JOB_MOVED, listeners.job_moved)
    setup.listen(JOB_CREATED, listeners.job_created)
    scenario.register(setup.sections)
    setup.extension(extend)


def extend(service: Any) -> None:
    from fakeservice.hooks import outbox, pipelines

    outbox.extend(service, (pipelines.settle_pipelines,))
