"""The simulated runner of a service (``service.runner``): modes, outcomes, driving jobs.

Three modes, for the whole service or per project:

* ``manual``: jobs move only when told: :meth:`Runner.start`, :meth:`Runner.finish`,
  :meth:`Runner.run_all`;
* ``timed``: moving the clock (``svc.clock.advance(seconds=...)``) moves jobs: a pending
  job is picked up ``pickup_seconds`` after it was queued (5 by default), a running job
  finishes ``duration`` seconds after it started, stage by stage and along ``needs``;
  events are processed in time order, each at its own timestamp;
* ``instant``: pipelines finish as soon as they are created (at the current time).

With :meth:`Runner.set_pipelines_on_push` (off by default) a push of a branch or tag
creates a ``push`` pipeline, as the service does (:mod:`fakeservice.ci.pipelines.push`).

Outcomes (:meth:`Runner.set_outcome`) script what a job does; the default is success
after 30 seconds with a short log (and default artifacts). :meth:`Runner.job_token` gives
a job's ``CI_JOB_TOKEN``, valid while the job runs. The same inputs always give the same
results.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from fakeservice.ci.models import Job, Pipeline, jobs, latest_named, pipelines
from fakeservice.ci.runner import outcomes, simulation, timing
from fakeservice.ci.runner.simulation import RunnerError
from fakeservice.core.store import Store
from fakeservice.projects.models import Project, find_project

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService


class Runner:
    """The runner API of one :class:`~fakeservice.service.FakeService`."""

    def __init__(self, service: FakeService) -> None:
        self.service = service

    # -- plumbing ------------------------------------------------------------------------
    @property
    def store(self) -> Store:
        return self.service.store

    def now(self) -> dt.datetime:
        return self.service.clock.now()

    def _project(self, project: int | str | None) -> Project | None:
        if project is None:
            return None
        found = find_project(self.store, project)
        if found is None:
            raise RunnerError(f"unknown project {project!r}", 404)
        return found

    def _job(self, job_id: int) -> Job:
        job = jobs(self.store).get(job_id)
        if job is None:
            raise RunnerError(f"unknown job {job_id}", 404)
        return job

    def _pipeline(self, pipeline_id: int) -> Pipeline:
        pipeline = pipelines(self.store).get(pipeline_id)
        if pipeline is None:
            raise RunnerError(f"unknown pipeline {pipeline_id}", 404)
        return pipeline

    def catch_up(self) -> None:
        """Process timed events up to now, and finish what instant projects left waiting."""
        with self.store.lock:
            now = self.now()
            simulation.settle(self.store, now)

    def on_clock(self, _before: dt.datetime, _after: dt.datetime) -> None:
        """Clock listener: the clock moved, so timed jobs move too."""
        self.catch_up()

    def attach_clock(self) -> None:
        """Listen to the service clock (idempotent)."""
        listeners = getattr(self.service.clock, "_listeners", None)
        if listeners is not None and self.on_clock in listeners:
            return
        self.service.clock.on_change(self.on_clock)

    # -- settings ------------------------------------------------------------------------
    def set_mode(
        self,
        mode: str | None = None,
        *,
        pickup_seconds: float | None = None,
        project: int | str | None = None,
        pipelines_on_push: bool | None = None,
    ) -> None:
        """Use ``mode`` (manual, timed, instant), ``pickup_seconds`` and
        ``pipelines_on_push`` for the service or for one project; what is not given stays."""
        with self.store.lock:
            found = self._project(project)
            try:
                outcomes.configure(
                    self.store,
                    mode=mode,
                    pickup_seconds=pickup_seconds,
                    on_push=pipelines_on_push,
                    project_id=found.id if found else None,
                )
            except outcomes.OutcomeError as exc:
                raise RunnerError(str(exc), 400) from exc
            self._reschedule(found)
            self.catch_up()

    def set_pipelines_on_push(
        self, enabled: bool = True, *, project: int | str | None = None
    ) -> None:
        """Create a ``push`` pipeline when a branch or tag of the project (or of every
        project) is pushed and has a CI file at its new head (off by default)."""
        self.set_mode(project=project, pipelines_on_push=enabled)

    def pipelines_on_push(self, project: int | str | None = None) -> bool:
        """Whether pushes create pipelines, for the service or for one project."""
        found = self._project(project)
        if found is None:
            return bool(outcomes.settings(self.store).pipelines_on_push)
        return outcomes.pipelines_on_push(self.store, found.id)

    def _reschedule(self, project: Project | None) -> None:
        """Recompute due times of waiting and running builds after a mode change."""
        table = jobs(self.store)
        index = table.sorted["builds_by_project_status"]
        keys = [
            key
            for key in index.parts
            if key[1] in ("pending", "running", "scheduled")
            and (project is None or key[0] == project.id)
        ]
        now = self.now()
        for job in list(table.select("builds_by_project_status", keys)):
            timing.schedule(self.store, job, now)

    def runners_changed(self) -> None:
        """A runner was added, resumed, retagged or assigned: waiting jobs that were stuck
        may be picked up now (their due times are recomputed, instant projects drain)."""
        with self.store.lock:
            self._reschedule(None)
            self.catch_up()

    def mode(self, project: int | str | None = None) -> str:
        found = self._project(project)
        if found is None:
            return outcomes.settings(self.store).mode
        return outcomes.mode_of(self.store, found.id)[0]

    def settings(self) -> dict[str, Any]:
        return outcomes.settings_view(self.store)

    def set_outcome(
        self,
        job_name: str | None = None,
        outcome: Mapping[str, Any] | Sequence[Mapping[str, Any]] | str | None = None,
        *,
        job_id: int | None = None,
        project: int | str | None = None,
        **fields: Any,
    ) -> None:
        """Script what a job does: by ``job_id``, or by ``job_name`` (in ``project`` or
        service-wide). ``outcome`` is a mapping (status, failure_reason, duration, log,
        artifacts, coverage), a list of them (one per attempt), or give the fields as
        keyword arguments."""
        data: Any = outcome if outcome is not None else fields
        with self.store.lock:
            try:
                if job_id is not None:
                    job = self._job(job_id)
                    outcomes.set_job_outcome(
                        self.store, job.id, outcomes.outcome_from_data(data, "outcome")
                    )
                    timing.schedule(self.store, job, self.now())
                    return
                if not job_name:
                    raise RunnerError("give a job_name or a job_id", 400)
                found = self._project(project)
                outcomes.set_outcomes(
                    self.store,
                    job_name,
                    outcomes.outcomes_from_data(data, "outcome"),
                    project_id=found.id if found else None,
                )
            except outcomes.OutcomeError as exc:
                raise RunnerError(str(exc), 400) from exc

    # -- driving jobs --------------------------------------------------------------------
    def start(self, job_id: int) -> Job:
        """Pick up a pending job now (it starts running)."""
        with self.store.lock:
            self.catch_up()
            job = simulation.start(self.store, self._job(job_id), self.now())
            simulation.settle(self.store, self.now())
            return job

    def finish(
        self,
        job_id: int,
        status: str | None = None,
        *,
        failure_reason: str | None = None,
        log: Sequence[str] | None = None,
        artifacts: Mapping[str, bytes | str] | None = None,
        coverage: float | None = None,
    ) -> Job:
        """Finish a job now with ``status`` (or its outcome's); a pending job starts first."""
        files = None
        if artifacts is not None:
            files = {
                str(path): data.encode() if isinstance(data, str) else bytes(data)
                for path, data in artifacts.items()
            }
        with self.store.lock:
            self.catch_up()
            job = simulation.finish(
                self.store,
                self._job(job_id),
                self.now(),
                status=status,
                failure_reason=failure_reason,
                log=log,
                artifacts=files,
                coverage=coverage,
            )
            simulation.settle(self.store, self.now())
            return job

    def run_all(self, pipeline_id: int) -> Pipeline:
        """Run a pipeline (and its child pipelines) to completion now; manual jobs wait."""
        with self.store.lock:
            self.catch_up()
            pipeline = simulation.run_pipeline(self.store, self._pipeline(pipeline_id), self.now())
            simulation.settle(self.store, self.now())
            return pipeline

    def job(self, job_id: int) -> Job:
        """The job record (raises :class:`RunnerError` 404 for an unknown id)."""
        with self.store.lock:
            self.catch_up()
            return self._job(job_id)

    def job_token(self, job_id: int) -> str:
        """The job's ``CI_JOB_TOKEN``. The service accepts it (``JOB-TOKEN`` header,
        ``job_token`` query, or Bearer, on the endpoints that take job tokens) only while
        the job is running; bridges have none."""
        job = self.job(job_id)
        if not job.token:
            raise RunnerError(f"job {job_id} is a bridge; bridges have no job token", 409)
        return job.token

    def find_job(self, project: str, name: str, pipeline: int | None = None) -> int:
        """The id of the latest attempt of job ``name`` in a project's pipeline ``pipeline``
        (an iid), or in its newest pipeline that has such a job."""
        with self.store.lock:
            found = self._project(project)
            assert found is not None
            table = pipelines(self.store)
            newest_first = reversed(table.sorted["roots_by_id"].part(found.id))
            for entry in newest_first:
                candidate = table.rows[entry[-1]]
                if pipeline is not None and candidate.iid != pipeline:
                    continue
                job = latest_named(self.store, candidate.id, name)
                if job is not None:
                    return job.id
                if pipeline is not None:
                    break
            raise RunnerError(f"no job {name!r} in {project}", 404)
