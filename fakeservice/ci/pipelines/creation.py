"""Creating pipelines: from the project's CI file at a ref, from a given configuration,
child pipelines of bridges, and skipped pipelines without jobs (pushes asking
``[ci skip]``, :mod:`fakeservice.ci.pipelines.push`). Lint and creation use the same engine
(:mod:`fakeservice.ci.config`).

``POST /projects/:id/pipeline`` answers 400 ``{"message": {"base": [...]}}`` for an
unknown ref (``Reference not found``), a missing CI file (``Missing CI config file``),
a configuration the engine refuses (the pipeline is still stored, ``failed`` with
``yaml_errors``), or a plan with no jobs (``Pipeline filtered out by workflow rules.``,
``No stages / jobs for this pipeline.``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fakeservice.ci.config import Config, JobSpec, PipelinePlan, PlanError, parse, plan
from fakeservice.ci.flow import announce, fire_pipeline, refresh_pipeline
from fakeservice.ci.models import (
    BRIDGE,
    NO_VARIABLES,
    Job,
    Pipeline,
    jobs,
    latest_for_ref,
    pipelines,
)
from fakeservice.ci.repo import RefInfo, ci_config_path, read_text, resolve_ref
from fakeservice.ci.variables_models import pipeline_values
from fakeservice.core.errors import ValidationFailed
from fakeservice.core.sharing import shared
from fakeservice.core.store import Store
from fakeservice.projects.models import Project

MISSING_CONFIG = "Missing CI config file"
BLANK_SHA = "0" * 40


def _base_error(errors: Sequence[str]) -> ValidationFailed:
    return ValidationFailed({"base": list(errors)})


def job_token(job_id: int, pipeline_id: int, now: dt.datetime) -> str:
    """A job's ``CI_JOB_TOKEN`` (deterministic: the same inputs give the same token)."""
    digest = hashlib.sha256(f"{job_id}:{pipeline_id}:{now.isoformat()}".encode()).hexdigest()
    return f"glcbt-{digest[:24]}"


def local_reader(store: Store, project: Project, sha: str) -> Callable[[str], str | None]:
    """``read_local`` for the configuration engine: files of the project at ``sha``."""

    def read(path: str) -> str | None:
        return read_text(store, project, sha, path)

    return read


def parse_at(store: Store, project: Project, sha: str, content: str | None) -> Config:
    return parse(
        content,
        read_local=local_reader(store, project, sha),
        project_path=project.path_with_namespace,
        sha=sha,
    )


def variables_dict(variables: Sequence[Mapping[str, str]]) -> dict[str, str]:
    return {str(v["key"]): str(v.get("value") or "") for v in variables}


def _insert_job(
    store: Store, pipeline: Pipeline, spec: JobSpec, user_id: int | None, now: dt.datetime
) -> Job:
    job_id = store.next_id("ci_jobs")
    bridge = spec.kind == BRIDGE
    job = Job(
        id=job_id,
        project_id=pipeline.project_id,
        pipeline_id=pipeline.id,
        name=shared(spec.name),
        stage=shared(spec.stage),
        stage_idx=spec.stage_idx,
        ref=pipeline.ref,
        sha=pipeline.sha,
        tag=pipeline.tag,
        created_at=now,
        kind=spec.kind,
        when=shared(spec.when),
        allow_failure=spec.allow_failure,
        needs=shared(spec.need_names),
        user_id=user_id,
        tag_list=shared(tuple(spec.tag_list)),
        script=shared((*spec.before_script, *spec.script, *spec.after_script)),
        token="" if bridge else job_token(job_id, pipeline.id, now),
        start_in=spec.start_in,
        timeout=spec.timeout,
        retry=shared(spec.retry),
        coverage_regex=shared(spec.coverage_regex),
        artifacts_spec=None if bridge else shared(spec.artifacts),
        trigger=shared(spec.trigger) if bridge else None,
        environment=shared(spec.environment),
        resource_group=None if bridge else spec.resource_group,
    )
    return announce(store, jobs(store).insert(job), now)


def _new_pipeline(
    store: Store,
    project: Project,
    info: RefInfo,
    *,
    source: str,
    user_id: int | None,
    now: dt.datetime,
    before_sha: str = BLANK_SHA,
    variables: Sequence[Mapping[str, str]] = (),
    parent: Pipeline | None = None,
    trigger_job: Job | None = None,
) -> Pipeline:
    """A pipeline record for the ref (not yet stored)."""
    return Pipeline(
        id=store.next_id("ci_pipelines"),
        iid=store.next_iid("ci_pipelines", project.id),
        project_id=project.id,
        ref=shared(info.ref),
        sha=shared(info.sha),
        before_sha=shared(before_sha),
        tag=info.tag,
        source=source,
        created_at=now,
        updated_at=now,
        user_id=user_id,
        variables=[
            {
                "key": str(v["key"]),
                "variable_type": str(v.get("variable_type") or "env_var"),
                "value": str(v.get("value") or ""),
            }
            for v in variables
        ]
        or NO_VARIABLES,
        parent_id=parent.id if parent is not None else None,
        trigger_job_id=trigger_job.id if trigger_job is not None else None,
        commit=_commit_entity(store, project, info),
    )


def _commit_entity(store: Store, project: Project, info: RefInfo) -> dict[str, Any]:
    """The commit entity a new pipeline keeps: the very dict of the ref's latest pipeline
    when it is of the same commit (pipelines never change it; views copy it)."""
    latest = latest_for_ref(store, project.id, info.ref)
    if latest is not None and latest.sha == info.sha and latest.commit == info.commit:
        return latest.commit
    return dict(info.commit)


# the record of a pipeline that is not built from a CI file (external commit statuses)
new_pipeline = _new_pipeline


def create_skipped(
    store: Store,
    project: Project,
    info: RefInfo,
    *,
    source: str,
    user_id: int | None,
    now: dt.datetime,
    before_sha: str = BLANK_SHA,
) -> Pipeline:
    """A ``skipped`` pipeline without jobs (a push whose commit asks ``[ci skip]``)."""
    pipeline = pipelines(store).insert(
        _new_pipeline(
            store,
            project,
            info,
            source=source,
            user_id=user_id,
            now=now,
            before_sha=before_sha,
        )
    )
    fire_pipeline(store, pipeline, "skip", now)
    return pipeline


def create_planned(
    store: Store,
    project: Project,
    info: RefInfo,
    config: Config,
    *,
    source: str,
    user_id: int | None,
    variables: Sequence[Mapping[str, str]],
    now: dt.datetime,
    parent: Pipeline | None = None,
    trigger_job: Job | None = None,
    before_sha: str = BLANK_SHA,
) -> Pipeline:
    """Plan ``config`` for the ref and store the pipeline and its jobs.

    An invalid configuration stores a failed pipeline with ``yaml_errors`` and raises the
    400; a plan error raises the 400 without storing anything.
    """
    planned: PipelinePlan | None = None
    if config.valid:
        try:
            planned = plan(
                config,
                ref=info.ref,
                tag=info.tag,
                source=source,
                variables={
                    **pipeline_values(store, project, info.ref),
                    **variables_dict(variables),
                },
                default_branch=project.default_branch or "main",
                project_path=project.path_with_namespace,
                sha=info.sha,
            )
        except PlanError as exc:
            raise _base_error(exc.errors) from exc
    pipeline = _new_pipeline(
        store,
        project,
        info,
        source=source,
        user_id=user_id,
        now=now,
        before_sha=before_sha,
        variables=variables,
        parent=parent,
        trigger_job=trigger_job,
    )
    pipelines(store).insert(pipeline)
    if planned is None:
        pipeline.yaml_errors = ", ".join(config.errors)
        fire_pipeline(store, pipeline, "drop", now)
        raise _base_error(config.errors)
    pipeline.stages = shared(planned.stages)
    for spec in planned.jobs:
        _insert_job(store, pipeline, spec, user_id, now)
    refresh_pipeline(store, pipeline, now)
    return pipeline


def create_for_ref(
    store: Store,
    project: Project,
    ref: str,
    *,
    source: str,
    user_id: int | None,
    variables: Sequence[Mapping[str, str]] = (),
    now: dt.datetime,
    trigger_job: Job | None = None,
) -> Pipeline:
    """A pipeline for a branch or tag, from the CI file at that ref."""
    info = resolve_ref(store, project, ref)
    if isinstance(info, str):
        raise _base_error([info])
    content = read_text(store, project, info.sha, ci_config_path(project))
    if content is None:
        raise _base_error([MISSING_CONFIG])
    config = parse_at(store, project, info.sha, content)
    return create_planned(
        store,
        project,
        info,
        config,
        source=source,
        user_id=user_id,
        variables=variables,
        now=now,
        trigger_job=trigger_job,
    )
