"""Push rule endpoints: ``/projects/:id/push_rule`` (Maintainer) and
``/groups/:id/push_rule`` (Owner): get, add (201; 422 when one exists), edit (404
``Push Rule Not Found`` when there is none), delete (204). Push rules are a paid feature:
403 on a plan without them. A project without a rule answers ``null``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.errors import ApiError, Forbidden, NotFound
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.members.models import MAINTAINER, OWNER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.push_rules import models
from fakeservice.push_rules.views import rule_view
from fakeservice.web.context import Context
from fakeservice.web.http import json_response
from fakeservice.web.params import BOOL, INT, STR, AtLeastOne, Param
from fakeservice.web.routing import REQUIRED, AreaRouter
from fakeservice.web.settings_table import licensed

api = AreaRouter("push_rules")

ID = Param("id", STR, required=True)
RULE_PARAMS = tuple(
    Param(name, INT if name == "max_file_size" else STR if name in models.REGEXES else BOOL)
    for name in models.FIELDS
)
AT_LEAST_ONE = (AtLeastOne(models.FIELDS),)


@attrs.frozen
class Owner:
    """The project or group of a request, checked for the role its rule needs."""

    kind: str
    id: int
    exists_message: str


def _project(ctx: Context) -> Owner:
    project = find_project_or_404(ctx, ctx.params["id"])
    require_access(ctx, project, MAINTAINER)
    return Owner(models.PROJECT, project.id, "Project push rule exists")


def _group(ctx: Context) -> Owner:
    group = find_group_or_404(ctx, ctx.params["id"])
    require_group_access(ctx, group, OWNER)
    return Owner(models.GROUP, group.id, "Group push rule exists, try updating")


def _licensed(ctx: Context) -> None:
    if not licensed(ctx.store, "premium"):
        raise Forbidden()


def _given(ctx: Context) -> dict[str, Any]:
    return {name: ctx.params[name] for name in models.FIELDS if name in ctx.params}


def _existing(ctx: Context, owner: Owner) -> models.PushRule:
    rule = models.find(ctx.store, owner.kind, owner.id)
    if rule is None:
        raise NotFound("Push Rule")
    return rule


def _declare(base: str, lookup: Callable[[Context], Owner], *, missing_is_null: bool) -> None:
    noun = "project" if lookup is _project else "group"

    def named(handler: Callable[[Context], Any]) -> Callable[[Context], Any]:
        handler.__name__ = handler.__name__.replace("rule", f"{noun}_push_rule", 1)
        return handler

    @api.get(base, params=(ID,), auth=REQUIRED)
    @named
    def get_rule(ctx: Context) -> Any:
        """The push rule (``null`` for a project without one)."""
        _licensed(ctx)
        owner = lookup(ctx)
        rule = models.find(ctx.store, owner.kind, owner.id)
        if rule is None and not missing_is_null:
            raise NotFound("Push Rule")
        return rule_view(rule) if rule is not None else json_response(None)

    @api.post(base, params=(ID, *RULE_PARAMS), constraints=AT_LEAST_ONE, auth=REQUIRED)
    @named
    def add_rule(ctx: Context) -> Any:
        """Add the push rule (201)."""
        _licensed(ctx)
        owner = lookup(ctx)
        if models.find(ctx.store, owner.kind, owner.id) is not None:
            raise ApiError({"message": owner.exists_message}, status=422)
        return rule_view(models.create(ctx.store, ctx.now, owner.kind, owner.id, _given(ctx)))

    @api.put(base, params=(ID, *RULE_PARAMS), constraints=AT_LEAST_ONE, auth=REQUIRED)
    @named
    def edit_rule(ctx: Context) -> Any:
        """Edit the push rule."""
        _licensed(ctx)
        rule = _existing(ctx, lookup(ctx))
        return rule_view(models.update(ctx.store, rule, _given(ctx)))

    @api.delete(base, params=(ID,), auth=REQUIRED, status=204)
    @named
    def delete_rule(ctx: Context) -> Any:
        """Delete the push rule (204)."""
        _licensed(ctx)
        models.push_rules(ctx.store).delete(_existing(ctx, lookup(ctx)))
        return None


_declare("/projects/:id/push_rule", _project, missing_is_null=True)
_declare("/groups/:id/push_rule", _group, missing_is_null=False)
