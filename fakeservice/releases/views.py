"""The release and release link entities, with their URLs, the tag's commit, the source
archives and ``_links``."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.projects.models import Project
from fakeservice.releases.models import Release, ReleaseLink, links_of
from fakeservice.repository.git import Repository
from fakeservice.repository.views import commit_view, project_web_url
from fakeservice.users.models import users
from fakeservice.users.views import user_ref

SOURCE_FORMATS = ("zip", "tar.gz", "tar.bz2", "tar")


def link_view(base: str, release: Release, link: ReleaseLink) -> dict[str, Any]:
    direct = (
        f"{base}/-/releases/{release.tag_name}/downloads{link.filepath}"
        if link.filepath
        else link.url
    )
    return {
        "id": link.id,
        "name": link.name,
        "url": link.url,
        "direct_asset_url": direct,
        "link_type": link.link_type,
    }


def release_view(
    store: Store,
    project: Project,
    repo: Repository,
    release: Release,
    base_url: str,
    now: dt.datetime,
) -> dict[str, Any]:
    base = project_web_url(base_url, project)
    tag = release.tag_name
    info = repo.find_commit(release.sha)
    author = users(store).get(release.author_id) if release.author_id is not None else None
    asset_links = [link_view(base, release, link) for link in links_of(store, release.id)]
    sources = [
        {"format": fmt, "url": f"{base}/-/archive/{tag}/{project.path}-{tag}.{fmt}"}
        for fmt in SOURCE_FORMATS
    ]
    self_url = f"{base}/-/releases/{tag}"
    return {
        "name": release.name,
        "tag_name": tag,
        "description": release.description,
        "created_at": iso(release.created_at),
        "released_at": iso(release.released_at),
        "upcoming_release": release.released_at > now,
        "author": user_ref(author, base_url),
        "commit": commit_view(info, base) if info is not None else None,
        "milestones": [],
        "commit_path": f"/{project.path_with_namespace}/-/commit/{release.sha}",
        "tag_path": f"/{project.path_with_namespace}/-/tags/{tag}",
        "assets": {
            "count": len(sources) + len(asset_links),
            "sources": sources,
            "links": asset_links,
        },
        "evidences": [],
        "_links": {
            "closed_issues_url": f"{base}/-/issues?release_tag={tag}&scope=all&state=closed",
            "closed_merge_requests_url": f"{base}/-/merge_requests?release_tag={tag}&scope=all&state=closed",
            "edit_url": f"{self_url}/edit",
            "merged_merge_requests_url": f"{base}/-/merge_requests?release_tag={tag}&scope=all&state=merged",
            "opened_issues_url": f"{base}/-/issues?release_tag={tag}&scope=all&state=opened",
            "opened_merge_requests_url": f"{base}/-/merge_requests?release_tag={tag}&scope=all&state=opened",
            "self": self_url,
        },
    }
