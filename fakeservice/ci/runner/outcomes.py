"""The simulated runner's settings and scripted job outcomes, kept in the store.

Settings (mode, pickup delay and pipelines on push, for the service and per project) and
outcomes live in ``store.extras["ci_runner"]`` so that snapshots, restores and resets
carry them.

An outcome says what the runner does with a job: final ``status`` (success, failed,
canceled), ``failure_reason``, ``duration`` in seconds, ``log`` lines, ``artifacts``
(path -> content) and ``coverage``. Outcomes are looked up by job id first, then by job
name within the project, then by job name for the whole service; a name may map to a
list of outcomes, one per attempt (the last one repeats). Without any, the job succeeds
after 30 seconds with a short log.

An outcome without ``artifacts`` (``None``) lets the runner make default files for the
job's ``artifacts:`` (:mod:`fakeservice.ci.artifacts.synthesis`); ``artifacts: {}`` means none.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from fakeservice.ci.models import Job
from fakeservice.core.store import Store

MODES: tuple[str, ...] = ("manual", "timed", "instant")
OUTCOME_STATUSES: tuple[str, ...] = ("success", "failed", "canceled")
DEFAULT_MODE = "manual"
DEFAULT_PICKUP_SECONDS = 5.0
DEFAULT_DURATION = 30.0
DEFAULT_FAILURE_REASON = "script_failure"
_KEY = "ci_runner"


class OutcomeError(ValueError):
    """An outcome or runner setting that does not make sense (the message says why)."""


@attrs.frozen(slots=True)
class Outcome:
    """What the simulated runner does with one job."""

    status: str = "success"
    failure_reason: str | None = None
    duration: float = DEFAULT_DURATION
    log: tuple[str, ...] | None = None
    artifacts: Mapping[str, bytes] | None = None
    coverage: float | None = None


DEFAULT_OUTCOME = Outcome()


@attrs.define(slots=True)
class Settings:
    mode: str = DEFAULT_MODE
    pickup_seconds: float = DEFAULT_PICKUP_SECONDS
    projects: dict[int, tuple[str, float]] = attrs.field(factory=dict)
    pipelines_on_push: bool | None = None  # None: never set (off)
    push_projects: dict[int, bool] = attrs.field(factory=dict)
    by_name: dict[tuple[int | None, str], tuple[Outcome, ...]] = attrs.field(factory=dict)
    by_id: dict[int, Outcome] = attrs.field(factory=dict)


_DEFAULTS = Settings()


def settings(store: Store) -> Settings:
    """The settings, for reading (the defaults until something was set)."""
    found = store.extras.get(_KEY)
    return found if isinstance(found, Settings) else _DEFAULTS


def _writable(store: Store) -> Settings:
    found = store.extras.get(_KEY)
    if not isinstance(found, Settings):
        found = store.extras[_KEY] = Settings()
    return found


def mode_of(store: Store, project_id: int) -> tuple[str, float]:
    """The runner mode and pickup delay that apply to a project."""
    current = settings(store)
    return current.projects.get(project_id, (current.mode, current.pickup_seconds))


def any_instant(store: Store) -> bool:
    """Whether the service or some project uses the ``instant`` mode."""
    current = settings(store)
    return current.mode == "instant" or any(m == "instant" for m, _ in current.projects.values())


def pipelines_on_push(store: Store, project_id: int) -> bool:
    """Whether pushes to a project create pipelines (its own setting, else the service's)."""
    current = settings(store)
    return current.push_projects.get(project_id, bool(current.pipelines_on_push))


def configure(
    store: Store,
    *,
    mode: str | None = None,
    pickup_seconds: float | None = None,
    on_push: bool | None = None,
    project_id: int | None = None,
) -> None:
    """Set what is given (mode, pickup delay, pipelines on push) for the whole service,
    or for one project (``project_id``); the rest stays as it is."""
    if mode is not None and mode not in MODES:
        raise OutcomeError(f"unknown runner mode {mode!r}; use one of {', '.join(MODES)}")
    if pickup_seconds is not None and (not _number(pickup_seconds) or pickup_seconds < 0):
        raise OutcomeError("pickup_seconds must be a number of seconds, 0 or more")
    if on_push is not None and not isinstance(on_push, bool):
        raise OutcomeError("pipelines_on_push must be true or false")
    current = _writable(store)
    if project_id is None:
        current.mode = mode or current.mode
        if pickup_seconds is not None:
            current.pickup_seconds = float(pickup_seconds)
        if on_push is not None:
            current.pipelines_on_push = on_push
        return
    if mode is not None or pickup_seconds is not None:
        old_mode, old_pickup = mode_of(store, project_id)
        current.projects[project_id] = (
            mode or old_mode,
            float(pickup_seconds) if pickup_seconds is not None else old_pickup,
        )
    if on_push is not None:
        current.push_projects[project_id] = on_push


def set_outcomes(
    store: Store, name: str, outcomes: tuple[Outcome, ...], *, project_id: int | None = None
) -> None:
    _writable(store).by_name[(project_id, name)] = outcomes


def set_job_outcome(store: Store, job_id: int, outcome: Outcome) -> None:
    _writable(store).by_id[job_id] = outcome


def outcome_for(store: Store, job: Job) -> Outcome:
    current = settings(store)
    found = current.by_id.get(job.id)
    if found is not None:
        return found
    for key in ((job.project_id, job.name), (None, job.name)):
        listed = current.by_name.get(key)
        if listed:
            return listed[min(job.attempt, len(listed)) - 1]
    return DEFAULT_OUTCOME


# -- reading outcomes from data (scenarios, control plane) -----------------------------------


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _content(value: Any, where: str) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    raise OutcomeError(f"{where} must be text")


OUTCOME_KEYS = ("status", "failure_reason", "duration", "log", "artifacts", "coverage")


def _artifacts(artifacts: Any, where: str) -> dict[str, bytes] | None:
    """``artifacts`` of an outcome: None when not given (default files), else path -> bytes."""
    if artifacts is None:
        return None
    if not isinstance(artifacts, Mapping):
        raise OutcomeError(f"{where}.artifacts must map paths to contents")
    return {
        str(path): _content(content, f"{where}.artifacts[{path}]")
        for path, content in artifacts.items()
    }


def outcome_from_data(data: Any, where: str = "outcome") -> Outcome:
    """An :class:`Outcome` from a mapping; raises :class:`OutcomeError`."""
    if isinstance(data, str):
        data = {"status": data}
    if not isinstance(data, Mapping):
        raise OutcomeError(f"{where} must be a mapping or a status")
    unknown = sorted(str(k) for k in data if k not in OUTCOME_KEYS)
    if unknown:
        raise OutcomeError(f"{where} has unknown keys: {', '.join(unknown)}")
    status = data.get("status", "success")
    if status not in OUTCOME_STATUSES:
        raise OutcomeError(f"{where}.status must be one of {', '.join(OUTCOME_STATUSES)}")
    reason = data.get("failure_reason")
    if reason is not None and not isinstance(reason, str):
        raise OutcomeError(f"{where}.failure_reason must be text")
    duration = data.get("duration", DEFAULT_DURATION)
    if not _number(duration) or duration < 0:
        raise OutcomeError(f"{where}.duration must be a number of seconds, 0 or more")
    log = data.get("log")
    if log is not None:
        if isinstance(log, str):
            log = log.splitlines()
        if not isinstance(log, list) or not all(isinstance(line, str) for line in log):
            raise OutcomeError(f"{where}.log must be a list of lines")
        log = tuple(log)
    files = _artifacts(data.get("artifacts"), where)
    coverage = data.get("coverage")
    if coverage is not None and (not _number(coverage) or not 0 <= coverage <= 100):
        raise OutcomeError(f"{where}.coverage must be a percentage, from 0 to 100")
    return Outcome(
        status=status,
        failure_reason=reason,
        duration=float(duration),
        log=log,
        artifacts=files,
        coverage=None if coverage is None else float(coverage),
    )


def outcomes_from_data(data: Any, where: str = "outcome") -> tuple[Outcome, ...]:
    """One outcome, or a list of them (one per attempt)."""
    if isinstance(data, list):
        if not data:
            raise OutcomeError(f"{where} must not be an empty list")
        return tuple(outcome_from_data(item, f"{where}[{i}]") for i, item in enumerate(data))
    return (outcome_from_data(data, where),)


def settings_view(store: Store) -> dict[str, Any]:
    """The runner settings as plain data (for the control plane): the service's, then
    each project that has its own (with the mode, pickup delay and push setting that
    apply to it)."""
    current = settings(store)
    service_push = bool(current.pipelines_on_push)
    out: dict[str, Any] = {
        "mode": current.mode,
        "pickup_seconds": current.pickup_seconds,
        "pipelines_on_push": service_push,
    }
    entries: dict[str, Any] = {}
    for pid in sorted(set(current.projects) | set(current.push_projects)):
        mode, pickup = mode_of(store, pid)
        push = current.push_projects.get(pid)
        entries[str(pid)] = {
            "mode": mode,
            "pickup_seconds": pickup,
            "pipelines_on_push": service_push if push is None else bool(push),
        }
    out["projects"] = entries
    return out
