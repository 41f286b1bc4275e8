"""The deploy area's registration: its tables, its endpoints, deploy tokens for git over
HTTP and the ``deploy_tokens`` scenario key."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.deploy import router, scenario, token_routes, tokens
    from fakeservice.groups.models import NAMESPACE_DELETED
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.repository.git_http import DEPLOY_TOKEN_LOOKUP

    del token_routes  # imported for its declarations
    setup.tables(tokens.install)
    setup.routes(router.api)
    setup.listen(DEPLOY_TOKEN_LOOKUP, tokens.git_scopes)
    setup.listen(PROJECT_DELETED, tokens.forget_owner(tokens.PROJECT))
    setup.listen(NAMESPACE_DELETED, tokens.forget_owner(tokens.GROUP))
    scenario.register(setup.sections)
