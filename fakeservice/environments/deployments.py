"""Environments and deployments made by CI jobs with ``environment:`` (seed 000 §4.5).

When a job whose definition names an environment is created, the environment exists
(created on first use, ``state`` ``available``) and a deployment is recorded with the job
(``iid`` per project). The deployment's ``status`` follows the job through
:data:`DEPLOYMENT_MACHINE`: ``created`` → ``running`` → ``success``/``failed``/``canceled``
(or ``skipped``). A job with ``action: stop`` stops its environment when it succeeds.
"""

from __future__ import annotations

import datetime as dt
import re

import attrs

from fakeservice.ci.machines import PLAYABLE
from fakeservice.ci.models import Job, jobs, latest_named
from fakeservice.core.machine import Machine
from fakeservice.core.store import Selection, Store, Table


@attrs.define(slots=True)
class Environment:
    id: int
    project_id: int
    name: str
    created_at: dt.datetime
    updated_at: dt.datetime
    external_url: str | None = None
    state: str = "available"
    tier: str = "other"


@attrs.define(slots=True)
class Deployment:
    id: int
    iid: int
    project_id: int
    environment_id: int
    deployable_id: int
    ref: str
    sha: str
    user_id: int | None
    created_at: dt.datetime
    updated_at: dt.datetime
    status: str = "created"


DEPLOYMENT_MACHINE = Machine(
    "deployment",
    ("created", "running", "success", "failed", "canceled", "skipped"),
    [
        ("run", "created", "running"),
        ("succeed", ("created", "running"), "success"),
        ("drop", ("created", "running"), "failed"),
        ("cancel", ("created", "running"), "canceled"),
        ("skip", "created", "skipped"),
    ],
)
# the deployment event a job status leads to
JOB_STATUS_EVENTS = {
    "running": "run",
    "success": "succeed",
    "failed": "drop",
    "canceled": "cancel",
    "skipped": "skip",
}
TIERS = ("production", "staging", "testing", "development", "other")


def environments(store: Store) -> Table[Environment]:
    return store.tables["environments"]


def deployments(store: Store) -> Table[Deployment]:
    return store.tables["deployments"]


def install(store: Store) -> None:
    envs = store.table("environments")
    envs.add_unique("project_name", lambda e: (e.project_id, e.name))
    envs.add_sorted("project", lambda e: e.project_id, lambda e: (e.id,))
    deps = store.table("deployments")
    deps.add_unique("deployable", lambda d: d.deployable_id)
    deps.add_sorted("project", lambda d: d.project_id, lambda d: (d.id,))
    deps.add_sorted("project_updated", lambda d: d.project_id, lambda d: (d.updated_at, d.id))
    deps.add_sorted("project_ref", lambda d: d.project_id, lambda d: (d.ref, d.id))
    deps.add_sorted("environment", lambda d: d.environment_id, lambda d: (d.id,))


def of_project(store: Store, project_id: int) -> Selection[Environment]:
    return environments(store).select("project", [project_id])


def deployments_of(store: Store, project_id: int) -> Selection[Deployment]:
    return deployments(store).select("project", [project_id])


def last_deployment(store: Store, environment_id: int) -> Deployment | None:
    found = deployments(store).select("environment", [environment_id], reverse=True).slice(0, 1)
    return found[0] if found else None


def _tier(name: str, given: str | None) -> str:
    if given in TIERS:
        return given
    for tier in TIERS[:-1]:
        if name.lower().startswith(tier[:4]):
            return tier
    return "other"


def ensure_environment(
    store: Store, project_id: int, name: str, now: dt.datetime, url: str | None = None
) -> Environment:
    """The project's environment ``name``, created (``available``) on first use."""
    found = environments(store).by("project_name", (project_id, name))
    if found is not None:
        return found
    env = Environment(
        id=store.next_id("environments"),
        project_id=project_id,
        name=name,
        created_at=now,
        updated_at=now,
        external_url=url,
        tier=_tier(name, None),
    )
    return environments(store).insert(env)


NAME_FORMAT = re.compile(r"[a-zA-Z0-9_/${}. -]+")
NAME_MESSAGE = (
    "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, "
    "but it cannot start or end with '/'"
)
MAX_LENGTH = 255
URL_SCHEMES = ("http://", "https://")


def environment_errors(
    store: Store, project_id: int, name: str | None, url: str | None
) -> dict[str, list[str]]:
    """The 400 messages of a new name and/or external URL (empty when they are valid)."""
    errors: dict[str, list[str]] = {}
    if name is not None:
        messages = []
        if len(name) > MAX_LENGTH:
            messages.append(f"is too long (maximum is {MAX_LENGTH} characters)")
        if not NAME_FORMAT.fullmatch(name) or name.startswith("/") or name.endswith("/"):
            messages.append(NAME_MESSAGE)
        if environments(store).by("project_name", (project_id, name)) is not None:
            messages.append("has already been taken")
        if messages:
            errors["name"] = messages
    if url:
        messages = []
        if len(url) > MAX_LENGTH:
            messages.append(f"is too long (maximum is {MAX_LENGTH} characters)")
        if not url.lower().startswith(URL_SCHEMES):
            messages.append("is blocked: Only allowed schemes are http, https")
        if messages:
            errors["external_url"] = messages
    return errors


def stop_job(store: Store, env: Environment) -> Job | None:
    """The ``on_stop`` job of the environment's last deployment, when it can be played."""
    last = last_deployment(store, env.id)
    deployable = None if last is None else jobs(store).get(last.deployable_id)
    if deployable is None or deployable.environment is None:
        return None
    name = deployable.environment.on_stop
    found = None if name is None else latest_named(store, deployable.pipeline_id, name)
    return found if found is not None and found.status in PLAYABLE else None


def job_created(store: Store, job: Job, now: dt.datetime) -> None:
    """Listener of ``JOB_CREATED``: the job's environment and its deployment."""
    spec = job.environment
    if spec is None:
        return
    env = ensure_environment(store, job.project_id, spec.name, now, spec.url)
    if spec.deployment_tier in TIERS and env.tier != spec.deployment_tier:
        environments(store).update(env, tier=spec.deployment_tier, updated_at=now)
    if spec.url and env.external_url != spec.url:
        environments(store).update(env, external_url=spec.url, updated_at=now)
    if spec.action != "start":
        return
    if env.state != "available":
        environments(store).update(env, state="available", updated_at=now)
    deployments(store).insert(
        Deployment(
            id=store.next_id("deployments"),
            iid=store.next_iid("deployments", job.project_id),
            project_id=job.project_id,
            environment_id=env.id,
            deployable_id=job.id,
            ref=job.ref,
            sha=job.sha,
            user_id=job.user_id,
            created_at=now,
            updated_at=now,
        )
    )


def job_moved(store: Store, job: Job, now: dt.datetime) -> None:
    """Listener of ``JOB_MOVED``: the deployment follows its job; a successful stop job
    stops its environment."""
    if job.environment is None:
        return
    deployment = deployments(store).by("deployable", job.id)
    event = JOB_STATUS_EVENTS.get(job.status)
    if deployment is not None and event is not None and DEPLOYMENT_MACHINE.can(deployment, event):
        DEPLOYMENT_MACHINE.fire(deployment, event)
        deployments(store).update(deployment, updated_at=now)
    if job.environment.action == "stop" and job.status == "success":
        env = environments(store).by("project_name", (job.project_id, job.environment.name))
        if env is not None and env.state != "stopped":
            environments(store).update(env, state="stopped", updated_at=now)


def forget_environment(store: Store, env: Environment) -> None:
    for dep in list(deployments(store).select("environment", [env.id])):
        deployments(store).delete(dep)
    environments(store).delete(env)


def forget_project(store: Store, project_id: int) -> None:
    for dep in list(deployments_of(store, project_id)):
        deployments(store).delete(dep)
    for env in list(of_project(store, project_id)):
        environments(store).delete(env)
