"""Protected environments endpoints (seed 000 §4.5, paid tier; the fake enables every tier):
list, get, protect and unprotect. Every one needs the Maintainer role in the project.

Each element of ``deploy_access_levels`` is exactly one of ``{user_id}``, ``{group_id}``
or ``{access_level}`` (30, 40 or 60); each element of ``approval_rules`` has at least one
of them. Names are matched exactly and may carry ``/`` when URL-encoded in paths.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import ParamError, or_404
from fakeservice.environments import models
from fakeservice.environments.router import api
from fakeservice.environments.views import protected_environment_view
from fakeservice.members.models import MAINTAINER
from fakeservice.projects.lookup import project_with_role
from fakeservice.projects.models import Project
from fakeservice.web.conditional import require_unmodified_since
from fakeservice.web.context import Context
from fakeservice.web.params import HASH, INT, STR, Array, Param
from fakeservice.web.routing import REQUIRED

PATH = "/projects/:id/protected_environments"
ID = Param("id", STR, required=True, description="The ID or URL-encoded path of the project")
NAME = Param("name", STR, required=True, description="The name of the protected environment")
DEPLOY_KEYS = ("user_id", "group_id", "access_level")
APPROVAL_KEYS = ("access_level", "user_id", "group_id")

_SHARED_ITEMS = (
    Param("user_id", INT, description="A user with at least the Developer role"),
    Param("group_id", INT, description="A group the project is shared with"),
    Param(
        "group_inheritance_type",
        INT,
        values=models.GROUP_INHERITANCE_TYPES,
        description="0: direct group membership only (default); 1: all inherited groups",
    ),
)
DEPLOY_ITEM = (
    *_SHARED_ITEMS,
    Param("access_level", INT, values=models.ACCESS_LEVELS, description="30, 40 or 60"),
)
APPROVAL_ITEM = (
    *_SHARED_ITEMS,
    Param("access_level", INT, values=models.ACCESS_LEVELS, description="30, 40 or 60"),
    Param("required_approvals", INT, default=models.DEFAULT_REQUIRED_APPROVALS),
)


def _encodable(name: str) -> bool:
    """Whether a name can be stored and shown (JSON bodies may carry lone surrogates)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _project(ctx: Context) -> Project:
    return project_with_role(ctx, MAINTAINER)


def _record_or_404(ctx: Context, project: Project) -> models.ProtectedEnvironment:
    return or_404(models.find(ctx.store, project.id, ctx.params["name"]))


def _given(item: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    return [key for key in keys if item.get(key) is not None]


def _entry_errors(name: str, items: list[Any], keys: tuple[str, ...], exactly: bool) -> list[str]:
    """The 400 messages of elements that name none (or, with ``exactly``, several) of ``keys``."""
    errors: list[str] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        labels = [f"{name}[{index}][{key}]" for key in keys]
        given = _given(item, keys)
        if not given:
            rule = "exactly" if exactly else "at least"
            errors.append(f"{', '.join(labels)} are missing, {rule} one parameter must be provided")
        elif exactly and len(given) > 1:
            errors.append(
                f"{', '.join(f'{name}[{index}][{key}]' for key in given)} are mutually exclusive"
            )
    return errors


@api.get(PATH, params=(ID,), auth=REQUIRED, paginated=True)
def list_protected_environments(ctx: Context) -> Any:
    """List a project's protected environments (by name)."""
    project = _project(ctx)
    store = ctx.store
    return ctx.paginate(
        models.of_project(store, project.id),
        lambda record: protected_environment_view(store, record),
    )


@api.get(PATH + "/:name", params=(ID, NAME), auth=REQUIRED)
def get_protected_environment(ctx: Context) -> Any:
    """Get one protected environment by its exact name."""
    return protected_environment_view(ctx.store, _record_or_404(ctx, _project(ctx)))


@api.post(
    PATH,
    params=(
        ID,
        Param("name", STR, required=True, check=_encodable, description="The environment's name"),
        Param(
            "deploy_access_levels",
            Array(HASH),
            required=True,
            items=DEPLOY_ITEM,
            description="Who may deploy: each exactly one of user_id, group_id, access_level",
        ),
        Param(
            "required_approval_count",
            INT,
            default=0,
            description="Approvals needed to deploy (0 to 5)",
        ),
        Param(
            "approval_rules",
            Array(HASH),
            items=APPROVAL_ITEM,
            description="Who may approve: each at least one of access_level, user_id, group_id",
        ),
    ),
    auth=REQUIRED,
)
def protect_environment(ctx: Context) -> Any:
    """Protect an environment (409 when protected already, 422 when nothing may deploy)."""
    project = _project(ctx)
    p = ctx.params
    deploy = p.get("deploy_access_levels") or []
    rules = p.get("approval_rules") or []
    errors = _entry_errors("deploy_access_levels", deploy, DEPLOY_KEYS, exactly=True)
    errors += _entry_errors("approval_rules", rules, APPROVAL_KEYS, exactly=False)
    if errors:
        raise ParamError(errors)
    record = models.protect(
        ctx.store,
        project,
        p.get("name") or "",
        ctx.now,
        deploy_access_levels=[models.entry_data(item) for item in deploy],
        approval_rules=[models.entry_data(item) for item in rules],
        required_approval_count=(
            0 if p.get("required_approval_count") is None else p["required_approval_count"]
        ),
    )
    return protected_environment_view(ctx.store, record)


@api.delete(PATH + "/:name", params=(ID, NAME), auth=REQUIRED)
def unprotect_environment(ctx: Context) -> Any:
    """Unprotect an environment (204; 412 when ``If-Unmodified-Since`` is older)."""
    record = _record_or_404(ctx, _project(ctx))
    require_unmodified_since(ctx.request, record.updated_at)
    models.unprotect(ctx.store, record)
