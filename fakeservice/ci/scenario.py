"""The CI part of scenarios: the runner mode, scripted outcomes, declared pipelines, and
replay actions.

.. code-block:: yaml

    runner: {mode: timed, pickup_seconds: 5, outcomes: {lint: {status: failed}}}
    projects:
      - path: acme/website
        files: {.gitlab-ci.yml: "..."}
        ci:
          runner: {mode: manual, pipelines_on_push: true}
          outcomes:
            test: {status: failed, failure_reason: script_failure, duration: 42,
                   log: ["1 failed"], artifacts: {report.xml: "<testsuite/>"}}
            flaky: [{status: failed}, {status: success}]   # one per attempt
          pipelines:
            - {ref: main, variables: {DEPLOY: "1"}, run: complete}
            - {ref: main, config: {build: {script: [make]}}, user: alice}

A pipeline's jobs come from the project's CI file at ``ref`` or from ``config`` (a CI
configuration as a mapping or as YAML text). ``run: complete`` runs it to completion when
the scenario loads; ``run: none`` (the default) leaves it to the runner's mode.

The scenario's own content (``files``, ``commits``...) is not a push: it creates no
pipelines whatever ``pipelines_on_push`` says; declare them under ``pipelines``.

Replay actions: ``runner: {mode, pickup_seconds, pipelines_on_push, project}``,
``job_outcome: {job_name | job_id, project, status, ...}``, ``start_job: <id>``,
``run_pipeline: <id>`` (``finish_job`` is the replay's own).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import yaml

from fakeservice.ci.pipelines.creation import create_planned, parse_at
from fakeservice.ci.repo import ci_config_path, read_text, resolve_ref, synthetic_ref
from fakeservice.ci.runner import outcomes, simulation
from fakeservice.core.errors import ValidationFailed
from fakeservice.projects.models import Project
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.references import named_user
from fakeservice.scenarios.schema import (
    ANY,
    BOOL,
    ID_REF,
    STR,
    Choice,
    Field,
    ListOf,
    MapOf,
    OneOf,
    Range,
    Record,
)
from fakeservice.scenarios.sections import Sections

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

RUN_VALUES = ("complete", "none")
ID = ID_REF  # an id, or a ``${variable}`` that a replay fills in

OUTCOME = Record(
    "outcome",
    {
        "status": Field(Choice(outcomes.OUTCOME_STATUSES), "final status (default success)"),
        "failure_reason": Field(STR, "failure reason of a failed job (default script_failure)"),
        "duration": Field(Range(0, None, integer=False), "seconds the job runs (default 30)"),
        "log": Field(OneOf((ListOf(STR), STR)), "log lines"),
        "artifacts": Field(
            MapOf(STR),
            "files the job produces: path -> content (default: files made for its "
            "`artifacts:`; `{}`: none)",
        ),
        "coverage": Field(Range(0, 100, integer=False), "coverage percentage"),
    },
    "What the simulated runner does with a job (see docs/ci.md); a status alone is "
    "`{status: ...}`.",
)
OUTCOMES = MapOf(OneOf((OUTCOME, ListOf(OUTCOME), Choice(outcomes.OUTCOME_STATUSES))))
MODE_FIELDS = {
    "mode": Field(Choice(outcomes.MODES), "manual, timed or instant"),
    "pickup_seconds": Field(Range(0, None, integer=False), "timed: delay before pickup (5)"),
    "pipelines_on_push": Field(
        BOOL, "pushes of branches and tags create `push` pipelines (default false)"
    ),
}
RUNNER = Record(
    "runner",
    {**MODE_FIELDS, "outcomes": Field(OUTCOMES, "outcomes by job name, in every project")},
    "The simulated CI runner, for the whole service (see docs/ci.md).",
)
PIPELINE = Record(
    "pipeline",
    {
        "ref": Field(STR, "branch or tag (default: the default branch)"),
        "variables": Field(MapOf(STR), "pipeline variables"),
        "run": Field(Choice(RUN_VALUES), "complete: run it when loading; none: leave it"),
        "config": Field(OneOf((MapOf(ANY), STR)), "CI configuration instead of the CI file"),
        "user": Field(STR, "username of the user who runs it (default: the creator)"),
        "source": Field(STR, "pipeline source (default push)"),
    },
    "A pipeline created when the scenario loads, from the CI file at `ref` or `config`.",
)
CI = Record(
    "ci",
    {
        "runner": Field(
            Record(
                "project_runner",
                MODE_FIELDS,
                "The runner settings of one project (they win over the service's).",
            ),
            "this project's runner settings",
        ),
        "outcomes": Field(OUTCOMES, "outcomes by job name in this project"),
        "pipelines": Field(ListOf(PIPELINE), "pipelines to create, in order"),
    },
    "A project's CI: runner settings, scripted outcomes and pipelines made at load.",
)


def _error(where: str, message: str) -> ScenarioError:
    return ScenarioError([(where, message)])


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _error(where, "must be a mapping")
    return value


def _mode(
    service: FakeService, spec: Mapping[str, Any], where: str, project: Project | None
) -> None:
    try:
        outcomes.configure(
            service.store,
            mode=spec.get("mode"),
            pickup_seconds=spec.get("pickup_seconds"),
            on_push=spec.get("pipelines_on_push"),
            project_id=project.id if project else None,
        )
    except outcomes.OutcomeError as exc:
        raise _error(where, str(exc)) from exc


def _outcomes(service: FakeService, spec: Any, where: str, project: Project | None) -> None:
    if not isinstance(spec, Mapping):
        raise _error(where, "must map job names to outcomes")
    for name, data in spec.items():
        try:
            listed = outcomes.outcomes_from_data(data, f"{where}.{name}")
        except outcomes.OutcomeError as exc:
            raise _error(where, str(exc)) from exc
        outcomes.set_outcomes(
            service.store, str(name), listed, project_id=project.id if project else None
        )


def _pipeline(service: FakeService, project: Project, spec: Any, where: str) -> None:
    spec = _mapping(spec, where)
    store = service.store
    now = service.clock.now()
    ref = str(spec.get("ref") or project.default_branch or "main")
    run = spec.get("run", "none")
    if run not in RUN_VALUES:
        raise _error(f"{where}.run", f"must be one of {', '.join(RUN_VALUES)}")
    variables = spec.get("variables") or {}
    if not isinstance(variables, Mapping):
        raise _error(f"{where}.variables", "must map names to values")
    user_id = project.creator_id
    if spec.get("user") is not None:
        user_id = named_user(store, spec["user"], f"{where}.user").id
    info = resolve_ref(store, project, ref)
    config_spec = spec.get("config")
    if config_spec is not None:
        content = config_spec if isinstance(config_spec, str) else yaml.safe_dump(config_spec)
        if isinstance(info, str):
            info = synthetic_ref(project, ref, now)
    else:
        if isinstance(info, str):
            raise _error(f"{where}.ref", f"{info}: {ref!r}; give config: for a ref without commits")
        content = read_text(store, project, info.sha, ci_config_path(project))
        if content is None:
            raise _error(where, f"no {ci_config_path(project)} at {ref}; give config:")
    config = parse_at(store, project, info.sha, content)
    try:
        pipeline = create_planned(
            store,
            project,
            info,
            config,
            source=str(spec.get("source") or "push"),
            user_id=user_id,
            variables=[{"key": str(k), "value": str(v)} for k, v in variables.items()],
            now=now,
        )
    except ValidationFailed as exc:
        if not config.valid:
            return
        raise _error(where, "; ".join(exc.body["message"]["base"])) from exc
    if run == "complete":
        simulation.run_pipeline(store, pipeline, now)


def load_runner(service: FakeService, data: Mapping[str, Any]) -> None:
    """The top-level ``runner`` section: service-wide mode and outcomes."""
    spec = _mapping(data["runner"] or {}, "runner")
    _mode(service, spec, "runner", None)
    if "outcomes" in spec:
        _outcomes(service, spec["outcomes"], "runner.outcomes", None)
    service.runner.attach_clock()


def load_project_ci(service: FakeService, project: Project, value: Any, where: str) -> None:
    """The ``projects[].ci`` section: the project's mode, outcomes and pipelines."""
    spec = _mapping(value or {}, where)
    if "runner" in spec:
        _mode(
            service, _mapping(spec["runner"] or {}, f"{where}.runner"), f"{where}.runner", project
        )
    if "outcomes" in spec:
        _outcomes(service, spec["outcomes"], f"{where}.outcomes", project)
    pipelines = spec.get("pipelines") or []
    if not isinstance(pipelines, list):
        raise _error(f"{where}.pipelines", "must be a list")
    for index, pipeline in enumerate(pipelines):
        _pipeline(service, project, pipeline, f"{where}.pipelines[{index}]")
    simulation.settle(service.store, service.clock.now())


# -- replay actions ----------------------------------------------------------------------------


def _runner_action(service: FakeService, value: Any, _variables: dict[str, Any]) -> None:
    spec = _mapping(value, "runner")
    service.runner.set_mode(
        spec.get("mode"),
        pickup_seconds=spec.get("pickup_seconds"),
        project=spec.get("project"),
        pipelines_on_push=spec.get("pipelines_on_push"),
    )


def _outcome_action(service: FakeService, value: Any, _variables: dict[str, Any]) -> None:
    spec = dict(_mapping(value, "job_outcome"))
    job_id = spec.pop("job_id", None)
    job_name = spec.pop("job_name", None)
    project = spec.pop("project", None)
    service.runner.set_outcome(
        job_name,
        spec,
        job_id=_id(job_id, "job_outcome.job_id") if job_id is not None else None,
        project=project,
    )


def _id(value: Any, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    raise ValueError(f"{what} must be an id, got {value!r}")


def _start_action(service: FakeService, value: Any, _variables: dict[str, Any]) -> None:
    service.runner.start(_id(value, "start_job"))


def _run_action(service: FakeService, value: Any, _variables: dict[str, Any]) -> None:
    service.runner.run_all(_id(value, "run_pipeline"))


def register(found: Sections) -> None:
    """Register the CI sections and actions in ``found`` (the first registration stays)."""
    found.register_section("runner", load_runner, schema=RUNNER, doc="the simulated CI runner")
    found.register_project_section(
        "ci", load_project_ci, schema=CI, doc="runner mode, job outcomes and pipelines"
    )
    found.register_action(
        "runner",
        _runner_action,
        schema=Record(
            "runner_action",
            {**MODE_FIELDS, "project": Field(STR, "a project's full path (default: the service)")},
            "Change the runner settings during a replay.",
        ),
        doc="set the runner mode (for the service or a project)",
    )
    found.register_action(
        "job_outcome",
        _outcome_action,
        schema=Record(
            "job_outcome",
            {
                **OUTCOME.fields,
                "job_name": Field(STR, "every job of this name (with `project`: in it)"),
                "job_id": Field(ID, "one job, by id (or `${variable}`)"),
                "project": Field(STR, "with `job_name`: a project's full path"),
            },
            "Script a job's outcome during a replay: by `job_id` or `job_name`.",
        ),
        doc="script a job's outcome",
    )
    found.register_action(
        "start_job", _start_action, schema=ID, doc="pick up a pending job (its id)"
    )
    found.register_action(
        "run_pipeline", _run_action, schema=ID, doc="run a pipeline to completion (its id)"
    )
