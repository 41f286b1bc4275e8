"""Badge records, their validation and the placeholder rendering.

A project shows its own badges and the badges of its group and the group's ancestors
(``kind`` ``project`` or ``group``), by id. Placeholders in ``link_url`` and
``image_url`` are replaced for a project; without one (a group's own list) the URLs are
rendered unchanged, as the service does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Store, Table
from fakeservice.groups.models import namespaces, self_and_ancestor_ids
from fakeservice.projects.models import Project

PROJECT, GROUP = "project", "group"
URL_LIMIT = 2048
_PLACEHOLDER = re.compile(r"%\{([a-z_]+)\}")


@attrs.define(slots=True)
class Badge:
    id: int
    kind: str  # "project" or "group"
    source_id: int
    link_url: str
    image_url: str
    name: str | None = None


def badges(store: Store) -> Table[Badge]:
    return store.tables["badges"]


def install(store: Store) -> None:
    store.table("badges").add_sorted("source", lambda b: (b.kind, b.source_id))


def project_keys(store: Store, project: Project) -> tuple[tuple[str, int], ...]:
    """Where a project's badges come from: itself, its group and the group's ancestors."""
    ns = namespaces(store).rows[project.namespace_id]
    keys = [(PROJECT, project.id)]
    if ns.is_group:
        keys.extend((GROUP, gid) for gid in self_and_ancestor_ids(store, ns))
    return tuple(keys)


def url_errors(value: str | None) -> list[str]:
    if value is None or not value.strip():
        return ["can't be blank"]
    if len(value) > URL_LIMIT:
        return [f"is too long (maximum is {URL_LIMIT} characters)"]
    try:
        parts = urlsplit(_PLACEHOLDER.sub("x", value.strip()))
    except ValueError:
        return ["must be a valid URL"]
    if not parts.scheme or not parts.netloc or any(c.isspace() for c in value.strip()):
        return ["must be a valid URL"]
    if parts.scheme.lower() not in ("http", "https"):
        return ["is blocked: Only allowed schemes are http, https"]
    return []


def badge_errors(link_url: str | None, image_url: str | None) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for field, value in (("link_url", link_url), ("image_url", image_url)):
        found = url_errors(value)
        if found:
            errors[field] = found
    return errors


def add_badge(
    store: Store, kind: str, source_id: int, *, link_url: str, image_url: str, name: str | None
) -> Badge:
    errors = badge_errors(link_url, image_url)
    if errors:
        raise ValidationFailed(errors)
    badge = Badge(
        id=store.next_id("badges"),
        kind=kind,
        source_id=source_id,
        link_url=link_url.strip(),
        image_url=image_url.strip(),
        name=name,
    )
    badges(store).insert(badge)
    return badge


def edit_badge(store: Store, badge: Badge, **fields: Any) -> Badge:
    errors = badge_errors(
        fields.get("link_url", badge.link_url), fields.get("image_url", badge.image_url)
    )
    if errors:
        raise ValidationFailed(errors)
    for key in ("link_url", "image_url"):
        if key in fields:
            fields[key] = fields[key].strip()
    return badges(store).update(badge, **fields)


Placeholders = dict[str, Callable[[], str | None]]


def render(url: str, values: Placeholders | None) -> str:
    """``url`` with every known placeholder replaced (unchanged without a project)."""
    if values is None:
        return url

    def replace(found: re.Match[str]) -> str:
        compute = values.get(found.group(1))
        if compute is None:
            return found.group(0)
        return str(compute() or "")

    return _PLACEHOLDER.sub(replace, url)


def delete_project_badges(store: Store, project: Project) -> None:
    for badge in list(badges(store).select("source", [(PROJECT, project.id)])):
        badges(store).delete(badge)
