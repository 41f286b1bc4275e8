"""JSON shapes of environments and deployments (seed 000 §4.5)."""

from __future__ import annotations

from typing import Any

from fakeservice.ci.models import jobs
from fakeservice.ci.views import Renderer
from fakeservice.core.clock import iso
from fakeservice.environments.deployments import Deployment, Environment, environments
from fakeservice.users.models import users
from fakeservice.users.views import user_ref
from fakeservice.web.context import Context


def environment_view(ctx: Context, env: Environment) -> dict[str, Any]:
    return {
        "id": env.id,
        "name": env.name,
        "slug": env.name.lower().replace("/", "-").replace("_", "-"),
        "external_url": env.external_url,
        "state": env.state,
        "tier": env.tier,
        "created_at": iso(env.created_at),
        "updated_at": iso(env.updated_at),
    }


def deployment_view(ctx: Context, dep: Deployment) -> dict[str, Any]:
    store = ctx.store
    job = jobs(store).get(dep.deployable_id)
    env = environments(store).get(dep.environment_id)
    return {
        "id": dep.id,
        "iid": dep.iid,
        "ref": dep.ref,
        "sha": dep.sha,
        "status": dep.status,
        "created_at": iso(dep.created_at),
        "updated_at": iso(dep.updated_at),
        "user": user_ref(users(store).get(dep.user_id), ctx.base_url),
        "environment": None if env is None else environment_view(ctx, env),
        "deployable": None if job is None else Renderer(store, ctx.base_url, ctx.now).job(job),
    }
