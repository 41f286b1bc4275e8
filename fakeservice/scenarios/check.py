"""``fakeservice check``: every problem of a scenario, each with its line.

Three passes, each only when the previous found nothing: the structure (keys, types,
values) of the file and of what it extends; a trial load into an empty service (unknown
users, groups or namespaces, duplicates, model validation); and the steps' references
(users named by ``as``, variables used before a step saves them, restores of
snapshots never taken, CI actions without the CI area, moving a clock that is not in
``manual`` mode at that step).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fakeservice.control.runner import RunnerUnavailable, runner_of
from fakeservice.scenarios.loader import chain
from fakeservice.scenarios.problems import Problem, ScenarioError, with_lines
from fakeservice.scenarios.sections import using
from fakeservice.scenarios.source import ScenarioDocument
from fakeservice.users.models import find_by_username

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_CLOCK_MOVES = ("advance_clock", "set_clock")
# control-plane requests after which the clock's mode is not known statically
_CLOCK_CHANGING = ("/_fake/clock", "/_fake/restore", "/_fake/reset", "/_fake/scenario")


def check(source: Any) -> list[Problem]:
    """The problems of the scenario ``source`` (a path, name, mapping or document)."""
    from fakeservice.service import FakeService

    service = FakeService(None)  # every area, so the scenario may use all their keys
    try:
        with using(service.sections):
            docs = chain(source)
    except ScenarioError as exc:
        return exc.details
    try:
        service.load_scenario(docs[-1])
    except ScenarioError as exc:
        return exc.details
    doc = docs[-1]
    problems = [*step_problems(doc, service), *clock_problems(doc, service.clock.mode)]
    problems.sort(key=lambda p: _step_index(p.where))
    return with_lines(problems, doc.node, doc.file)


def _step_index(where: str) -> int:
    found = re.match(r"steps\[(\d+)\]", where)
    return int(found.group(1)) + 1 if found else 0


def clock_problems(doc: ScenarioDocument, initial: str) -> list[Problem]:
    """Steps that move the clock while its mode (followed through ``clock_mode``,
    ``snapshot``/``restore`` and ``reset`` steps) is not ``manual``."""
    problems: list[Problem] = []
    mode: str | None = initial
    kept: dict[str, str | None] = {}
    for index, step in enumerate(doc.data.get("steps") or []):
        request = step.get("request")
        if "clock_mode" in step:
            mode = str(step["clock_mode"])
        elif "snapshot" in step:
            kept[str(step["snapshot"])] = mode
        elif "restore" in step:
            mode = kept.get(str(step["restore"]))
        elif step.get("reset") is True:
            mode = initial
        elif isinstance(request, dict) and str(request.get("path", "")).startswith(_CLOCK_CHANGING):
            mode = None
        for action in _CLOCK_MOVES:
            if action in step and mode is not None and mode != "manual":
                problems.append(
                    Problem(
                        f"the clock is {mode} at this step and only a manual clock moves; "
                        "add a `clock_mode: manual` step before it",
                        f"steps[{index}].{action}",
                    )
                )
    return problems


def check_file(path: str | Path) -> list[Problem]:
    return check(Path(path))


def _variables(value: Any) -> set[str]:
    if isinstance(value, str):
        return set(_VAR.findall(value))
    if isinstance(value, list):
        return set().union(*(_variables(v) for v in value)) if value else set()
    if isinstance(value, dict):
        return set().union(*(_variables(v) for v in value.values())) if value else set()
    return set()


def _known_user(service: Any, name: Any) -> bool:
    if not isinstance(name, str) or "${" in name:
        return True
    return find_by_username(service.store, name) is not None


def step_problems(doc: ScenarioDocument, service: Any) -> list[Problem]:
    problems: list[Problem] = []
    saved: set[str] = set()
    snapshots: set[str] = set()
    defaults = doc.data.get("step_defaults") or {}
    for key in ("as", "sudo"):
        name = defaults.get(key)
        if (
            isinstance(name, str)
            and "${" not in name
            and find_by_username(service.store, name) is None
        ):
            problems.append(Problem(f"no user {name!r} in the scenario", f"step_defaults.{key}"))
    for index, step in enumerate(doc.data.get("steps") or []):
        where = f"steps[{index}]"
        for name in sorted(_variables({k: v for k, v in step.items() if k != "save"}) - saved):
            problems.append(Problem(f"${{{name}}} is used before any step saves it", where))
        request = step.get("request")
        if isinstance(request, dict) and not _known_user(service, request.get("as")):
            problems.append(
                Problem(f"no user {request['as']!r} in the scenario", f"{where}.request.as")
            )
        saved |= {str(name) for name in (step.get("save") or {})}
        if "snapshot" in step:
            snapshots.add(str(step["snapshot"]))
        if "restore" in step and str(step["restore"]) not in snapshots:
            problems.append(
                Problem(
                    f"no earlier step takes a snapshot named {step['restore']!r}",
                    f"{where}.restore",
                )
            )
        if "finish_job" in step:
            try:
                runner_of(service)
            except RunnerUnavailable as exc:
                problems.append(Problem(str(exc), f"{where}.finish_job"))
    return problems
