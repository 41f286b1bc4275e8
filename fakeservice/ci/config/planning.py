"""Pipeline planning: predefined variables, ``workflow:rules``, ``rules`` and
``only``/``except`` for one pipeline, giving a :class:`PipelinePlan` or :class:`PlanError`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from .errors import PlanError
from .expressions import _compile_pattern, evaluate_expression
from .records import Config, JobSpec, Need, PipelinePlan, Rule
from .vocabulary import MSG_FILTERED, MSG_NO_JOBS, ExistsCheck

_REF_KEYWORDS: dict[str, Callable[[bool, str], bool]] = {
    "branches": lambda tag, source: (
        not tag and source not in ("merge_request_event", "external_pull_request_event")
    ),
    "tags": lambda tag, source: tag,
    "api": lambda tag, source: source == "api",
    "external": lambda tag, source: source == "external",
    "pipelines": lambda tag, source: source in ("pipeline", "parent_pipeline"),
    "pushes": lambda tag, source: source == "push",
    "schedules": lambda tag, source: source == "schedule",
    "triggers": lambda tag, source: source == "trigger",
    "web": lambda tag, source: source == "web",
    "merge_requests": lambda tag, source: source == "merge_request_event",
    "external_pull_requests": lambda tag, source: source == "external_pull_request_event",
    "chat": lambda tag, source: source == "chat",
}


@attrs.frozen(slots=True)
class _Pipeline:
    ref: str
    tag: bool
    source: str
    project_path: str


def ref_slug(ref: str) -> str:
    """``CI_COMMIT_REF_SLUG``: lower-case, non-alphanumerics to ``-``, at most 63 characters."""
    slug = re.sub(r"[^a-z0-9]", "-", ref.lower())[:63]
    return slug.strip("-")


def predefined_variables(
    *,
    ref: str,
    tag: bool = False,
    source: str = "push",
    default_branch: str = "main",
    project_path: str = "",
    sha: str | None = None,
) -> dict[str, str]:
    """The predefined variables ``rules`` can test (a subset of the service's)."""
    variables = {
        "CI": "true",
        "CI_COMMIT_REF_NAME": ref,
        "CI_COMMIT_REF_SLUG": ref_slug(ref),
        "CI_PIPELINE_SOURCE": source,
        "CI_DEFAULT_BRANCH": default_branch,
        "CI_PROJECT_PATH": project_path,
    }
    if tag:
        variables["CI_COMMIT_TAG"] = ref
    elif source not in ("merge_request_event", "external_pull_request_event"):
        variables["CI_COMMIT_BRANCH"] = ref
    if sha:
        variables["CI_COMMIT_SHA"] = sha
        variables["CI_COMMIT_SHORT_SHA"] = sha[:8]
    return variables


def _ref_matches(pattern: str, pipeline: _Pipeline) -> bool:
    keyword = _REF_KEYWORDS.get(pattern)
    if keyword is not None:
        return keyword(pipeline.tag, pipeline.source)
    name, _, path = pattern.partition("@")
    if path and path != pipeline.project_path:
        return False
    regex = _compile_pattern(name) if name.startswith("/") else None
    if regex is not None:
        return regex.search(pipeline.ref) is not None
    return name == pipeline.ref


def _policy_results(
    policy: Mapping[str, Any], pipeline: _Pipeline, scope: Mapping[str, str]
) -> list[bool]:
    results: list[bool] = []
    if "refs" in policy:
        results.append(any(_ref_matches(str(p), pipeline) for p in policy["refs"] or ()))
    if "variables" in policy:
        results.append(any(evaluate_expression(e, scope) for e in policy["variables"] or ()))
    if "changes" in policy:
        results.append(True)
    if "kubernetes" in policy:
        results.append(False)
    return results


def _rule_matches(rule: Rule, scope: Mapping[str, str], file_exists: ExistsCheck | None) -> bool:
    if rule.if_ is not None and not evaluate_expression(rule.if_, scope):
        return False
    if rule.exists is not None and file_exists is not None:
        return any(file_exists(path) for path in rule.exists)
    return True


def _first_rule(
    rules: Iterable[Rule], scope: Mapping[str, str], file_exists: ExistsCheck | None
) -> Rule | None:
    for rule in rules:
        if _rule_matches(rule, scope, file_exists):
            return rule
    return None


def plan(
    config: Config,
    *,
    ref: str,
    tag: bool = False,
    source: str = "push",
    variables: Mapping[str, str] | None = None,
    project_variables: Mapping[str, str] | None = None,
    default_branch: str = "main",
    project_path: str = "",
    sha: str | None = None,
    predefined: Mapping[str, str] | None = None,
    file_exists: ExistsCheck | None = None,
) -> PipelinePlan:
    """Decide which jobs a pipeline for ``ref`` creates; raises :class:`PlanError`.

    Variable precedence (lowest first): predefined, global ``variables``, the matching
    ``workflow:rules`` variables, job ``variables``, the matching ``rules`` variables,
    project CI/CD variables, pipeline variables (``variables``).
    """
    if not config.valid:
        raise PlanError(config.errors)
    pipeline_vars = dict(variables or {})
    project_vars = dict(project_variables or {})
    base = predefined_variables(
        ref=ref,
        tag=tag,
        source=source,
        default_branch=default_branch,
        project_path=project_path,
        sha=sha,
    )
    base.update(predefined or {})
    workflow_vars: dict[str, str] = {}
    if config.workflow_rules is not None:
        scope = {**base, **config.variables, **project_vars, **pipeline_vars}
        matched = _first_rule(config.workflow_rules, scope, file_exists)
        if matched is None or matched.when == "never":
            raise PlanError([MSG_FILTERED])
        workflow_vars = dict(matched.variables)
    pipeline = _Pipeline(ref, tag, source, project_path)
    specs: list[JobSpec] = []
    for job in sorted(config.jobs, key=lambda j: (j.stage_idx, j.index)):
        yaml_vars = {**job.inherited_variables, **workflow_vars, **job.variables}
        scope = {**base, **yaml_vars, **project_vars, **pipeline_vars}
        when, allow_failure = job.when, job.allow_failure
        needs, start_in, interruptible = job.needs, job.start_in, job.interruptible
        if job.rules is not None:
            rule = _first_rule(job.rules, scope, file_exists)
            if rule is None or rule.when == "never":
                continue
            when = rule.when or job.when
            if rule.allow_failure is not None:
                allow_failure = rule.allow_failure
            yaml_vars.update(rule.variables)
            needs = rule.needs if rule.needs is not None else needs
            start_in = rule.start_in if rule.start_in is not None else start_in
            interruptible = rule.interruptible if rule.interruptible is not None else interruptible
        else:
            if job.only is not None and not all(_policy_results(job.only, pipeline, scope)):
                continue
            if job.except_ is not None and any(_policy_results(job.except_, pipeline, scope)):
                continue
        specs.append(
            JobSpec(
                name=job.name,
                kind=job.kind,
                stage=job.stage,
                stage_idx=job.stage_idx,
                when=when,
                allow_failure=allow_failure,
                allow_failure_exit_codes=job.allow_failure_exit_codes,
                needs=needs,
                dependencies=job.dependencies,
                variables={**yaml_vars, **project_vars, **pipeline_vars},
                yaml_variables=yaml_vars,
                tag_list=job.tags,
                script=job.script,
                before_script=job.before_script,
                after_script=job.after_script,
                image=job.image,
                services=job.services,
                artifacts=job.artifacts,
                trigger=job.trigger,
                environment=job.environment,
                coverage_regex=job.coverage,
                retry=job.retry,
                timeout=job.timeout,
                start_in=start_in,
                interruptible=interruptible,
                resource_group=job.resource_group,
                parallel=job.parallel,
            )
        )
    specs = _check_plan_needs(specs)
    if not specs:
        raise PlanError([MSG_NO_JOBS])
    used = {spec.stage for spec in specs}
    return PipelinePlan(
        stages=tuple(stage for stage in config.stages if stage in used),
        jobs=tuple(specs),
        workflow_variables=workflow_vars,
    )


def _check_plan_needs(specs: list[JobSpec]) -> list[JobSpec]:
    names = {spec.name for spec in specs}
    checked: list[JobSpec] = []
    for spec in specs:
        if spec.needs is None:
            checked.append(spec)
            continue
        kept: list[Need] = []
        for need in spec.needs:
            if need.name in names:
                kept.append(need)
            elif not need.optional:
                raise PlanError(
                    [
                        f"'{spec.name}' job needs '{need.name}' job, but '{need.name}' does not "
                        "exist in the pipeline. This might be because of the only, except, or "
                        "rules keywords. To need a job that sometimes does not exist in the "
                        "pipeline, use needs:optional."
                    ]
                )
        checked.append(attrs.evolve(spec, needs=tuple(kept)))
    return checked
