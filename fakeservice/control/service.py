"""Per-service control helpers attached at construction (journal, faults, rate limits).

:func:`extend` (listed in ``SERVICE_EXTENSIONS``) gives every :class:`FakeService` a
:class:`ControlPlane` (``service.control``) and the shortcuts ``service.journal``,
``service.faults`` and ``service.rate_limits``, and registers the request hooks:

* before a request: faults first (they stand for trouble in front of the service:
  network, proxy), then rate limits;
* after it: a delay-only fault's delay, then the journal entry.

Control-plane paths (``/_fake/...``) skip all of it. Journal, faults, rate limits and
named snapshots are *not* part of snapshots: restoring state keeps them as they are, so
a test can restore and still assert on the requests made before. :meth:`ControlPlane.reset`
empties the journal and puts faults and rate limits back to what the scenario declared.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from fakeservice.control.credentials import token_owner
from fakeservice.control.faults import Faults
from fakeservice.control.journal import Journal
from fakeservice.control.patterns import is_control_path
from fakeservice.control.ratelimit import RateLimits
from fakeservice.control.snapshots import SnapshotShelf
from fakeservice.core.clock import iso
from fakeservice.web.auth import Caller
from fakeservice.web.http import Request, Response

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService


class ControlPlane:
    """Journal, faults, rate limits and named snapshots of one service."""

    def __init__(self, service: FakeService) -> None:
        self.service = service
        self.journal = Journal()
        self.faults = Faults()
        self.rate_limits = RateLimits(service)
        self.snapshots = SnapshotShelf()
        self.initial: dict[str, Any] = {"faults": [], "rate_limits": []}
        self._delays: dict[int, float] = {}
        self._early: set[int] = set()
        self._lock = threading.Lock()

    # -- configuration ---------------------------------------------------------------------
    def config(self) -> dict[str, Any]:
        """Faults, rate limits and the journal's capacity as plain data (what a scenario
        declares)."""
        return {
            "faults": self.faults.export(),
            "rate_limits": self.rate_limits.export(),
            "journal": {"capacity": self.journal.capacity},
        }

    def load_config(self, config: dict[str, Any]) -> None:
        self.faults.load(config.get("faults", []))
        self.rate_limits.load(config.get("rate_limits", []))
        journal = config.get("journal") or {}
        if "capacity" in journal:
            self.journal.resize(journal["capacity"])

    def mark_initial(self) -> None:
        """Make the current configuration the one :meth:`reset` returns to."""
        self.initial = self.config()

    def reset(self) -> None:
        """Empty the journal; faults and rate limits back to the initial configuration."""
        self.journal.clear()
        self.load_config(self.initial)

    # -- hooks -------------------------------------------------------------------------------
    def before(self, request: Request) -> Response | None:
        if is_control_path(request.raw_path):
            return None
        answer = self._early_answer(request)
        if answer is not None:
            with self._lock:
                self._early.add(id(request))
        return answer

    def _early_answer(self, request: Request) -> Response | None:
        rule = self.faults.decide(request)
        if rule is not None:
            answer = rule.response(self.service.clock.timestamp())
            if answer is not None:
                return answer
            with self._lock:
                self._delays[id(request)] = rule.delay
        return self.rate_limits.check(request)

    def after(self, request: Request, response: Response, caller: Caller) -> None:
        if is_control_path(request.raw_path):
            return
        with self._lock:
            delay = self._delays.pop(id(request), None)
            early = id(request) in self._early
            self._early.discard(id(request))
        if delay:
            response.delay = max(response.delay, delay)
        acting = caller.user
        if early and acting is None:  # answered before the service identified the caller
            acting = token_owner(self.service.store, request)
        user = acting.username if acting is not None else None
        sudo_by = caller.sudo_by.username if caller.sudo_by is not None else None
        response.recorded = self.journal.record(
            request,
            status=response.status,
            time=iso(self.service.clock.now()) or "",
            user=user,
            sudo_by=sudo_by,
            dropped=response.drop,
        )


def extend(service: Any) -> None:
    """Attach the control plane's helpers to ``service``."""
    control = ControlPlane(service)
    service.control = control
    service.journal = control.journal
    service.faults = control.faults
    service.rate_limits = control.rate_limits
    service.add_hooks(before=control.before, after=control.after)
