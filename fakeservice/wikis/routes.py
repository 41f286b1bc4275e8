"""Wiki endpoints of projects and groups: list (``with_content``), get (``version``,
``render_html``), create, edit, delete and attachment upload.

Reading follows the wiki's access level: ``disabled`` is 403 for everyone, ``private``
lets only members (Guest and up) read; otherwise whoever sees the project or group reads
its wiki. Writing needs the Developer role (never into an archived project). Group
wikis are a paid-tier feature: on the free plan they are 403. A caller who may not see
the project or group gets its 404 first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.errors import Forbidden, NotFound
from fakeservice.core.store import Store
from fakeservice.groups.lookup import find_group_or_404, group_access_level
from fakeservice.members.models import DEVELOPER, GUEST
from fakeservice.projects.lookup import access_level, find_project_or_404
from fakeservice.projects.models import Project
from fakeservice.web.context import Context
from fakeservice.web.params import BOOL, FILE, STR, AtLeastOne, Param
from fakeservice.web.routing import REQUIRED
from fakeservice.web.settings_table import licensed
from fakeservice.wikis import models
from fakeservice.wikis.models import Page, Wiki
from fakeservice.wikis.pages import FORMATS
from fakeservice.wikis.router import api
from fakeservice.wikis.views import attachment_view, page_basic, page_view

ID = Param("id", STR, required=True)
SLUG = Param("slug", STR, required=True)
FORMAT_VALUES = tuple(FORMATS)


@attrs.frozen
class Owner:
    """The project or group of a request: its wiki, the caller's role, the wiki's access
    level and whether writes are closed whatever the role (an archived project)."""

    wiki: Wiki
    role: int
    level: str
    frozen: bool = False

    @property
    def readable(self) -> bool:
        return self.level != "disabled" and (self.level != "private" or self.role >= GUEST)

    @property
    def writable(self) -> bool:
        return self.readable and self.role >= DEVELOPER and not self.frozen

    def check_read(self) -> None:
        if not self.readable:
            raise Forbidden()

    def check_write(self) -> None:
        if not self.writable:
            raise Forbidden()


def project_owner(store: Store, project: Project, role: int) -> Owner:
    """The wiki of ``project`` as a caller with ``role`` in it may use it."""
    level = project.features.get("wiki", "enabled")
    if project.visibility == "private" and level == "enabled":
        level = "private"
    wiki = models.wiki_of(store, "project", project.id)
    return Owner(wiki, role, level, frozen=project.archived)


def _project(ctx: Context) -> Owner:
    project = find_project_or_404(ctx, ctx.params["id"])
    return project_owner(ctx.store, project, access_level(ctx, project))


def _group(ctx: Context) -> Owner:
    group = find_group_or_404(ctx, ctx.params["id"])
    level = str(group.settings.get("wiki_access_level", "enabled"))
    if not licensed(ctx.store, "premium"):
        level = "disabled"
    elif group.visibility == "private" and level == "enabled":
        level = "private"
    wiki = models.wiki_of(ctx.store, "group", group.id)
    return Owner(wiki, group_access_level(ctx, group), level)


def _find(ctx: Context, owner: Owner, version: str | None = None) -> Page:
    page = models.find_page(owner.wiki, ctx.params["slug"], version)
    if page is None:
        raise NotFound("Wiki Page")
    return page


def _list(ctx: Context, owner: Owner) -> Any:
    owner.check_read()
    found = models.list_pages(owner.wiki, content=ctx.params["with_content"])
    if ctx.params["with_content"]:
        return [page_view(page) for page in found]
    return [page_basic(page) for page in found]


def _get(ctx: Context, owner: Owner) -> Any:
    owner.check_read()
    page = _find(ctx, owner, ctx.params.get("version"))
    return page_view(page, html=ctx.params["render_html"])


def _create(ctx: Context, owner: Owner) -> Any:
    owner.check_write()
    p = ctx.params
    page = models.create_page(
        ctx.store, owner.wiki, ctx.user, ctx.now, p["title"], p["content"], p["format"]
    )
    return page_view(page)


def _edit(ctx: Context, owner: Owner) -> Any:
    owner.check_write()
    page = _find(ctx, owner)
    p = ctx.params
    updated = models.update_page(
        ctx.store,
        owner.wiki,
        page,
        ctx.user,
        ctx.now,
        title=p.get("title"),
        content=p.get("content"),
        fmt=p.get("format"),
    )
    return page_view(updated)


def _delete(ctx: Context, owner: Owner) -> Any:
    owner.check_write()
    models.delete_page(ctx.store, owner.wiki, _find(ctx, owner), ctx.user, ctx.now)
    return None


def _attach(ctx: Context, owner: Owner) -> Any:
    owner.check_write()
    upload = ctx.params["file"]
    found = models.attach(
        ctx.store,
        owner.wiki,
        ctx.user,
        ctx.now,
        upload.filename,
        upload.data,
        ctx.params.get("branch"),
    )
    return attachment_view(found)


def _declare(prefix: str, find: Callable[[Context], Owner], label: str) -> None:
    base = f"/{prefix}/:id/wikis"

    @api.get(
        base,
        params=(ID, Param("with_content", BOOL, default=False)),
        summary=f"List a {label}'s wiki pages",
    )
    def list_pages(ctx: Context) -> Any:
        return _list(ctx, find(ctx))

    @api.get(
        f"{base}/:slug",
        params=(
            ID,
            SLUG,
            Param("version", STR),
            Param("render_html", BOOL, default=False),
        ),
        summary=f"Get a {label}'s wiki page",
    )
    def get_page(ctx: Context) -> Any:
        return _get(ctx, find(ctx))

    @api.post(
        base,
        params=(
            ID,
            Param("title", STR, required=True),
            Param("content", STR, required=True),
            Param("format", STR, default="markdown", values=FORMAT_VALUES),
        ),
        auth=REQUIRED,
        summary=f"Create a {label}'s wiki page",
    )
    def create_page(ctx: Context) -> Any:
        return _create(ctx, find(ctx))

    @api.put(
        f"{base}/:slug",
        params=(
            ID,
            SLUG,
            Param("title", STR),
            Param("content", STR),
            Param("format", STR, values=FORMAT_VALUES),
        ),
        constraints=(AtLeastOne(("content", "title", "format")),),
        auth=REQUIRED,
        summary=f"Edit a {label}'s wiki page",
    )
    def edit_page(ctx: Context) -> Any:
        return _edit(ctx, find(ctx))

    @api.delete(
        f"{base}/:slug",
        params=(ID, SLUG),
        auth=REQUIRED,
        status=204,
        summary=f"Delete a {label}'s wiki page",
    )
    def delete_page(ctx: Context) -> Any:
        return _delete(ctx, find(ctx))

    @api.post(
        f"{base}/attachments",
        params=(ID, Param("file", FILE, required=True), Param("branch", STR)),
        auth=REQUIRED,
        summary=f"Upload an attachment to a {label}'s wiki",
    )
    def upload_attachment(ctx: Context) -> Any:
        return _attach(ctx, find(ctx))


_declare("projects", _project, "project")
_declare("groups", _group, "group")
