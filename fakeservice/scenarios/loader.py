"""Load a YAML scenario into a service: clock, users and tokens, groups, projects,
members, faults and rate limits, then the sections areas registered.

A scenario is first checked against :data:`~.spec.SCENARIO` (every problem with its
line); then its ``extends`` chain is loaded base first. A scenario that fails to load
leaves the service exactly as it was: the loader restores a snapshot of the state and
the fault and rate-limit configuration. ``steps`` are only read by replays.

Order: clock, users, groups, projects, faults, rate limits, the top-level sections the
service's areas registered (``setup.scenario_section``), then their group and project
keys (``setup.project_section``), section by section. A scenario is checked against the
keys of the service it loads into (:func:`~.sections.using`).

While a scenario loads, :func:`loading` is true (in that thread or task): areas that
react to writes (the CI area's pipelines on push) use it to tell a scenario's content
from a client's requests.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fakeservice.control.clocks import reconfigure
from fakeservice.control.faults import FaultError
from fakeservice.control.patterns import PatternError
from fakeservice.control.ratelimit import RateLimitError
from fakeservice.core import collector
from fakeservice.core.clock import ClockError
from fakeservice.core.errors import ApiError
from fakeservice.scenarios import spec
from fakeservice.scenarios.problems import Problem, ScenarioError, with_lines
from fakeservice.scenarios.records import RecordLoader
from fakeservice.scenarios.sections import using
from fakeservice.scenarios.source import BUILTIN_DIR, ScenarioDocument, find_file, from_file, read

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

__all__ = [
    "BUILTIN_DIR",
    "ScenarioError",
    "chain",
    "load_into",
    "loading",
    "read_scenario",
    "validate",
]

MAX_EXTENDS = 10
_loading: ContextVar[bool] = ContextVar("fakeservice_scenario_loading", default=False)


def loading() -> bool:
    """Whether a scenario is being loaded here (its writes are content, not pushes)."""
    return _loading.get()


def read_scenario(source: str | Path | Mapping[str, Any]) -> dict[str, Any]:
    """The scenario's data as a plain mapping."""
    return read(source).data


def validate(doc: ScenarioDocument) -> list[Problem]:
    """Structural problems of one document (keys, types, values), with lines."""
    if doc.node is None:
        return []
    found: list[Problem] = []
    spec.SCENARIO.check(doc.node, "", found)
    return with_lines(found, doc.node, doc.file)


def chain(source: Any, relative_to: Path | None = None) -> list[ScenarioDocument]:
    """The document and the ones it ``extends``, base first; raises on any problem."""
    docs: list[ScenarioDocument] = []
    doc = read(source, relative_to)
    seen = {str(Path(doc.file).resolve())} if doc.file and Path(doc.file).is_file() else set()
    while True:
        problems = validate(doc)
        if problems:
            raise ScenarioError(problems)
        docs.insert(0, doc)
        base = doc.data.get("extends")
        if base is None:
            return docs
        if len(docs) > MAX_EXTENDS:
            raise ScenarioError([_at(doc, "extends", "too many levels of extends")])
        try:
            path = find_file(str(base), doc.base_dir).resolve()
        except ScenarioError as exc:
            raise ScenarioError([_at(doc, "extends", exc.details[0].message)]) from exc
        if str(path) in seen:
            raise ScenarioError([_at(doc, "extends", f"{base!r} extends itself (a cycle)")])
        seen.add(str(path))
        doc = from_file(path)


def _at(doc: ScenarioDocument, where: str, message: str) -> Problem:
    return with_lines([Problem(message, where)], doc.node, doc.file)[0]


def load_into(service: FakeService, source: Any, relative_to: Path | None = None) -> None:
    """Load ``source`` (and what it extends) into ``service``: all of it, or nothing
    (the garbage collector held meanwhile: see :mod:`fakeservice.core.collector`)."""
    with collector.paused():
        _load_chain(service, source, relative_to)


def _load_chain(service: FakeService, source: Any, relative_to: Path | None) -> None:
    with using(service.sections):
        docs = chain(source, relative_to)
    before = service.snapshot()
    control_before = service.control.config()
    marker = _loading.set(True)
    try:
        for doc in docs:
            _load_document(service, doc)
    except BaseException:
        service.restore(before)
        service.control.load_config(control_before)
        raise
    finally:
        _loading.reset(marker)


def _load_document(service: FakeService, doc: ScenarioDocument) -> None:
    try:
        _load(service, doc.data)
    except ScenarioError as exc:
        raise ScenarioError(with_lines(exc.details, doc.node, doc.file)) from exc
    except ApiError as exc:
        raise ScenarioError([_at(doc, _where(exc), _api_message(exc))]) from exc
    except (ClockError, FaultError, PatternError, RateLimitError) as exc:
        raise ScenarioError([_at(doc, _where(exc), str(exc))]) from exc
    except Exception as exc:
        raise ScenarioError([_at(doc, _where(exc), f"{type(exc).__name__}: {exc}")]) from exc


def _where(exc: BaseException) -> str:
    return getattr(exc, "scenario_where", "")


def _api_message(exc: ApiError) -> str:
    body = exc.body
    if isinstance(body, dict):
        message = body.get("message", body.get("error"))
        if isinstance(message, dict):
            return "; ".join(f"{k} {', '.join(v)}" for k, v in message.items())
        return str(message)
    return str(body)


def _located(where: str, action: Any, *args: Any) -> Any:
    """Run ``action``; an exception it raises remembers ``where`` for its line."""
    try:
        return action(*args)
    except Exception as exc:
        if not hasattr(exc, "scenario_where"):
            exc.scenario_where = where  # type: ignore[attr-defined]
        raise


def _load(service: FakeService, data: Mapping[str, Any]) -> None:
    if "clock" in data:
        clock = data["clock"] or {}
        _located("clock", reconfigure, service.clock, clock.get("mode"), clock.get("start"))
    loader = RecordLoader(service)
    with loader.sorted_at_end("users", "namespaces"):
        for index, item in enumerate(data.get("users") or []):
            _located(f"users[{index}]", loader.user, item, f"users[{index}]")
    for index, item in enumerate(data.get("groups") or []):
        _located(f"groups[{index}]", loader.group, item, None, f"groups[{index}]")
    with loader.sorted_at_end("projects"):
        for index, item in enumerate(data.get("projects") or []):
            _located(f"projects[{index}]", loader.project, item, f"projects[{index}]")
    for index, item in enumerate(data.get("faults") or []):
        _located(f"faults[{index}]", lambda i=item: service.faults.add(**i))
    for index, item in enumerate(data.get("rate_limits") or []):
        _located(f"rate_limits[{index}]", lambda i=item: service.rate_limits.add(**i))
    for name, section in service.sections.sections("top").items():
        if name in data and section.handler is not None:
            _located(name, section.handler, service, data)
    _located("", loader.run_sections)
