"""The keys area's registration: its tables (SSH keys, GPG keys, emails, deploy key links),
its endpoints, and deploy keys leaving deleted projects."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.keys import deploy, deploy_routes, models, router, routes
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.users.models import USER_DELETED

    del deploy_routes, routes  # imported for their declarations
    setup.tables(models.install)
    setup.tables(deploy.install)
    setup.routes(router.api)
    setup.listen(PROJECT_DELETED, deploy.forget_project)
    setup.listen(USER_DELETED, models.forget_user)
