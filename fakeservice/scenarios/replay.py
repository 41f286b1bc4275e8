"""Replays: run a scenario's ``steps`` in-process against a fresh service and report
every failed expectation as a diff.

A step is a request (with ``expect``, ``save`` and ``repeat``) or an action: move the
clock, finish a CI job, inject a fault, add a rate limit, snapshot/restore/reset,
assert on the journal, or an action an area registered. Failures do not stop the replay
(unless ``fail_fast``); a step whose variables are missing fails with that reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import attrs

from fakeservice.control.faults import FaultError
from fakeservice.control.patterns import PatternError
from fakeservice.control.ratelimit import RateLimitError
from fakeservice.control.runner import RunnerUnavailable, find_job
from fakeservice.control.snapshots import SnapshotError
from fakeservice.core.clock import ClockError
from fakeservice.core.errors import ApiError
from fakeservice.scenarios import expect
from fakeservice.scenarios.problems import ScenarioError, line_of, locate
from fakeservice.scenarios.source import ScenarioDocument, read
from fakeservice.scenarios.variables import VariableError, extract, substitute
from fakeservice.tokens.models import tokens
from fakeservice.users.models import find_by_username
from fakeservice.web.http import Response

if TYPE_CHECKING:
    from fakeservice.service import FakeService

STEP_ERRORS = (
    AssertionError,
    ApiError,
    ClockError,
    FaultError,
    PatternError,
    RateLimitError,
    RunnerUnavailable,
    SnapshotError,
    VariableError,
    ValueError,
    LookupError,
)
AUTH_KEYS = ("as", "token", "bearer")


class StepFailed(Exception):
    """A step that cannot run as written (unknown user, no token...)."""


@attrs.define
class StepOutcome:
    index: int
    name: str
    line: int | None
    failures: list[str] = attrs.field(factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def title(self) -> str:
        where = f" (line {self.line})" if self.line else ""
        return f"step {self.index + 1} {self.name!r}{where}"


@attrs.define
class ReplayResult:
    file: str
    outcomes: list[StepOutcome] = attrs.field(factory=list)
    error: ScenarioError | None = None
    name: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and all(outcome.ok for outcome in self.outcomes)

    @property
    def failed(self) -> list[StepOutcome]:
        return [outcome for outcome in self.outcomes if not outcome.ok]

    def report(self, verbose: bool = False) -> str:
        if self.error is not None:
            lines = [f"ERROR {self.file}: the scenario does not load"]
            lines += [f"  {problem}" for problem in self.error.details]
            return "\n".join(lines)
        total = len(self.outcomes)
        if self.ok:
            lines = [f"PASS {self.file} ({total} step{'s' if total != 1 else ''})"]
            if verbose:
                lines += [f"  ok  {outcome.title()}" for outcome in self.outcomes]
            return "\n".join(lines)
        lines = [f"FAIL {self.file} ({len(self.failed)} of {total} steps failed)"]
        for outcome in self.outcomes:
            if outcome.ok:
                if verbose:
                    lines.append(f"  ok  {outcome.title()}")
                continue
            lines.append(f"  FAIL {outcome.title()}")
            lines += [f"      {failure}" for failure in outcome.failures]
        return "\n".join(lines)


def _step_name(step: dict[str, Any]) -> str:
    if step.get("name"):
        return str(step["name"])
    request = step.get("request")
    if isinstance(request, dict):
        return f"{request.get('method', 'GET')} {request.get('path', '')}"
    return next((key for key in step if key != "name"), "step")


class Replay:
    """Runs the steps of one document against one service."""

    def __init__(self, doc: ScenarioDocument, service: FakeService) -> None:
        self.doc = doc
        self.service = service
        self.variables: dict[str, Any] = {}
        self.defaults: dict[str, Any] = dict(doc.data.get("step_defaults") or {})
        self.actions: dict[str, Callable[[Any], list[str]]] = {
            "advance_clock": self._advance_clock,
            "set_clock": lambda v: self._do(service.set_clock, v),
            "clock_mode": lambda v: self._do(service.set_clock_mode, v),
            "finish_job": self._finish_job,
            "fault": lambda v: self._do(lambda spec: service.faults.add(**spec), v),
            "clear_faults": lambda v: self._do(lambda _: v and service.faults.clear(), v),
            "rate_limit": lambda v: self._do(lambda spec: service.rate_limits.add(**spec), v),
            "clear_rate_limits": lambda v: self._do(lambda _: v and service.rate_limits.clear(), v),
            "snapshot": lambda v: self._do(service.save_snapshot, str(v)),
            "restore": lambda v: self._do(service.restore, str(v)),
            "reset": lambda v: self._do(lambda _: v and service.reset(), v),
            "journal": self._journal,
            "clear_journal": lambda v: self._do(lambda _: v and service.journal.clear(), v),
        }

    def run(self, fail_fast: bool = False) -> list[StepOutcome]:
        outcomes = []
        for index, step in enumerate(self.doc.data.get("steps") or []):
            line = line_of(locate(self.doc.node, f"steps[{index}]"))
            outcome = StepOutcome(index, _step_name(step), line)
            try:
                outcome.failures = self.step(step)
            except STEP_ERRORS as exc:
                outcome.failures = [str(exc) or type(exc).__name__]
            except StepFailed as exc:
                outcome.failures = [str(exc)]
            outcomes.append(outcome)
            if fail_fast and not outcome.ok:
                break
        return outcomes

    def step(self, step: dict[str, Any]) -> list[str]:
        if "request" in step:
            return self._request_step(step)
        for key, value in step.items():
            if key == "name":
                continue
            action = self.actions.get(key)
            if action is not None:
                return action(substitute(value, self.variables))
            registered = self.service.sections.sections("action").get(key)
            if registered is not None and registered.handler is not None:
                registered.handler(self.service, substitute(value, self.variables), self.variables)
                return []
            raise StepFailed(f"unknown action {key!r}")
        raise StepFailed("the step has no action")

    # -- actions -----------------------------------------------------------------------------
    @staticmethod
    def _do(action: Callable[[Any], Any], value: Any) -> list[str]:
        action(value)
        return []

    def _advance_clock(self, value: Any) -> list[str]:
        if isinstance(value, dict):
            self.service.advance_clock(**{k: float(v) for k, v in value.items()})
        else:
            self.service.advance_clock(float(value))
        return []

    def _finish_job(self, value: dict[str, Any]) -> list[str]:
        status = value.get("status", "success")
        if "job" in value:
            job_id = value["job"]
            if isinstance(job_id, str) and not job_id.strip().isdigit():
                raise StepFailed(f"finish_job: job must be an id, got {job_id!r}")
            job = int(job_id)
        else:
            job = find_job(self.service, value["project"], value["name"], value.get("pipeline"))
        self.service.finish_job(job, status)
        return []

    def _journal(self, value: dict[str, Any]) -> list[str]:
        found = self.service.journal.entries(
            value.get("method"), value.get("path"), value.get("user"), value.get("status")
        )
        if len(found) == value["count"]:
            return []
        wanted = ", ".join(
            f"{k}={value[k]}" for k in ("method", "path", "user", "status") if k in value
        )
        failures = [
            f"journal: expected {value['count']} entries matching {wanted or 'anything'}, got {len(found)}"
        ]
        for entry in found[:10]:
            failures.append(f"  {entry.method} {entry.path} -> {entry.status} as {entry.user}")
        return failures

    # -- requests ----------------------------------------------------------------------------
    def _request_step(self, step: dict[str, Any]) -> list[str]:
        spec = substitute(step["request"], self.variables)
        want = substitute(step.get("expect") or {}, self.variables)
        failures: list[str] = []
        response = Response()
        repeat = int(step.get("repeat", 1))
        for attempt in range(repeat):
            response = self.send(spec)
            found = expect.check(want, response)
            if found and repeat > 1:
                found = [f"request {attempt + 1} of {repeat}: {f}" for f in found]
            failures.extend(found)
            if found:
                break
        for name, expression in (step.get("save") or {}).items():
            try:
                self.variables[str(name)] = extract(str(expression), response)
            except VariableError as exc:
                failures.append(f"save {name}: {exc}")
        return failures

    def send(self, spec: dict[str, Any]) -> Response:
        path = str(spec["path"])
        if "://" in path:
            parts = urlsplit(path)
            path = parts.path + (f"?{parts.query}" if parts.query else "")
        headers = {**self.defaults.get("headers", {}), **(spec.get("headers") or {})}
        auth = spec if any(key in spec for key in AUTH_KEYS) else self.defaults
        if auth.get("token"):
            headers["PRIVATE-TOKEN"] = str(auth["token"])
        elif auth.get("bearer"):
            headers["Authorization"] = f"Bearer {auth['bearer']}"
        elif auth.get("as"):
            headers.update(self.credentials(str(auth["as"])))
        sudo = spec.get("sudo", self.defaults.get("sudo"))
        if sudo:
            headers["Sudo"] = str(sudo)
        return self.service.request(
            str(spec.get("method", "GET")).upper(),
            path,
            query=spec.get("query"),
            json_body=spec.get("body"),
            data=spec.get("form"),
            headers={str(k): str(v) for k, v in headers.items()},
        )

    def credentials(self, username: str) -> dict[str, str]:
        """Headers authenticating as ``username`` with one of their active tokens,
        API-scoped personal tokens first."""
        store = self.service.store
        user = find_by_username(store, username)
        if user is None:
            raise StepFailed(f"as: unknown user {username!r}")
        now = self.service.now()
        usable = [t for t in tokens(store).select("user", [user.id]) if t.active(now)]
        usable.sort(
            key=lambda t: (t.kind not in ("personal", "impersonation"), "api" not in t.scopes, t.id)
        )
        if not usable:
            raise StepFailed(
                f"as: {username} has no active token; give the step a token or bearer instead"
            )
        chosen = usable[0]
        if chosen.kind == "oauth":
            return {"Authorization": f"Bearer {chosen.token}"}
        return {"PRIVATE-TOKEN": chosen.token}


def replay(
    source: Any,
    *,
    fail_fast: bool = False,
    service_factory: Callable[[], FakeService] | None = None,
) -> ReplayResult:
    """Load ``source`` into a fresh service and run its steps."""
    from fakeservice.service import FakeService

    try:
        doc = read(source)
    except ScenarioError as exc:
        return ReplayResult(str(source), error=exc)
    result = ReplayResult(doc.file or str(source), name=doc.data.get("name"))
    service = service_factory() if service_factory else FakeService(None)
    try:
        service.load_scenario(doc)
    except ScenarioError as exc:
        result.error = exc
        return result
    service.mark_initial()
    result.outcomes = Replay(doc, service).run(fail_fast)
    return result
