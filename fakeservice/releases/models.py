"""Release and asset link records, with indexes.

* releases: unique ``project_tag``; ``by_released_at`` and ``by_created_at`` (a project's
  releases in each list order, ties by id);
* links: ``by_release`` (oldest first), unique ``release_name`` and ``release_url`` (a
  release's links have distinct names and URLs, as the service checks).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

import attrs

from fakeservice.core.store import Store, Table

ORDERS = ("released_at", "created_at")
LINK_TYPES = ("other", "runbook", "image", "package")


@attrs.define(slots=True)
class Release:
    id: int
    project_id: int
    tag_name: str
    name: str
    description: str
    author_id: int | None
    created_at: dt.datetime
    released_at: dt.datetime
    sha: str


@attrs.define(slots=True)
class ReleaseLink:
    id: int
    release_id: int
    name: str
    url: str
    link_type: str = "other"
    filepath: str | None = None


def releases(store: Store) -> Table[Release]:
    return store.tables["releases"]


def links(store: Store) -> Table[ReleaseLink]:
    return store.tables["release_links"]


def install(store: Store) -> None:
    table = store.table("releases")
    table.add_unique("project_tag", lambda r: (r.project_id, r.tag_name))
    for order in ORDERS:
        table.add_sorted(f"by_{order}", lambda r: r.project_id, lambda r, o=order: (getattr(r, o),))
    link_table = store.table("release_links")
    link_table.add_sorted("by_release", lambda link: link.release_id)
    link_table.add_unique("release_name", lambda link: (link.release_id, link.name))
    link_table.add_unique("release_url", lambda link: (link.release_id, link.url))


def add(
    store: Store,
    *,
    project_id: int,
    tag_name: str,
    sha: str,
    name: str | None,
    description: str | None,
    author_id: int | None,
    now: dt.datetime,
    released_at: dt.datetime | None,
    link_fields: Iterable[dict[str, Any]] = (),
) -> Release:
    """Store a release of ``tag_name`` (at commit ``sha``) and its links."""
    release = releases(store).insert(
        Release(
            id=store.next_id("releases"),
            project_id=project_id,
            tag_name=tag_name,
            name=name or tag_name,
            description=description or "",
            author_id=author_id,
            created_at=now,
            released_at=released_at or now,
            sha=sha,
        )
    )
    for fields in link_fields:
        add_link(store, release, fields)
    return release


def add_link(store: Store, release: Release, fields: dict[str, Any]) -> ReleaseLink:
    link = ReleaseLink(id=store.next_id("release_links"), release_id=release.id, **fields)
    return links(store).insert(link)


def find(store: Store, project_id: int, tag_name: str) -> Release | None:
    return releases(store).by("project_tag", (project_id, tag_name))


def links_of(store: Store, release_id: int) -> list[ReleaseLink]:
    return list(links(store).select("by_release", [release_id]))


def delete_release(store: Store, release: Release) -> None:
    table = links(store)
    for link in links_of(store, release.id):
        table.delete(link)
    releases(store).delete(release)


def forget_project(store: Store, project: object) -> None:
    project_id: int = project.id  # type: ignore[attr-defined]
    for release in list(releases(store).select("by_created_at", [project_id])):
        delete_release(store, release)
