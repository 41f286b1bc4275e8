"""Release endpoints: list (``order_by`` ``released_at`` (default) or ``created_at``,
``sort`` ``desc`` (default) or ``asc``; paginated), get, create, update, delete, and the
asset links of a release (list, get, create, update, delete).

Reading needs the rights to read code; writing needs Developer. Creating a release for a
missing tag creates the tag from ``ref`` (``422 Ref is not specified`` without one; a
protected tag needs one of its create levels, else 403). A second release of a tag is
``409 Release already exists``; an unknown release ``404 Not found``. Link names and URLs
are unique within a release (400 ``{"message": ["Url has already been taken"]}``).
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.errors import (
    ApiError,
    Conflict,
    NotFound,
    ParamError,
    Unprocessable,
)
from fakeservice.core.events import announce
from fakeservice.members.models import DEVELOPER
from fakeservice.projects.lookup import project_with_role
from fakeservice.projects.models import Project
from fakeservice.releases import models
from fakeservice.releases.models import LINK_TYPES, ORDERS, Release, ReleaseLink
from fakeservice.releases.views import link_view, release_view
from fakeservice.repository import protected_tags
from fakeservice.repository.git import ZERO_SHA, RefUpdate, Repository
from fakeservice.repository.guards import caller_role, readable
from fakeservice.repository.models import commit_email, read_repository, record_change
from fakeservice.repository.views import project_web_url
from fakeservice.web.context import Context
from fakeservice.web.params import DATETIME, HASH, INT, STR, Array, Param
from fakeservice.web.routing import PUBLIC, REQUIRED, AreaRouter

api = AreaRouter("releases")
RELEASES = "/projects/:id/releases"
ONE = RELEASES + "/:tag_name"
LINKS = ONE + "/assets/links"
ID = Param("id", STR, required=True)
TAG = Param("tag_name", STR, required=True)
LINK_ID = Param("link_id", INT, required=True)
LINK_FIELDS = (
    Param("name", STR),
    Param("url", STR),
    Param("direct_asset_path", STR),
    Param("filepath", STR),
    Param("link_type", STR, values=LINK_TYPES),
)


def _render(ctx: Context, project: Project, repo: Repository) -> Any:
    return lambda release: release_view(ctx.store, project, repo, release, ctx.base_url, ctx.now)


def _release_or_404(ctx: Context, project: Project) -> Release:
    release = models.find(ctx.store, project.id, ctx.params["tag_name"])
    if release is None:
        raise NotFound()
    return release


@api.get(
    RELEASES,
    params=(
        ID,
        Param("order_by", STR, default="released_at", values=ORDERS),
        Param("sort", STR, default="desc", values=("asc", "desc")),
    ),
    auth=PUBLIC,
    paginated=True,
)
def list_releases(ctx: Context) -> Any:
    """A project's releases, newest first by ``released_at`` unless told otherwise."""
    project, repo = readable(ctx)
    p = ctx.params
    selection = models.releases(ctx.store).select(
        f"by_{p['order_by']}", [project.id], reverse=p["sort"] == "desc"
    )
    return ctx.paginate(selection, _render(ctx, project, repo))


@api.get(ONE, params=(ID, TAG), auth=PUBLIC)
def get_release(ctx: Context) -> Any:
    """One release, by its tag."""
    project, repo = readable(ctx)
    return _render(ctx, project, repo)(_release_or_404(ctx, project))


def _link_fields(item: dict[str, Any], index: int | None = None) -> dict[str, Any]:
    where = "" if index is None else f"assets[links][{index}][%s]"
    for key in ("name", "url"):
        if not item.get(key):
            raise ParamError(f"{where % key if where else key} is missing")
    return {
        "name": item["name"],
        "url": item["url"],
        "link_type": item.get("link_type") or "other",
        "filepath": item.get("direct_asset_path") or item.get("filepath"),
    }


def _check_unique(fields: list[dict[str, Any]], existing: list[ReleaseLink]) -> None:
    names = [link.name for link in existing]
    urls = [link.url for link in existing]
    for item in fields:
        errors = []
        if item["url"] in urls:
            errors.append("Url has already been taken")
        if item["name"] in names:
            errors.append("Name has already been taken")
        if errors:
            raise ApiError({"message": errors}, status=400)
        names.append(item["name"])
        urls.append(item["url"])


@api.post(
    RELEASES,
    params=(
        ID,
        Param("tag_name", STR, required=True, allow_blank=False),
        Param("name", STR),
        Param("description", STR),
        Param("ref", STR),
        Param("tag_message", STR),
        Param("released_at", DATETIME),
        Param("milestones", Array(STR)),
        Param("assets", HASH),
    ),
    auth=REQUIRED,
)
def create_release(ctx: Context) -> Any:
    """Create a release (and its tag, from ``ref``, when the tag does not exist)."""
    project = project_with_role(ctx, DEVELOPER)
    repo = read_repository(ctx.store, project)
    p = ctx.params
    name = p["tag_name"]
    raw_links = (p.get("assets") or {}).get("links") or []
    if not isinstance(raw_links, list) or not all(isinstance(i, dict) for i in raw_links):
        raise ParamError("assets[links] is invalid")
    fields = [_link_fields(item, index) for index, item in enumerate(raw_links)]
    _check_unique(fields, [])
    if models.find(ctx.store, project.id, name) is not None:
        raise Conflict("Release already exists")
    tag = repo.tag(name)
    if tag is None:
        if not protected_tags.can_create(ctx.store, project.id, name, caller_role(ctx, project)):
            raise ApiError({"message": protected_tags.CREATE_PROTECTED}, status=403)
        if not p.get("ref"):
            raise Unprocessable("Ref is not specified")
        tag = repo.create_tag(
            name,
            p["ref"],
            p.get("tag_message"),
            tagger_name=ctx.user.name,
            tagger_email=commit_email(ctx.user),
            when=ctx.now,
        )
        update = RefUpdate(f"refs/tags/{name}", ZERO_SHA, tag.target)
        record_change(ctx.store, project, repo, ctx.now, updates=(update,), user=ctx.user)
    release = models.add(
        ctx.store,
        project_id=project.id,
        tag_name=name,
        sha=tag.commit_id,
        name=p.get("name"),
        description=p.get("description"),
        author_id=ctx.user.id,
        now=ctx.now,
        released_at=p.get("released_at"),
        link_fields=fields,
    )
    announce(ctx.store, "Release", release, "create", ctx.user.id, ctx.now)
    return _render(ctx, project, repo)(release)


@api.put(
    ONE,
    params=(
        ID,
        TAG,
        Param("name", STR),
        Param("description", STR),
        Param("released_at", DATETIME),
        Param("milestones", Array(STR)),
    ),
    auth=REQUIRED,
)
def update_release(ctx: Context) -> Any:
    """Change a release's name, description or release date."""
    project = project_with_role(ctx, DEVELOPER)
    release = _release_or_404(ctx, project)
    changes = {
        key: ctx.params[key]
        for key in ("name", "description", "released_at")
        if ctx.params.get(key) is not None
    }
    models.releases(ctx.store).update(release, **changes)
    announce(ctx.store, "Release", release, "update", ctx.user.id, ctx.now)
    return _render(ctx, project, read_repository(ctx.store, project))(release)


@api.delete(ONE, params=(ID, TAG), auth=REQUIRED, status=200)
def delete_release(ctx: Context) -> Any:
    """Delete a release (its tag stays); answers the deleted release."""
    project = project_with_role(ctx, DEVELOPER)
    release = _release_or_404(ctx, project)
    body = _render(ctx, project, read_repository(ctx.store, project))(release)
    announce(ctx.store, "Release", release, "delete", ctx.user.id, ctx.now)
    models.delete_release(ctx.store, release)
    return body


# -- asset links ------------------------------------------------------------------------------


def _link_or_404(ctx: Context, release: Release) -> ReleaseLink:
    link = models.links(ctx.store).get(ctx.params["link_id"])
    if link is None or link.release_id != release.id:
        raise NotFound()
    return link


def _base(ctx: Context, project: Project) -> str:
    return project_web_url(ctx.base_url, project)


@api.get(LINKS, params=(ID, TAG), auth=PUBLIC, paginated=True)
def list_links(ctx: Context) -> Any:
    """A release's asset links, oldest first."""
    project, _ = readable(ctx)
    release = _release_or_404(ctx, project)
    base = _base(ctx, project)
    selection = models.links(ctx.store).select("by_release", [release.id])
    return ctx.paginate(selection, lambda link: link_view(base, release, link))


@api.get(LINKS + "/:link_id", params=(ID, TAG, LINK_ID), auth=PUBLIC)
def get_link(ctx: Context) -> Any:
    project, _ = readable(ctx)
    release = _release_or_404(ctx, project)
    return link_view(_base(ctx, project), release, _link_or_404(ctx, release))


@api.post(
    LINKS,
    params=(
        ID,
        TAG,
        Param("name", STR, required=True, allow_blank=False),
        Param("url", STR, required=True, allow_blank=False),
        *LINK_FIELDS[2:],
    ),
    auth=REQUIRED,
)
def create_link(ctx: Context) -> Any:
    """Add an asset link to a release."""
    project = project_with_role(ctx, DEVELOPER)
    release = _release_or_404(ctx, project)
    fields = _link_fields(ctx.params)
    _check_unique([fields], models.links_of(ctx.store, release.id))
    return link_view(_base(ctx, project), release, models.add_link(ctx.store, release, fields))


@api.put(LINKS + "/:link_id", params=(ID, TAG, LINK_ID, *LINK_FIELDS), auth=REQUIRED)
def update_link(ctx: Context) -> Any:
    """Change an asset link."""
    project = project_with_role(ctx, DEVELOPER)
    release = _release_or_404(ctx, project)
    link = _link_or_404(ctx, release)
    p = ctx.params
    fields = _link_fields(
        {
            "name": p.get("name") or link.name,
            "url": p.get("url") or link.url,
            "link_type": p.get("link_type") or link.link_type,
            "direct_asset_path": p.get("direct_asset_path") or p.get("filepath") or link.filepath,
        }
    )
    others = [other for other in models.links_of(ctx.store, release.id) if other.id != link.id]
    _check_unique([fields], others)
    models.links(ctx.store).update(link, **fields)
    return link_view(_base(ctx, project), release, link)


@api.delete(LINKS + "/:link_id", params=(ID, TAG, LINK_ID), auth=REQUIRED, status=200)
def delete_link(ctx: Context) -> Any:
    """Remove an asset link; answers the removed link."""
    project = project_with_role(ctx, DEVELOPER)
    release = _release_or_404(ctx, project)
    link = _link_or_404(ctx, release)
    body = link_view(_base(ctx, project), release, link)
    models.links(ctx.store).delete(link)
    return body
