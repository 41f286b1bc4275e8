"""Logical validation of the normalised jobs (stage exists, needs, dependencies,
environments, cycles); like the service it stops at the first error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .records import EnvironmentSpec, JobDef
from .vocabulary import MSG_CIRCULAR_NEEDS


def _logical_error(jobs: Sequence[JobDef], stages: tuple[str, ...]) -> str | None:
    """The first logical error, as the service raises it (it stops at the first)."""
    by_name = {job.name: job for job in jobs}
    for job in jobs:
        if job.stage not in stages:
            return (
                f"{job.name} job: chosen stage does not exist; available stages are "
                f"{', '.join(stages)}"
            )
        for dependency in job.dependencies or ():
            error = _dependency_error(job, dependency, "dependency", by_name, stages, False)
            if error:
                return error
        for need in job.needs or ():
            error = _dependency_error(job, need.name, "need", by_name, stages, need.optional)
            if error:
                return error
        if job.environment and job.environment.on_stop:
            error = _on_stop_error(job, job.environment, by_name)
            if error:
                return error
    if _has_cycle(jobs):
        return MSG_CIRCULAR_NEEDS
    return None


def _dependency_error(
    job: JobDef,
    dependency: str,
    kind: str,
    by_name: Mapping[str, JobDef],
    stages: tuple[str, ...],
    optional: bool,
) -> str | None:
    other = by_name.get(dependency)
    if other is None:
        return None if optional else f"{job.name} job: undefined {kind}: {dependency}"
    if other.stage not in stages or stages.index(other.stage) > stages.index(job.stage):
        return f"{job.name} job: {kind} {dependency} is not defined in current or prior stages"
    return None


def _on_stop_error(
    job: JobDef, environment: EnvironmentSpec, by_name: Mapping[str, JobDef]
) -> str | None:
    on_stop = environment.on_stop or ""
    stop = by_name.get(on_stop)
    if stop is None:
        return f"{job.name} job: on_stop job {on_stop} is not defined"
    if stop.environment is None:
        return f"{job.name} job: on_stop job {on_stop} does not have environment defined"
    if stop.environment.name != environment.name:
        return f"{job.name} job: on_stop job {on_stop} have different environment name"
    if stop.environment.action != "stop":
        return f"{job.name} job: on_stop job {on_stop} needs to have action stop defined"
    return None


def _has_cycle(jobs: Sequence[JobDef]) -> bool:
    graph = {job.name: [n.name for n in job.needs or ()] for job in jobs}
    state: dict[str, int] = {}

    def visit(node: str) -> bool:
        state[node] = 1
        for child in graph.get(node, ()):
            if child not in graph:
                continue
            if state.get(child) == 1 or (state.get(child) is None and visit(child)):
                return True
        state[node] = 2
        return False

    return any(state.get(name) is None and visit(name) for name in graph)
