"""The runners area's registration: its tables (and the jobs-by-runner index), its
endpoints, the runner that picks each build up (answering the CI area's events), what
happens to runners when a project or group goes, the built-in instance runner and the
``runners`` scenario key."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.ci.runner.assignment import (
        RUNNER_FOR_JOB,
        RUNNER_PICKED,
        RUNNER_TIMEOUT,
        RUNNER_VIEW,
    )
    from fakeservice.groups.models import NAMESPACE_DELETED
    from fakeservice.instance.views import SETTINGS_VIEW
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.projects.routes import PROJECT_DETAIL
    from fakeservice.runners import (
        availability,
        models,
        registration,
        router,
        routes,
        scenario,
        scoped_routes,
        token_routes,
    )

    del routes, scoped_routes, token_routes  # imported for their declarations
    setup.tables(models.install)
    setup.tables(registration.install)
    setup.routes(router.api)
    setup.listen(RUNNER_FOR_JOB, availability.runner_for)
    setup.listen(RUNNER_PICKED, availability.picked)
    setup.listen(RUNNER_VIEW, availability.job_runner)
    setup.listen(RUNNER_TIMEOUT, availability.maximum_timeout)
    setup.listen(SETTINGS_VIEW, registration.show_instance_token)
    setup.listen(PROJECT_DETAIL, registration.show_project_token)
    setup.listen(PROJECT_DELETED, models.forget_project)
    setup.listen(NAMESPACE_DELETED, models.forget_group)
    scenario.register(setup.sections)
    setup.extension(scenario.add_builtin)
