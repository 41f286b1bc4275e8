"""CI/CD variable endpoints at three levels, declared once by :func:`_declare`:
``/projects/:id/variables`` and ``/groups/:id/variables`` (Maintainer) and
``/admin/ci/variables`` (administrators). List (paginated,
by id), get by key (``filter[environment_scope]`` for projects), create, update, delete;
a missing key is ``404 Variable Not Found``. Values round-trip exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.ci import variables_models as model
from fakeservice.ci.router import api
from fakeservice.ci.variables_models import VARIABLE_TYPES, Owner, Variable
from fakeservice.core.errors import NotFound
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.lookup import project_with_role
from fakeservice.web.context import Context
from fakeservice.web.http import Response
from fakeservice.web.params import BOOL, HASH, STR, Param
from fakeservice.web.routing import ADMIN, REQUIRED

KEY = Param("key", STR, required=True)
SCOPED = ("project", "group")


def _fields(required: bool, scoped: bool) -> tuple[Param, ...]:
    return (
        Param("value", STR, required=required),
        Param("variable_type", STR, values=VARIABLE_TYPES),
        Param("protected", BOOL),
        Param("masked", BOOL),
        Param("raw", BOOL),
        Param("description", STR),
        *((Param("environment_scope", STR, allow_blank=False),) if scoped else ()),
    )


def view(variable: Variable) -> dict[str, Any]:
    out: dict[str, Any] = {
        "variable_type": variable.variable_type,
        "key": variable.key,
        "value": variable.value,
        "hidden": False,
        "protected": variable.protected,
        "masked": variable.masked,
        "raw": variable.raw,
    }
    if variable.owner_kind in SCOPED:
        out["environment_scope"] = variable.environment_scope
    out["description"] = variable.description
    return out


def _project_owner(ctx: Context) -> Owner:
    return ("project", project_with_role(ctx, MAINTAINER).id)


def _group_owner(ctx: Context) -> Owner:
    group = find_group_or_404(ctx, ctx.params["id"])
    require_group_access(ctx, group, MAINTAINER)
    return ("group", group.id)


def _instance_owner(ctx: Context) -> Owner:
    return model.INSTANCE


def _found(ctx: Context, owner: Owner) -> Variable:
    scope = (ctx.params.get("filter") or {}).get("environment_scope")
    variable = model.find(ctx.store, owner, ctx.params["key"], scope)
    if variable is None:
        raise NotFound("Variable")
    return variable


def _given(ctx: Context, names: tuple[str, ...]) -> dict[str, Any]:
    return {n: ctx.params[n] for n in names if n in ctx.params and ctx.params[n] is not None}


def _declare(
    base: str, id_params: tuple[Param, ...], owner: Callable[[Context], Owner], auth: str, kind: str
) -> None:
    scoped = kind in SCOPED
    names = (
        "value",
        "variable_type",
        "protected",
        "masked",
        "raw",
        "description",
        *(("environment_scope",) if scoped else ()),
    )
    filters = (Param("filter", HASH),) if scoped else ()

    @api.get(
        base,
        params=id_params,
        auth=auth,
        paginated=True,
        summary=f"List the {kind}'s CI/CD variables.",
    )
    def list_variables(ctx: Context) -> Response:
        return ctx.paginate(model.of_owner(ctx.store, owner(ctx)), view)

    @api.get(
        f"{base}/:key",
        params=(*id_params, KEY, *filters),
        auth=auth,
        summary=f"Get one of the {kind}'s CI/CD variables.",
    )
    def get_variable(ctx: Context) -> Any:
        return view(_found(ctx, owner(ctx)))

    @api.post(
        base,
        params=(*id_params, KEY, *_fields(True, scoped)),
        auth=auth,
        summary=f"Create a {kind} CI/CD variable.",
    )
    def create_variable(ctx: Context) -> Any:
        found = owner(ctx)
        given = _given(ctx, names)
        given["value"] = ctx.params["value"]  # a JSON null reaches the model's validation
        return view(model.create(ctx.store, found, key=ctx.params["key"], **given))

    @api.put(
        f"{base}/:key",
        params=(*id_params, KEY, *_fields(False, scoped), *filters),
        auth=auth,
        summary=f"Update a {kind} CI/CD variable.",
    )
    def update_variable(ctx: Context) -> Any:
        variable = _found(ctx, owner(ctx))
        return view(model.change(ctx.store, variable, **_given(ctx, names)))

    @api.delete(
        f"{base}/:key",
        params=(*id_params, KEY, *filters),
        auth=auth,
        summary=f"Delete a {kind} CI/CD variable.",
    )
    def delete_variable(ctx: Context) -> None:
        model.variables(ctx.store).delete(_found(ctx, owner(ctx)))


ID = (Param("id", STR, required=True),)
_declare("/projects/:id/variables", ID, _project_owner, REQUIRED, "project")
_declare("/groups/:id/variables", ID, _group_owner, REQUIRED, "group")
_declare("/admin/ci/variables", (), _instance_owner, ADMIN, "instance")
