"""The resource areas a service is made of, and how an area registers itself.

:data:`AREAS` lists, in order, the module of each area that holds its one registration
call: ``register(setup)``. :func:`compose` imports them and calls each ``register`` with
a :class:`~fakeservice.composition.Composition`; ``FakeService(areas=...)`` is built
from the result, so two services in one process can be made of different areas.

Adding an area (``fakeservice/widgets/``):

1. declare its endpoints on its own router, by convention named ``api`` in its routes
   modules: ``api = AreaRouter("widgets")`` (from :mod:`fakeservice.web.routing`) in
   ``widgets/routes.py``, or in ``widgets/router.py`` when several routes modules share
   it (``from fakeservice.widgets.router import api``);
2. write ``widgets/area.py``::

       def register(setup: Composition) -> None:
           from fakeservice.widgets import models, routes, scenario

           setup.tables(models.install)              # install(store): declare its tables
           setup.routes(routes.api)                  # serve its endpoints
           setup.listen(PROJECT_DELETED, models.forget_project)   # react to other areas
           setup.project_section("widgets", scenario.load, schema=..., doc="...")
           setup.extension(extend)                   # extend(service): per-service helpers

   The scenario-key methods are ``scenario_section`` (top-level key), ``project_section``,
   ``group_section`` and ``replay_action`` (see :mod:`fakeservice.scenarios.sections`).
   Events are named by the area that emits them: ``NAMESPACE_DELETED``,
   ``NAMESPACE_MOVED``, ``GROUP_VISIBILITY`` (``groups.models``), ``PROJECT_DELETED``
   (``projects.models``), ``PROJECT_CREATED`` (``projects.routes``), ``PROJECT_VIEW``
   (``projects.views``), ``REFS_MOVED`` (``repository.models``), ``DEPLOY_TOKEN_LOOKUP``
   (``repository.git_http``), ``USER_DELETED`` (``users.models``), ``BRIDGE_PENDING``,
   ``DOWNSTREAM_COMPLETED`` (``ci.flow``), ``JOB_TOKEN_LOOKUP`` (``web.auth``); an
   area emits its own with :func:`fakeservice.core.events.listeners`. Listening instead
   of importing is also how a lower module reaches a higher one without an import cycle
   (``tests/structure/test_import_graph.py`` fails on any cycle).
   Listeners are the composition's, shared by the services made of the same areas:
   register functions, not per-service state.
   Import the area's modules inside ``register`` so that importing this list stays cheap;
   Annotate the service your functions receive with :class:`fakeservice.host.Host`
   (``if TYPE_CHECKING: from fakeservice.host import Host as FakeService``), never with
   the concrete class: the import graph test counts typing-only imports too;
3. add ``"fakeservice.widgets.area"`` to :data:`AREAS`. Areas register in this order:
   routes declared earlier win ties between equally specific patterns, tables are
   installed and scenario keys load in this order (repository keys before CI's).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from functools import lru_cache

from fakeservice.composition import Composition

# An area: the name of its registration module, or a ``register(setup)`` function itself
# (handy for a test's own area).
Area = str | Callable[[Composition], None]

AREAS: tuple[str, ...] = (
    "fakeservice.users.area",
    "fakeservice.groups.area",
    "fakeservice.projects.area",
    "fakeservice.members.area",
    "fakeservice.tokens.area",
    "fakeservice.meta.area",
    "fakeservice.custom_attributes.area",
    "fakeservice.control.area",
    "fakeservice.repository.area",
    "fakeservice.releases.area",
    "fakeservice.ci.area",
    "fakeservice.runners.area",
    "fakeservice.statuses.area",
    "fakeservice.environments.area",
    "fakeservice.clusters.area",
    "fakeservice.namespaces.area",
    "fakeservice.topics.area",
    "fakeservice.badges.area",
    "fakeservice.labels.area",
    "fakeservice.milestones.area",
    "fakeservice.issues.area",
    "fakeservice.merge_requests.area",
    "fakeservice.notes.area",
    "fakeservice.approvals.area",
    "fakeservice.snippets.area",
    "fakeservice.boards.area",
    "fakeservice.instance.area",
    "fakeservice.storage_moves.area",
    "fakeservice.epics.area",
    "fakeservice.todos.area",
    "fakeservice.transfer.area",
    "fakeservice.geo.area",
    "fakeservice.wikis.area",
    "fakeservice.feature_flags.area",
    "fakeservice.access_tokens.area",
    "fakeservice.deploy.area",
    "fakeservice.keys.area",
    "fakeservice.avatars.area",
    "fakeservice.forks.area",
    "fakeservice.sharing.area",
    "fakeservice.features.area",
    "fakeservice.broadcasts.area",
    "fakeservice.file_templates.area",
    "fakeservice.hooks.area",
    "fakeservice.relocation.area",
    "fakeservice.housekeeping.area",
    "fakeservice.push_rules.area",
    "fakeservice.events_feed.area",
    "fakeservice.resource_events.area",
    "fakeservice.draft_notes.area",
)


def compose(areas: Sequence[Area] | None = None) -> Composition:
    """The composition of ``areas`` (default :data:`AREAS`), built once per list and
    process."""
    return _compose(tuple(AREAS if areas is None else areas))


@lru_cache(maxsize=16)
def _compose(areas: tuple[Area, ...]) -> Composition:
    setup = Composition(areas)
    for area in areas:
        register = importlib.import_module(area).register if isinstance(area, str) else area
        register(setup)
    return setup
