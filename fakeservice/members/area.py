"""The members area's registration: its tables, its endpoints (``routes``,
``project_users``, ``access_requests``, ``invitations`` and ``memberships`` on the same
router) and the ``access_requests`` and ``invitations`` scenario keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.groups.models import NAMESPACE_DELETED
    from fakeservice.members import (
        access_requests,
        cleanup,
        invitation_scenario,
        invitations,
        invites,
        memberships,
        models,
        project_users,
        request_scenario,
        requests,
        routes,
    )
    from fakeservice.projects.models import PROJECT_DELETED

    setup.tables(models.install)
    setup.tables(requests.install)
    setup.tables(invites.install)
    del project_users, access_requests, invitations, memberships  # for their declarations
    setup.routes(routes.api)  # one router, shared by the area's routes modules
    for table in ("access_requests", "invitations"):
        setup.listen(PROJECT_DELETED, cleanup.forget_source(table, models.PROJECT))
        setup.listen(NAMESPACE_DELETED, cleanup.forget_source(table, models.NAMESPACE))
    request_scenario.register(setup.sections)
    invitation_scenario.register(setup.sections)
