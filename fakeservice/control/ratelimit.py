"""Rate limiting on the service's clock, answered with the real service's 429.

A rule allows ``limit`` requests per ``period`` seconds for each requester: the user a
token belongs to for authenticated requests, the client address otherwise. Windows are
fixed and aligned on the clock (``floor(now / period)``), as the real throttle does, so
on a manual clock a window only ends when the test advances the clock. Every request
counts, throttled ones included (``RateLimit-Observed``). The answer is
``429 Retry later\\n`` (text/plain) with ``Retry-After`` and the ``RateLimit-*`` headers.
"""

from __future__ import annotations

import datetime as dt
import math
from email.utils import format_datetime
from typing import TYPE_CHECKING, Any

import attrs

from fakeservice.control.credentials import presented_secret
from fakeservice.control.patterns import RequestPattern
from fakeservice.control.rulebook import RuleBook
from fakeservice.core.errors import RateLimited
from fakeservice.tokens.models import find_secret
from fakeservice.web.dispatch import render_error
from fakeservice.web.http import Request, Response

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

APPLIES_TO = ("all", "authenticated", "unauthenticated")
DEFAULT_NAMES = {
    "all": "throttle_authenticated_api",
    "authenticated": "throttle_authenticated_api",
    "unauthenticated": "throttle_unauthenticated_api",
}


class RateLimitError(ValueError):
    """A rate-limit rule that cannot be used."""


def limit_headers(
    name: str, limit: int, observed: int, reset_at: float, now: float
) -> dict[str, str]:
    """The headers of a throttled answer, in the real service's order."""
    reset_time = dt.datetime.fromtimestamp(reset_at, tz=dt.UTC)
    return {
        "RateLimit-Name": name,
        "RateLimit-Limit": str(limit),
        "RateLimit-Observed": str(observed),
        "RateLimit-Remaining": str(max(limit - observed, 0)),
        "RateLimit-Reset": str(int(reset_at)),
        "RateLimit-ResetTime": format_datetime(reset_time, usegmt=True),
        "Retry-After": str(max(1, math.ceil(reset_at - now))),
    }


def throttled(headers: dict[str, str]) -> Response:
    return render_error(RateLimited(headers))


@attrs.define
class RateLimitRule:
    id: int
    limit: int
    period: int
    name: str
    applies_to: str
    pattern: RequestPattern

    def spec(self) -> dict[str, Any]:
        return {
            "limit": self.limit,
            "period": self.period,
            "name": self.name,
            "applies_to": self.applies_to,
            "method": self.pattern.method,
            "path": self.pattern.path,
        }

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, **self.spec()}


def requester(service: FakeService, request: Request) -> tuple[bool, str]:
    """``(authenticated, key)``: the token's user, or the client address."""
    secret = presented_secret(request)
    if secret:
        token = find_secret(service.store, secret)
        if token is not None:
            return True, f"user:{token.user_id}"
        return True, f"token:{secret}"
    return False, f"ip:{request.client}"


class RateLimits(RuleBook[RateLimitRule]):
    """The service's rate-limit rules and their per-window counters."""

    def __init__(self, service: FakeService) -> None:
        super().__init__()
        self._service = service
        self._counters: dict[tuple[int, str], tuple[int, int]] = {}

    def add(
        self,
        limit: int,
        period: int = 60,
        *,
        name: str | None = None,
        method: str = "*",
        path: str = "/api/v4/**",
        applies_to: str = "all",
    ) -> RateLimitRule:
        """Allow ``limit`` requests per ``period`` seconds per requester on matching requests."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise RateLimitError("limit must be an integer of 0 or more")
        if isinstance(period, bool) or not isinstance(period, int) or period < 1:
            raise RateLimitError("period must be a whole number of seconds, 1 or more")
        if applies_to not in APPLIES_TO:
            raise RateLimitError(f"applies_to must be one of {', '.join(APPLIES_TO)}")
        pattern = RequestPattern(path=path, method=method)
        return self._append(
            lambda rule_id: RateLimitRule(
                id=rule_id,
                limit=limit,
                period=period,
                name=name or DEFAULT_NAMES[applies_to],
                applies_to=applies_to,
                pattern=pattern,
            )
        )

    def _forget(self, rule_id: int | None) -> None:
        if rule_id is None:
            self._counters = {}
        else:
            self._counters = {k: v for k, v in self._counters.items() if k[0] != rule_id}

    def reset_counters(self) -> None:
        with self._lock:
            self._counters = {}

    def check(self, request: Request) -> Response | None:
        """Count the request against each matching rule; a 429 when one is exceeded."""
        if not self.rules:
            return None
        authenticated, key = requester(self._service, request)
        now = self._service.clock.timestamp()
        answer: Response | None = None
        with self._lock:
            for rule in self.rules:
                if rule.applies_to == "authenticated" and not authenticated:
                    continue
                if rule.applies_to == "unauthenticated" and authenticated:
                    continue
                if not rule.pattern.matches(request.method, request.raw_path):
                    continue
                window = int(now // rule.period)
                seen_window, count = self._counters.get((rule.id, key), (window, 0))
                count = count + 1 if seen_window == window else 1
                self._counters[(rule.id, key)] = (window, count)
                if count > rule.limit and answer is None:
                    reset_at = float((window + 1) * rule.period)
                    answer = throttled(limit_headers(rule.name, rule.limit, count, reset_at, now))
        return answer
