"""Badges endpoints of projects and groups: list (``name``), get, add, edit, delete and
``render``. Reading needs read access to the project or group; writing needs the
Maintainer role in a project or the Owner role in a group. A project lists its groups'
badges too (``kind: group``) but deletes them only through the group."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.badges import models
from fakeservice.badges.models import GROUP, PROJECT, Badge, Placeholders
from fakeservice.badges.views import badge_view, placeholders, rendered
from fakeservice.core.errors import ApiError, NotFound
from fakeservice.groups.lookup import find_group_or_404, require_group_access
from fakeservice.members.models import MAINTAINER, OWNER
from fakeservice.projects.lookup import find_project_or_404, require_access
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("badges")

ID = Param("id", STR, required=True)
BADGE_ID = Param("badge_id", INT, required=True)


@attrs.frozen
class Source:
    """The project or group of a request: its kind and id, the sources of its badges, the placeholder
    values its badges render with, and the check before a write."""

    kind: str
    id: int
    keys: tuple[tuple[str, int], ...]
    values: Placeholders | None
    require_admin: Callable[[], Any]


def _project(ctx: Context) -> Source:
    project = find_project_or_404(ctx, ctx.params["id"])
    return Source(
        PROJECT,
        project.id,
        models.project_keys(ctx.store, project),
        placeholders(ctx.store, project, ctx.base_url),
        lambda: require_access(ctx, project, MAINTAINER),
    )


def _group(ctx: Context) -> Source:
    group = find_group_or_404(ctx, ctx.params["id"])
    return Source(
        GROUP,
        group.id,
        ((GROUP, group.id),),
        None,
        lambda: require_group_access(ctx, group, OWNER),
    )


def _find(ctx: Context, source: Source) -> Badge:
    badge = models.badges(ctx.store).get(ctx.params["badge_id"])
    if badge is None or (badge.kind, badge.source_id) not in source.keys:
        raise NotFound()
    return badge


def _list(ctx: Context, source: Source) -> Any:
    selection = models.badges(ctx.store).select("source", list(source.keys))
    if ctx.params.get("name") is not None:
        name = ctx.params["name"]
        selection = selection.filter(lambda b: b.name == name)
    return ctx.paginate(selection, lambda b: badge_view(b, source.values))


def _render(ctx: Context, source: Source) -> Any:
    p = ctx.params
    return rendered(None, p["link_url"], p["image_url"], source.values)


def _add(ctx: Context, source: Source) -> Any:
    source.require_admin()
    p = ctx.params
    badge = models.add_badge(
        ctx.store,
        source.kind,
        source.id,
        link_url=p["link_url"],
        image_url=p["image_url"],
        name=p.get("name"),
    )
    return badge_view(badge, source.values)


def _edit(ctx: Context, source: Source) -> Any:
    source.require_admin()
    badge = _find(ctx, source)
    fields = {k: ctx.params[k] for k in ("link_url", "image_url", "name") if k in ctx.params}
    return badge_view(models.edit_badge(ctx.store, badge, **fields), source.values)


def _delete(ctx: Context, source: Source) -> Any:
    source.require_admin()
    badge = _find(ctx, source)
    if source.kind == PROJECT and badge.kind == GROUP:
        raise ApiError(
            {"message": "To delete a Group badge please use the Group endpoint"}, status=403
        )
    models.badges(ctx.store).delete(badge)
    return None


URLS = (Param("link_url", STR, required=True), Param("image_url", STR, required=True))


def _declare(prefix: str, find: Callable[[Context], Source], label: str) -> None:
    base = f"/{prefix}/:id/badges"

    @api.get(
        base, params=(ID, Param("name", STR)), paginated=True, summary=f"List a {label}'s badges"
    )
    def list_badges(ctx: Context) -> Any:
        return _list(ctx, find(ctx))

    @api.get(f"{base}/render", params=(ID, *URLS), summary="Preview a badge's rendered URLs")
    def render_badge(ctx: Context) -> Any:
        return _render(ctx, find(ctx))

    @api.get(f"{base}/:badge_id", params=(ID, BADGE_ID), summary=f"Get a {label}'s badge")
    def get_badge(ctx: Context) -> Any:
        source = find(ctx)
        return badge_view(_find(ctx, source), source.values)

    @api.post(
        base,
        params=(ID, *URLS, Param("name", STR)),
        auth=REQUIRED,
        summary=f"Add a badge to a {label}",
    )
    def add_badge(ctx: Context) -> Any:
        return _add(ctx, find(ctx))

    @api.put(
        f"{base}/:badge_id",
        params=(ID, BADGE_ID, Param("link_url", STR), Param("image_url", STR), Param("name", STR)),
        auth=REQUIRED,
        summary=f"Edit a {label}'s badge",
    )
    def edit_badge(ctx: Context) -> Any:
        return _edit(ctx, find(ctx))

    @api.delete(
        f"{base}/:badge_id",
        params=(ID, BADGE_ID),
        auth=REQUIRED,
        summary=f"Delete a {label}'s badge",
    )
    def delete_badge(ctx: Context) -> Any:
        return _delete(ctx, find(ctx))


_declare("projects", _project, "project")
_declare("groups", _group, "group")
