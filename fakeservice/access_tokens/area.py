"""The access-token area's registration: the resource index on tokens, its endpoints and the
groups' ``access_tokens`` scenario key."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.access_tokens import models, personal, resource, router, scenario
    from fakeservice.groups.models import NAMESPACE_DELETED
    from fakeservice.projects.models import PROJECT_DELETED

    del personal, resource  # imported for their declarations
    setup.tables(models.install)
    setup.listen(PROJECT_DELETED, models.forget_resource("project"))
    setup.listen(NAMESPACE_DELETED, models.forget_resource("group"))
    setup.routes(router.api)
    scenario.register(setup.sections)
