"""``PUT /projects/:id/protected_environments/:name`` (not in the spec; the real service
has it): change who may deploy and approve. Each element of ``deploy_access_levels`` and
``approval_rules`` either adds an entry (no ``id``), changes the entry ``id``, or removes
it (``id`` with ``_destroy: true``); ``required_approval_count`` may change too. The
result is validated as a new protected environment (422 when nothing may deploy) before
anything is stored; 200 with the protected environment.
"""

from __future__ import annotations

from typing import Any

import attrs

from fakeservice.core.errors import Unprocessable
from fakeservice.environments import models
from fakeservice.environments.router import api
from fakeservice.environments.routes import (
    APPROVAL_ITEM,
    DEPLOY_ITEM,
    ID,
    NAME,
    PATH,
    _project,
    _record_or_404,
)
from fakeservice.environments.views import protected_environment_view
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, HASH, INT, Array, Param
from fakeservice.web.routing import REQUIRED

CHANGE = (Param("id", INT), Param("_destroy", BOOL, default=False))


def _changed(
    ctx: Context, project: Any, entries: list[models.AccessEntry], items: list[Any], approval: bool
) -> list[models.AccessEntry]:
    """``entries`` after the requested additions, changes and removals (new entries that do
    not qualify are dropped, as on creation)."""
    out = list(entries)
    for item in items:
        if not isinstance(item, dict):
            continue
        if item.get("id") is None:
            spec = models.entry_data(item)
            if models.qualifies(ctx.store, project, spec, ctx.now):
                out.append(models._entry(ctx.store, spec, approval=approval))
            continue
        index = next((i for i, e in enumerate(out) if e.id == item["id"]), None)
        if index is None:
            continue
        if item.get("_destroy"):
            del out[index]
            continue
        given = {
            k: item[k]
            for k in ("access_level", "group_inheritance_type", "required_approvals")
            if item.get(k) is not None and (approval or k != "required_approvals")
        }
        out[index] = attrs.evolve(out[index], **given)
    return out


def _spec(entry: models.AccessEntry) -> models.EntrySpec:
    return models.EntrySpec(
        access_level=entry.access_level,
        user_id=entry.user_id,
        group_id=entry.group_id,
        required_approvals=(
            models.DEFAULT_REQUIRED_APPROVALS
            if entry.required_approvals is None
            else entry.required_approvals
        ),
    )


@api.put(
    PATH + "/:name",
    params=(
        ID,
        NAME,
        Param("deploy_access_levels", Array(HASH), items=(*DEPLOY_ITEM, *CHANGE)),
        Param("required_approval_count", INT),
        Param("approval_rules", Array(HASH), items=(*APPROVAL_ITEM, *CHANGE)),
    ),
    auth=REQUIRED,
)
def update_protected_environment(ctx: Context) -> Any:
    """Update a protected environment (Maintainer)."""
    project = _project(ctx)
    record = _record_or_404(ctx, project)
    p = ctx.params
    deploy = _changed(
        ctx, project, record.deploy_access_levels, p.get("deploy_access_levels") or [], False
    )
    rules = _changed(ctx, project, record.approval_rules, p.get("approval_rules") or [], True)
    count = record.required_approval_count
    if p.get("required_approval_count") is not None:
        count = p["required_approval_count"]
    errors = models.model_errors(
        record.name, [_spec(e) for e in deploy], [_spec(e) for e in rules], count
    )
    if errors:
        raise Unprocessable(errors)
    models.protected_environments(ctx.store).update(
        record,
        deploy_access_levels=deploy,
        approval_rules=rules,
        required_approval_count=count,
        updated_at=ctx.now,
    )
    return protected_environment_view(ctx.store, record)
