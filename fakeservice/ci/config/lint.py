"""The CI lint answers: instance lint, project lint and dry-run lint bodies."""

from __future__ import annotations

from typing import Any

from .errors import PlanError
from .planning import plan
from .records import Config, PipelinePlan
from .values import _plain


def lint_jobs(config: Config) -> list[dict[str, Any]]:
    """``jobs`` of a static lint: stage order, then document order; empty when invalid."""
    if not config.valid:
        return []
    return [
        {
            "name": job.name,
            "stage": job.stage,
            "before_script": list(job.before_script),
            "script": list(job.script),
            "after_script": list(job.after_script),
            "tag_list": list(job.tags),
            "environment": job.environment.name if job.environment else None,
            "when": job.when,
            "allow_failure": job.allow_failure,
            "only": _plain(job.only) if job.only is not None else None,
            "except": _plain(job.except_) if job.except_ is not None else None,
        }
        for job in sorted(config.jobs, key=lambda j: (j.stage_idx, j.index))
    ]


def plan_jobs(pipeline_plan: PipelinePlan) -> list[dict[str, Any]]:
    """``jobs`` of a dry-run lint (the jobs the simulated pipeline would create)."""
    return [
        {
            "name": spec.name,
            "stage": spec.stage,
            "before_script": list(spec.before_script),
            "script": list(spec.script),
            "after_script": list(spec.after_script),
            "tag_list": list(spec.tag_list),
            "environment": spec.environment_name,
            "when": spec.when,
            "allow_failure": spec.allow_failure,
        }
        for spec in pipeline_plan.jobs
    ]


def instance_lint(
    config: Config, *, include_merged_yaml: bool = False, include_jobs: bool = False
) -> dict[str, Any]:
    """``POST /ci/lint``: ``{status, errors, warnings[, merged_yaml][, jobs]}``."""
    result: dict[str, Any] = {
        "status": "valid" if config.valid else "invalid",
        "errors": list(config.errors),
        "warnings": list(config.warnings),
    }
    if include_merged_yaml:
        result["merged_yaml"] = config.merged_yaml
    if include_jobs:
        result["jobs"] = lint_jobs(config)
    return result


def project_lint(config: Config, *, include_jobs: bool = False) -> dict[str, Any]:
    """``POST|GET /projects/:id/ci/lint`` (static): ``{valid, errors, warnings, merged_yaml, includes[, jobs]}``."""
    jobs = lint_jobs(config) if include_jobs else None
    return _project_answer(config, list(config.errors), jobs)


def dry_run_lint(
    config: Config, *, include_jobs: bool = False, **plan_options: Any
) -> dict[str, Any]:
    """Project lint with ``dry_run=true``: simulate creating a pipeline (``plan_options``
    are :func:`~.planning.plan`'s: ``ref`` and the ref's context)."""
    errors = list(config.errors)
    jobs: list[dict[str, Any]] = []
    if config.valid:
        try:
            simulated = plan(config, **plan_options)
        except PlanError as exc:
            errors = exc.errors
        else:
            jobs = plan_jobs(simulated)
    return _project_answer(config, errors, jobs if include_jobs else None)


def _project_answer(
    config: Config, errors: list[str], jobs: list[dict[str, Any]] | None
) -> dict[str, Any]:
    """The project lint body; ``jobs`` only when asked for."""
    result: dict[str, Any] = {
        "valid": not errors,
        "errors": errors,
        "warnings": list(config.warnings),
        "merged_yaml": config.merged_yaml,
        "includes": [dict(item) for item in config.includes],
    }
    if jobs is not None:
        result["jobs"] = jobs
    return result
