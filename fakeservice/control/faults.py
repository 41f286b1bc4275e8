"""Fault injection: answer matching requests with an error status, a delay or a dropped
connection, a fixed number of times or with a seeded (so repeatable) probability.

Rules are tried in the order they were added; the first one that fires decides the
fault, and later rules do not see the request. A rule first lets ``skip`` matching
requests through, then fires on each matching request with probability ``probability``
(drawn from its own ``random.Random(seed)``) until it has fired ``times`` times.

An error status is answered with the service's own body for that status (``429`` with
``Retry later`` and the rate-limit headers); ``body`` and ``headers`` override it. A
``delay`` alone lets the request through and answers it late; ``drop`` makes the
transport break the connection instead of answering.
"""

from __future__ import annotations

import random
from http import HTTPStatus
from typing import Any

import attrs

from fakeservice.control.patterns import RequestPattern
from fakeservice.control.ratelimit import limit_headers, throttled
from fakeservice.control.rulebook import RuleBook
from fakeservice.core.errors import (
    ApiError,
    BadRequest,
    Conflict,
    Forbidden,
    MethodNotAllowed,
    NotFound,
    PayloadTooLarge,
    PreconditionFailed,
    Unauthorized,
    Unprocessable,
)
from fakeservice.web.dispatch import render_error
from fakeservice.web.http import Request, Response, dumps

DEFAULT_RETRY_AFTER = 60
_ERRORS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    405: MethodNotAllowed,
    409: Conflict,
    412: PreconditionFailed,
    413: PayloadTooLarge,
    422: Unprocessable,
}


class FaultError(ValueError):
    """A fault rule that cannot be used."""


def service_error(status: int, now: float, retry_after: int | None = None) -> Response:
    """The service's answer for ``status`` (as its own code paths word it)."""
    if status == 429:
        wait = DEFAULT_RETRY_AFTER if retry_after is None else retry_after
        headers = limit_headers("throttle_authenticated_api", 1, 2, now + wait, now)
        headers["Retry-After"] = str(wait)
        return throttled(headers)
    kind = _ERRORS.get(status)
    if kind is not None:
        return render_error(kind())
    phrase = HTTPStatus(status).phrase
    return render_error(ApiError({"message": f"{status} {phrase}"}, status=status))


@attrs.define
class FaultRule:
    id: int
    pattern: RequestPattern
    status: int | None = None
    delay: float = 0.0
    drop: bool = False
    times: int | None = None
    probability: float = 1.0
    seed: int = 0
    skip: int = 0
    body: Any = None
    headers: dict[str, str] = attrs.field(factory=dict)
    retry_after: int | None = None
    seen: int = 0
    fired: int = 0
    rng: random.Random = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @property
    def exhausted(self) -> bool:
        return self.times is not None and self.fired >= self.times

    def spec(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.pattern.path, "method": self.pattern.method}
        for name in ("status", "delay", "drop", "times", "probability", "seed", "skip"):
            out[name] = getattr(self, name)
        out["body"] = self.body
        out["headers"] = dict(self.headers)
        out["retry_after"] = self.retry_after
        return out

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, **self.spec(), "seen": self.seen, "fired": self.fired}

    def fires(self) -> bool:
        """Count one matching request; true when the fault applies to it."""
        if self.exhausted:
            return False
        self.seen += 1
        if self.seen <= self.skip:
            return False
        if self.probability < 1.0 and self.rng.random() >= self.probability:
            return False
        self.fired += 1
        return True

    def response(self, now: float) -> Response | None:
        """The answer that replaces the service's, or None for a delay-only fault."""
        if self.drop:
            return Response(status=0, drop=True, delay=self.delay)
        if self.status is None:
            return None
        answer = service_error(self.status, now, self.retry_after)
        if self.body is not None:
            if isinstance(self.body, str):
                answer.body = self.body.encode()
                answer.set_header("Content-Type", "text/plain")
            else:
                answer.body = dumps(self.body)
                answer.set_header("Content-Type", "application/json")
        for name, value in self.headers.items():
            answer.set_header(name, value)
        answer.delay = self.delay
        return answer


def _number(name: str, value: Any, *, minimum: float, maximum: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FaultError(f"{name} must be a number")
    if value < minimum or (maximum is not None and value > maximum):
        bound = (
            f"between {minimum:g} and {maximum:g}"
            if maximum is not None
            else f"{minimum:g} or more"
        )
        raise FaultError(f"{name} must be {bound}")
    return float(value)


def _integer(name: str, value: Any, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FaultError(f"{name} must be an integer")
    if value < minimum:
        raise FaultError(f"{name} must be {minimum} or more")
    return value


class Faults(RuleBook[FaultRule]):
    """The service's fault rules."""

    def add(
        self,
        path: str = "/**",
        *,
        method: str = "*",
        status: int | None = None,
        delay: float = 0.0,
        drop: bool = False,
        times: int | None = None,
        probability: float = 1.0,
        seed: int = 0,
        skip: int = 0,
        body: Any = None,
        headers: dict[str, str] | None = None,
        retry_after: int | None = None,
    ) -> FaultRule:
        """Add a rule; raises :class:`FaultError` with a plain message on bad input."""
        if status is None and not drop and not delay:
            raise FaultError("a fault needs a status, a delay or drop: true")
        if status is not None:
            _integer("status", status, minimum=400)
            if status > 599 or status not in HTTPStatus._value2member_map_:
                raise FaultError("status must be an HTTP error status (400 to 599)")
        if status is not None and drop:
            raise FaultError("status and drop are mutually exclusive")
        delay = _number("delay", delay, minimum=0, maximum=300)
        if times is not None:
            _integer("times", times, minimum=1)
        probability = _number("probability", probability, minimum=0, maximum=1)
        _integer("seed", seed, minimum=0)
        _integer("skip", skip, minimum=0)
        if retry_after is not None:
            _integer("retry_after", retry_after, minimum=0)
        if headers is not None and not (
            isinstance(headers, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in headers.items())
        ):
            raise FaultError("headers must map header names to strings")
        pattern = RequestPattern(path=path, method=method)
        return self._append(
            lambda rule_id: FaultRule(
                id=rule_id,
                pattern=pattern,
                status=status,
                delay=delay,
                drop=bool(drop),
                times=times,
                probability=probability,
                seed=seed,
                skip=skip,
                body=body,
                headers=dict(headers or {}),
                retry_after=retry_after,
            )
        )

    def decide(self, request: Request) -> FaultRule | None:
        """The first rule that fires for ``request``, if any."""
        if not self.rules:
            return None
        with self._lock:
            for rule in self.rules:
                if rule.pattern.matches(request.method, request.raw_path) and rule.fires():
                    return rule
        return None
