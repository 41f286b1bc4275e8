"""One service per scenario and process, put back between tests instead of rebuilt.

The ``fake_service`` fixture hands out the same :class:`FakeService` to every test of a
scenario in a process. Before each test, :meth:`Recycled.fresh` puts it back into the
scenario's state: the store by undoing only what the previous test touched
(:meth:`Store.rollback`), the clock, journal, faults, rate limits and named snapshots
as after loading, and the attributes of the service, its control plane, runner and
clock (including hooks and clock listeners a test added) as they were when it was made.
So the per-test cost follows what a test did, not the size of the scenario.
"""

from __future__ import annotations

import copy
import threading
from collections import deque
from typing import Any

from fakeservice.service import FakeService, ServiceTemplate

_lock = threading.Lock()
_live: dict[int, tuple[ServiceTemplate, Recycled]] = {}


_CONTAINERS = (list, dict, set, deque)


def _copied(attributes: dict[str, Any]) -> dict[str, Any]:
    """``attributes`` with its containers copied (so later changes to them do not show)."""
    return {k: copy.copy(v) if isinstance(v, _CONTAINERS) else v for k, v in attributes.items()}


class Recycled:
    """A service and what its Python objects looked like when it was made."""

    def __init__(self, service: FakeService) -> None:
        self.service = service
        control = service.control
        candidates = (
            service,
            service.clock,
            getattr(service, "runner", None),
            control,
            control.journal,
            control.faults,
            control.rate_limits,
            control.snapshots,
        )
        self.objects = [obj for obj in candidates if hasattr(obj, "__dict__")]
        self.attributes = [_copied(vars(obj)) for obj in self.objects]

    def fresh(self) -> FakeService:
        """The service, back in the scenario's state."""
        for obj, attributes in zip(self.objects, self.attributes, strict=True):
            vars(obj).clear()
            vars(obj).update(
                {
                    k: copy.copy(v) if isinstance(v, _CONTAINERS) else v
                    for k, v in attributes.items()
                }
            )
        self.service.reset()
        return self.service


def recycled(template: ServiceTemplate) -> FakeService:
    """The process's service for ``template``, in the template's state."""
    key = id(template)
    with _lock:
        found = _live.get(key)
    if found is not None and found[0] is template:
        return found[1].fresh()
    service = FakeService.from_template(template)
    with _lock:
        _live[key] = (template, Recycled(service))
    return service


def forget() -> None:
    """Drop the kept services (the next test of each scenario builds one again)."""
    with _lock:
        _live.clear()
