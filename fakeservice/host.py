"""What the layers below the composition root know of the service: :class:`Host`.

:class:`~fakeservice.service.FakeService` builds itself from its areas and hands itself
to the dispatch, the control plane, the scenario loader, the transports and the areas'
extensions. They receive it and annotate it with this protocol rather than importing
the concrete class, even for type checking, so that no import (runtime or typing-only)
leads from them back to the root. Attributes typed ``Any`` are those whose classes live
in the layers that receive the host (they would lead back here).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from fakeservice.core.clock import Clock
    from fakeservice.core.store import Store
    from fakeservice.web.http import Request, Response
    from fakeservice.web.routing import Router


class Host(Protocol):
    """The service a lower layer was handed."""

    base_url: str
    clock: Clock
    store: Store
    router: Router
    sections: Any  # scenarios.sections.Sections: the scenario keys of its areas
    composition: Any  # composition.Composition: what its areas registered
    server_errors: list[BaseException]
    app: Any  # the ASGI application serving it
    # attached by the areas' extensions
    control: Any  # control.service.ControlPlane
    journal: Any  # control.journal.Journal
    faults: Any  # control.faults.Faults
    rate_limits: Any  # control.ratelimit.RateLimits
    runner: Any  # ci.runner.runner.Runner (with the CI area)

    def handle(self, request: Request) -> Response: ...

    def request(self, method: str, path: str, **kw: Any) -> Response: ...

    def add_hooks(
        self,
        before: Callable[[Request], Response | None] | None = None,
        after: Callable[[Request, Response, Any], None] | None = None,
        catch_up: Callable[[], Any] | None = None,
    ) -> None: ...

    def before_request(self, request: Request) -> Response | None: ...

    def after_request(self, request: Request, response: Response, caller: Any) -> None: ...

    def snapshot(self) -> bytes: ...

    def restore(self, snapshot: bytes | str) -> None: ...

    def load_scenario(self, scenario: Any, *, replace: bool = False) -> None: ...

    def mark_initial(self) -> None: ...
