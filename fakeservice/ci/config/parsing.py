"""The entry points :func:`parse` and :func:`parse_child`: from configuration text to a
:class:`Config`, running the stages in the service's order.
"""

from __future__ import annotations

from collections.abc import Mapping

import yaml

from .errors import _ConfigError
from .expand import _expand_extends, _inject_edge_stages, _resolve_references
from .includes import _Includer
from .logical import _logical_error
from .normalize import _normalize, _rules, _variables
from .records import Config, TriggerSpec
from .validate import _validate
from .values import _is_strings, _plain, _stringify_keys
from .vocabulary import (
    DEFAULT_STAGES,
    MSG_EMPTY,
    MSG_FORMAT,
    MSG_TOO_BIG,
    ArtifactReader,
    LocalReader,
    ProjectReader,
)
from .yaml_loader import _load_yaml, _too_big, _yaml_error_text


def parse(
    content: str | None,
    *,
    read_local: LocalReader | None = None,
    read_project: ProjectReader | None = None,
    read_artifact: ArtifactReader | None = None,
    project_path: str | None = None,
    sha: str | None = None,
    project_url: str | None = None,
    variables: Mapping[str, str] | None = None,
) -> Config:
    """Expand, validate and normalise a CI configuration (see the module docstring).

    ``read_local(path)`` returns a file of the project at the pipeline's commit, or None
    when it does not exist; without it ``include: local`` fails as on the instance-level
    lint (``does not have project!``). ``project_path``, ``sha`` and ``project_url`` only
    fill the ``includes`` metadata. ``variables``, when given, decide ``include:rules``.
    """
    if content is None or not content.strip():
        return Config(errors=(MSG_EMPTY,), merged=None)
    try:
        data = _load_yaml(content)
    except yaml.YAMLError as exc:
        return Config(errors=(_yaml_error_text(exc, content),))
    if _too_big(data):
        return Config(errors=(MSG_TOO_BIG,))
    if not isinstance(data, dict):
        return Config(errors=(MSG_FORMAT,))
    includer = _Includer(
        read_local=read_local,
        read_project=read_project,
        read_artifact=read_artifact,
        project_path=project_path,
        sha=sha,
        project_url=project_url,
        variables=variables,
    )
    try:
        expanded = includer.expand(_stringify_keys(data))
        expanded = _resolve_references(_expand_extends(expanded))
    except _ConfigError as exc:
        return Config(errors=(str(exc),))
    expanded = _inject_edge_stages(expanded)
    includes = tuple(includer.records)
    errors, warnings = _validate(expanded)
    stages_raw = expanded.get("stages")
    stages = tuple(stages_raw) if _is_strings(stages_raw) else DEFAULT_STAGES
    if errors:
        return Config(tuple(errors), tuple(warnings), expanded, stages, includes=includes)
    workflow = expanded.get("workflow")
    workflow_rules = _rules(workflow.get("rules")) if isinstance(workflow, dict) else None
    jobs = _normalize(expanded, stages, workflow_rules is not None)
    logical = _logical_error(jobs, stages)
    if logical:
        return Config((logical,), tuple(warnings), expanded, stages, includes=includes)
    return Config(
        errors=(),
        warnings=tuple(warnings),
        merged=expanded,
        stages=stages,
        jobs=tuple(jobs),
        variables=_variables(expanded.get("variables")),
        workflow_rules=workflow_rules,
        includes=includes,
    )


def parse_child(
    trigger: TriggerSpec,
    *,
    read_local: LocalReader | None = None,
    read_project: ProjectReader | None = None,
    read_artifact: ArtifactReader | None = None,
    project_path: str | None = None,
    sha: str | None = None,
    project_url: str | None = None,
) -> Config:
    """The configuration of the child pipeline a bridge's ``trigger:include`` describes."""
    content = yaml.safe_dump({"include": [_plain(item) for item in trigger.include]})
    return parse(
        content,
        read_local=read_local,
        read_project=read_project,
        read_artifact=read_artifact,
        project_path=project_path,
        sha=sha,
        project_url=project_url,
    )
