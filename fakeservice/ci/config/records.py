"""Attrs records of the CI configuration engine: the parsed :class:`Config` with its
:class:`JobDef` list, the :class:`PipelinePlan` with its :class:`JobSpec` list, and the
parts they are made of (:class:`Need`, :class:`Rule`, :class:`ArtifactsSpec`,
:class:`TriggerSpec`, ...).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs
import yaml

from .values import _plain
from .vocabulary import DEFAULT_ARTIFACTS_EXPIRE_IN, DEFAULT_STAGES


@attrs.frozen(slots=True)
class Reference:
    """An unresolved ``!reference [key, key, ...]`` tag."""

    path: tuple[str, ...]

    def __str__(self) -> str:
        return f"!reference {json.dumps(list(self.path))}"


@attrs.frozen(slots=True)
class Need:
    """One entry of ``needs:`` (a job of the same pipeline)."""

    name: str
    artifacts: bool = True
    optional: bool = False


@attrs.frozen(slots=True)
class ArtifactsSpec:
    """``artifacts:`` of a job; ``expire_in_seconds`` is None for ``never``."""

    paths: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    name: str | None = None
    untracked: bool = False
    when: str = "on_success"
    expire_in: str | None = None
    expire_in_seconds: int | None = DEFAULT_ARTIFACTS_EXPIRE_IN
    reports: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    expose_as: str | None = None
    public: bool = True

    @property
    def junit(self) -> tuple[str, ...]:
        return self.reports.get("junit", ())


@attrs.frozen(slots=True)
class TriggerSpec:
    """``trigger:`` of a bridge: a downstream project, or a child pipeline (``include``)."""

    project: str | None = None
    branch: str | None = None
    strategy: str | None = None
    include: tuple[Mapping[str, Any], ...] = ()
    forward: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def child(self) -> bool:
        return bool(self.include)

    @property
    def local_includes(self) -> tuple[str, ...]:
        return tuple(str(item["local"]) for item in self.include if "local" in item)


@attrs.frozen(slots=True)
class EnvironmentSpec:
    name: str
    url: str | None = None
    action: str = "start"
    on_stop: str | None = None
    deployment_tier: str | None = None


@attrs.frozen(slots=True)
class RetrySpec:
    max: int
    when: tuple[str, ...] = ("always",)
    exit_codes: tuple[int, ...] = ()


@attrs.frozen(slots=True)
class Rule:
    """One entry of ``rules:`` or ``workflow:rules:``."""

    if_: str | None = None
    changes: bool = False
    exists: tuple[str, ...] | None = None
    when: str | None = None
    allow_failure: bool | None = None
    variables: Mapping[str, str] = attrs.field(factory=dict)
    needs: tuple[Need, ...] | None = None
    start_in: int | None = None
    interruptible: bool | None = None
    keys: tuple[str, ...] = ()


@attrs.frozen(slots=True)
class JobDef:
    """A visible job of a valid configuration, defaults and inheritance applied."""

    name: str
    kind: str  # "build" or "bridge"
    stage: str
    stage_idx: int
    index: int
    when: str
    allow_failure: bool
    allow_failure_exit_codes: tuple[int, ...]
    script: tuple[str, ...]
    before_script: tuple[str, ...]
    after_script: tuple[str, ...]
    tags: tuple[str, ...]
    image: str | None
    services: tuple[str, ...]
    variables: Mapping[str, str]
    inherited_variables: Mapping[str, str]
    rules: tuple[Rule, ...] | None
    only: Mapping[str, Any] | None
    except_: Mapping[str, Any] | None
    needs: tuple[Need, ...] | None
    dependencies: tuple[str, ...] | None
    artifacts: ArtifactsSpec | None
    environment: EnvironmentSpec | None
    coverage: str | None
    retry: RetrySpec | None
    timeout: int | None
    start_in: int | None
    trigger: TriggerSpec | None
    interruptible: bool | None
    resource_group: str | None
    parallel: tuple[int, int] | None
    group: str


@attrs.frozen(slots=True)
class Config:
    """The result of :func:`parse`. ``jobs`` is empty unless the configuration is valid."""

    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    merged: Mapping[str, Any] | None = None
    stages: tuple[str, ...] = DEFAULT_STAGES
    jobs: tuple[JobDef, ...] = ()
    variables: Mapping[str, str] = attrs.field(factory=dict)
    workflow_rules: tuple[Rule, ...] | None = None
    includes: tuple[Mapping[str, Any], ...] = ()

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def merged_yaml(self) -> str | None:
        """The expanded configuration as YAML (``---`` first), None when it did not load."""
        if self.merged is None:
            return None
        return yaml.safe_dump(
            _plain(self.merged),
            sort_keys=False,
            default_flow_style=False,
            explicit_start=True,
            allow_unicode=True,
        )

    def job(self, name: str) -> JobDef | None:
        for job in self.jobs:
            if job.name == name:
                return job
        return None


@attrs.frozen(slots=True)
class JobSpec:
    """One job (or bridge, ``kind == "bridge"``) a pipeline should create."""

    name: str
    kind: str
    stage: str
    stage_idx: int
    when: str
    allow_failure: bool
    allow_failure_exit_codes: tuple[int, ...]
    needs: tuple[Need, ...] | None
    dependencies: tuple[str, ...] | None
    variables: Mapping[str, str]
    yaml_variables: Mapping[str, str]
    tag_list: tuple[str, ...]
    script: tuple[str, ...]
    before_script: tuple[str, ...]
    after_script: tuple[str, ...]
    image: str | None
    services: tuple[str, ...]
    artifacts: ArtifactsSpec | None
    trigger: TriggerSpec | None
    environment: EnvironmentSpec | None
    coverage_regex: str | None
    retry: RetrySpec | None
    timeout: int | None
    start_in: int | None
    interruptible: bool | None
    resource_group: str | None
    parallel: tuple[int, int] | None

    @property
    def scheduling_type(self) -> str:
        return "stage" if self.needs is None else "dag"

    @property
    def need_names(self) -> tuple[str, ...] | None:
        return None if self.needs is None else tuple(n.name for n in self.needs)

    @property
    def environment_name(self) -> str | None:
        return self.environment.name if self.environment else None


@attrs.frozen(slots=True)
class PipelinePlan:
    """What :func:`plan` decided: the stages used and the jobs to create, in stage order."""

    stages: tuple[str, ...]
    jobs: tuple[JobSpec, ...]
    workflow_variables: Mapping[str, str] = attrs.field(factory=dict)
