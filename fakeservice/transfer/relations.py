"""The records an export carries besides the repository, as "relations": each writes its
records of a project as JSON objects (one line each in ``tree/project/<name>.ndjson``)
and reads them back into the imported project.

Areas plug in with one :func:`register_relation` call each (labels, milestones, issues,
merge requests, notes...). Reading an item may raise any exception: the import records
it in ``failed_relations`` (at most 100) and goes on with the next item. The fake's own
relation is ``project_members`` (matched to existing users by username).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.clock import iso, parse_iso
from fakeservice.core.store import Store
from fakeservice.members.models import PROJECT, of_source
from fakeservice.projects.models import Project
from fakeservice.users.models import find_by_username, users

Dump = Callable[[Store, Project], list[dict[str, Any]]]
Load = Callable[[Store, Project, dict[str, Any], dt.datetime], None]


@attrs.frozen
class Relation:
    name: str
    dump: Dump
    load: Load


_relations: dict[str, Relation] = {}


def register_relation(name: str, dump: Dump, load: Load) -> Relation:
    """Carry ``name`` records in exports and imports (keeps the first registration)."""
    return _relations.setdefault(name, Relation(name, dump, load))


def relation(name: str) -> Relation | None:
    return _relations.get(name)


def relations() -> list[Relation]:
    """Every relation, in name order (the order archives hold and imports read them)."""
    return [_relations[name] for name in sorted(_relations)]


# -- project members ---------------------------------------------------------------------


def _dump_members(store: Store, project: Project) -> list[dict[str, Any]]:
    out = []
    for member in of_source(store, PROJECT, project.id):
        user = users(store).get(member.user_id)
        if user is None:
            continue
        out.append(
            {
                "access_level": member.access_level,
                "expires_at": member.expires_at.isoformat() if member.expires_at else None,
                "created_at": iso(member.created_at),
                "user": {"username": user.username, "email": user.email},
            }
        )
    return out


def _load_member(store: Store, project: Project, item: dict[str, Any], now: dt.datetime) -> None:
    from fakeservice.members.models import add_member, find_member

    username = item["user"]["username"]
    user = find_by_username(store, str(username))
    if user is None:
        return  # members unknown here are left out, as the service does
    level = int(item["access_level"])
    if level not in (10, 15, 20, 30, 40, 50):
        raise ValueError(f"access_level {level} is not a role")
    expires = dt.date.fromisoformat(item["expires_at"]) if item.get("expires_at") else None
    created = parse_iso(item["created_at"]) if item.get("created_at") else now
    if find_member(store, PROJECT, project.id, user.id) is not None:
        return
    add_member(
        store,
        created,
        kind=PROJECT,
        source_id=project.id,
        user_id=user.id,
        access_level=level,
        expires_at=expires,
    )


register_relation("project_members", _dump_members, _load_member)
