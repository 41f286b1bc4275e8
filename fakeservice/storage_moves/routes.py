"""Repository storage move endpoints (seed 001 §4.11; administrators only), for projects,
snippets and groups (groups: paid tier, 403 otherwise):

* ``GET /<kind>_repository_storage_moves`` (newest first) and ``.../:id``;
* ``POST /<kind>_repository_storage_moves``: move every container on
  ``source_storage_name`` (a configured storage) to ``destination_storage_name``
  (optional), 202 ``{"message":"202 Accepted"}``;
* ``GET /<kinds>/:id/repository_storage_moves`` and ``.../:repository_storage_move_id``;
* ``POST /<kinds>/:id/repository_storage_moves``: move one container, 201 with the move.

New projects (``POST /projects``) are placed on the storage the weights prefer. An
administrator's ``PUT /projects/:id`` with another ``repository_storage`` schedules a move
to it, as the real service does: the project keeps answering with its current storage
until the move has replicated. An invalid move fails the whole edit with 400, its errors
under ``repository_storage_moves.<field>`` (Rails' naming for an associated record's).

Unknown moves are ``404 Not found``; unknown containers ``404 <Kind> Not Found``.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import NotFound, ParamError, ValidationFailed, or_404
from fakeservice.groups.lookup import find_group_or_404
from fakeservice.instance.models import require_paid_plan, storage_names
from fakeservice.instance.settings import preferred_storage
from fakeservice.projects.lookup import find_project_or_404
from fakeservice.projects.models import projects
from fakeservice.storage_moves import models
from fakeservice.storage_moves.containers import ContainerKind, container_kind
from fakeservice.storage_moves.router import api
from fakeservice.storage_moves.views import move_view
from fakeservice.web.context import Context
from fakeservice.web.http import json_response
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import ADMIN

MOVE_ID = Param("repository_storage_move_id", INT, required=True, description="The move's ID")
DESTINATION = Param(
    "destination_storage_name", STR, description="The destination storage (default: chosen)"
)
ACCEPTED = {"message": "202 Accepted"}


def _kind(ctx: Context, name: str, paid: bool) -> ContainerKind | None:
    """The container kind (None until an area registers it, as snippets are); 403 for a
    paid-tier kind on a plan without it."""
    if paid:
        require_paid_plan(ctx.store)
    return container_kind(name)


def _container(ctx: Context, kind: ContainerKind | None, label: str) -> Any:
    if kind is None:
        raise NotFound(label)
    key = ctx.params["id"]
    if kind.name == "project":
        return find_project_or_404(ctx, key)
    if kind.name == "group":
        return find_group_or_404(ctx, key)
    found = kind.find(ctx.store, key) if isinstance(key, int) else None
    if found is None:
        raise NotFound(kind.label)
    return found


def _storage_errors(ctx: Context, names: tuple[str, ...]) -> None:
    known = storage_names(ctx.store)
    bad = [name for name in names if ctx.get(name) is not None and ctx.params[name] not in known]
    if bad:
        raise ParamError([f"{name} does not have a valid value" for name in bad])


def _register(name: str, plural: str, label: str, id_type: Any, paid: bool = False) -> None:
    bulk = f"/{name}_repository_storage_moves"
    own = f"/{plural}/:id/repository_storage_moves"
    container_id = Param("id", id_type, required=True, description=f"The {name}'s ID")

    def render(ctx: Context) -> Any:
        return lambda move: move_view(ctx.store, move, ctx.base_url)

    @api.get(bulk, auth=ADMIN, paginated=True, summary=f"List all {name} storage moves")
    def list_all(ctx: Context) -> Any:
        _kind(ctx, name, paid)
        return ctx.paginate(models.of_kind(ctx.store, name), render(ctx))

    @api.get(
        bulk + "/:repository_storage_move_id",
        params=(MOVE_ID,),
        auth=ADMIN,
        summary=f"Get a {name} storage move",
    )
    def get_one(ctx: Context) -> Any:
        _kind(ctx, name, paid)
        move = or_404(models.find(ctx.store, name, ctx.params["repository_storage_move_id"]))
        return move_view(ctx.store, move, ctx.base_url)

    @api.post(
        bulk,
        params=(
            Param("source_storage_name", STR, required=True, description="The source storage"),
            DESTINATION,
        ),
        auth=ADMIN,
        summary=f"Move every {name} of a storage",
    )
    def schedule_all(ctx: Context) -> Any:
        kind = _kind(ctx, name, paid)
        _storage_errors(ctx, ("source_storage_name", "destination_storage_name"))
        if kind is not None:
            source = ctx.params["source_storage_name"]
            models.schedule_bulk(ctx.store, kind, source, ctx.get(DESTINATION.name), ctx.now)
        return json_response(ACCEPTED, 202)

    @api.get(
        own,
        params=(container_id,),
        auth=ADMIN,
        paginated=True,
        summary=f"List a {name}'s storage moves",
    )
    def list_own(ctx: Context) -> Any:
        kind = _kind(ctx, name, paid)
        container = _container(ctx, kind, label)
        return ctx.paginate(models.of_container(ctx.store, name, container.id), render(ctx))

    @api.get(
        own + "/:repository_storage_move_id",
        params=(container_id, MOVE_ID),
        auth=ADMIN,
        summary=f"Get one of a {name}'s storage moves",
    )
    def get_own(ctx: Context) -> Any:
        kind = _kind(ctx, name, paid)
        container = _container(ctx, kind, label)
        move_id = ctx.params["repository_storage_move_id"]
        move = models.find(ctx.store, name, move_id, container.id)
        return move_view(ctx.store, or_404(move), ctx.base_url)

    @api.post(
        own, params=(container_id, DESTINATION), auth=ADMIN, summary=f"Move a {name}'s repository"
    )
    def schedule_own(ctx: Context) -> Any:
        kind = _kind(ctx, name, paid)
        container = _container(ctx, kind, label)
        assert kind is not None
        move = models.create_move(ctx.store, kind, container, ctx.get(DESTINATION.name), ctx.now)
        return move_view(ctx.store, move, ctx.base_url)


def place_new_project(ctx: Context, project: Any, params: dict[str, Any]) -> None:
    """New projects live on the storage the weights prefer (``repository_storages_weighted``:
    the highest weight, ties by name) unless an administrator named one."""
    if ctx.is_admin and params.get("repository_storage"):
        return
    wanted = preferred_storage(ctx.store)
    if project.repository_storage != wanted:
        projects(ctx.store).update(project, repository_storage=wanted)


def move_edited_project(ctx: Context, project: Any, storage: str) -> None:
    """Schedule the move an administrator's ``PUT /projects/:id`` asked for (400 first,
    leaving everything as it was, when the move would be invalid)."""
    kind = container_kind("project")
    assert kind is not None
    errors = models.errors_for(ctx.store, kind, project, storage)
    if errors:
        raise ValidationFailed(
            {f"repository_storage_moves.{key}": found for key, found in errors.items()}
        )
    models.create_move(ctx.store, kind, project, storage, ctx.now)


_register("project", "projects", "Project", STR)
_register("snippet", "snippets", "Snippet", INT)
_register("group", "groups", "Group", STR, paid=True)
