"""The interface the control plane and replays use to drive CI jobs.

The CI area attaches an object satisfying :class:`Runner` as ``service.runner`` (through
``SERVICE_EXTENSIONS``). Until it does, :func:`runner_of` fails with a plain message.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

FINISH_STATUSES = ("success", "failed", "canceled", "skipped")


class RunnerUnavailable(LookupError):
    """The service has no CI runner (the CI area is not installed)."""


@runtime_checkable
class Runner(Protocol):
    def finish(self, job_id: int, status: str) -> Any:
        """Move job ``job_id`` to ``status`` (success, failed, canceled...)."""
        ...


@runtime_checkable
class JobFinder(Protocol):
    def find_job(self, project: str, name: str, pipeline: int | None = None) -> int:
        """The id of job ``name`` in ``project`` (a full path), in pipeline ``pipeline``
        (an iid) or the latest one."""
        ...


def runner_of(service: Any) -> Runner:
    runner = getattr(service, "runner", None)
    if runner is None or not isinstance(runner, Runner):
        raise RunnerUnavailable(
            "finishing a job needs the CI area's runner (service.runner), "
            "which this build of fakeservice does not have"
        )
    return runner


def find_job(service: Any, project: str, name: str, pipeline: int | None = None) -> int:
    runner = runner_of(service)
    if not isinstance(runner, JobFinder):
        raise RunnerUnavailable(
            "this runner cannot look jobs up by project and name; give the job id instead"
        )
    return runner.find_job(project, name, pipeline)
