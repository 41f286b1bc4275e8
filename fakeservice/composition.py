"""What a service is made of: the routes, tables, listeners, scenario keys and service
extensions its areas registered (one :class:`Composition` per list of areas).

Areas fill it through their ``register(setup)`` function (see :mod:`fakeservice.areas`
for the list and the registration API); :class:`~fakeservice.service.FakeService`
receives a composition and builds itself from it, so that no layer below needs to
import the service or the areas.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from fakeservice.core.events import Events, Listener, bind
from fakeservice.core.store import Store
from fakeservice.scenarios.sections import Sections
from fakeservice.web.routing import AreaRouter, Router

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

TableInstaller = Callable[[Store], None]
Extension = Callable[["FakeService"], None]


class Composition:
    """The registrations of a list of areas (the ``setup`` each ``register`` receives)."""

    def __init__(self, areas: Sequence[Any] = ()) -> None:
        self.areas = tuple(areas)
        self.routers: list[AreaRouter] = []
        self.installers: list[TableInstaller] = []
        self.events = Events()
        self.sections = Sections()
        self.extensions: list[Extension] = []
        # dashboard panels by key (fakeservice.dashboard.panels.Panel)
        self.panels: dict[str, Any] = {}
        # the scenario-key registration methods, under the names areas use
        self.scenario_section = self.sections.register_section
        self.project_section = self.sections.register_project_section
        self.group_section = self.sections.register_group_section
        self.replay_action = self.sections.register_action

    # -- registration (called by the areas' ``register``) ---------------------------------
    def routes(self, router: AreaRouter) -> None:
        """Serve the endpoints declared on ``router`` (once, however often it is given)."""
        if router not in self.routers:
            self.routers.append(router)

    def tables(self, install: TableInstaller) -> None:
        """Run ``install(store)`` on every new store (it declares the area's tables)."""
        if install not in self.installers:
            self.installers.append(install)

    def listen(self, event: str, listener: Listener) -> None:
        """Call ``listener`` whenever another area emits ``event`` (see
        :mod:`fakeservice.core.events`)."""
        self.events.add(event, listener)

    def extension(self, extend: Extension) -> None:
        """Run ``extend(service)`` on every new service, after its tables exist (attach
        per-service helpers such as ``service.runner``, control endpoints' state, hooks)."""
        if extend not in self.extensions:
            self.extensions.append(extend)

    def panel(self, panel: Any) -> None:
        """Show ``panel`` (a :class:`fakeservice.dashboard.panels.Panel`) on the dashboard
        (a key registered twice keeps its first registration)."""
        self.panels.setdefault(panel.key, panel)

    # -- what a service is built from ------------------------------------------------------
    @cached_property
    def router(self) -> Router:
        """The router over every registered area's endpoints, in registration order."""
        return Router([e for router in self.routers for e in router.endpoints])

    def install(self, store: Store) -> None:
        """Declare every area's tables in ``store`` and bind the areas' listeners to it."""
        for install in self.installers:
            install(store)
        bind(store, self.events)

    def extend(self, service: FakeService) -> None:
        for extend in self.extensions:
            extend(service)

    def __repr__(self) -> str:
        return f"Composition({', '.join(map(str, self.areas))})"
