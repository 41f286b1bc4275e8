"""Topic records and the operations on them.

A project's ``topics`` name topic records: writing a name that exists in another case
uses the existing topic's spelling, and a new name creates a topic titled like it. Each
topic keeps ``total_projects_count`` and ``non_private_projects_count``, recounted from
the projects' topic index whenever a project's topics or visibility change, so the list
(most non-private projects first, then by id) is served from a sorted index.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Store, Table
from fakeservice.projects.models import Project, projects

NAME_LIMIT, TITLE_LIMIT, DESCRIPTION_LIMIT = 255, 255, 1024


@attrs.define(slots=True)
class Topic:
    id: int
    name: str
    title: str
    created_at: dt.datetime
    description: str | None = None
    total_projects_count: int = 0
    non_private_projects_count: int = 0


def topics(store: Store) -> Table[Topic]:
    return store.tables["topics"]


def install(store: Store) -> None:
    table = store.table("topics")
    table.add_unique("name", lambda t: t.name.lower())
    table.add_sorted("by_popularity", lambda t: "all", lambda t: (-t.non_private_projects_count,))


def find_topic(store: Store, name: str) -> Topic | None:
    return topics(store).by("name", name.strip().lower())


def _length(errors: dict[str, list[str]], field: str, value: str | None, limit: int) -> None:
    if value is not None and len(value) > limit:
        errors.setdefault(field, []).append(f"is too long (maximum is {limit} characters)")


def topic_errors(
    store: Store,
    *,
    name: str | None,
    title: str | None,
    description: str | None,
    exclude: int | None = None,
) -> dict[str, list[str]]:
    """Model validation of a topic's fields, as the service words it."""
    errors: dict[str, list[str]] = {}
    if name is None or not name.strip():
        errors["name"] = ["can't be blank"]
    else:
        _length(errors, "name", name, NAME_LIMIT)
        other = find_topic(store, name)
        if other is not None and other.id != exclude:
            errors.setdefault("name", []).append("has already been taken")
    if title is None or not title.strip():
        errors["title"] = ["can't be blank"]
    else:
        _length(errors, "title", title, TITLE_LIMIT)
    _length(errors, "description", description, DESCRIPTION_LIMIT)
    return errors


def create_topic(
    store: Store, now: dt.datetime, *, name: str, title: str, description: str | None = None
) -> Topic:
    errors = topic_errors(store, name=name, title=title, description=description)
    if errors:
        raise ValidationFailed(errors)
    topic = Topic(
        id=store.next_id("topics"),
        name=name.strip(),
        title=title.strip(),
        description=description,
        created_at=now,
    )
    topics(store).insert(topic)
    recount(store, [topic.name])
    return topic


def canonical(store: Store, now: dt.datetime, names: Iterable[str]) -> list[str]:
    """The topic names a project gets for ``names``: an existing topic's own spelling, or
    a new topic (titled like its name)."""
    out = []
    for name in names:
        topic = find_topic(store, name)
        if topic is None:
            topic = create_topic(store, now, name=name, title=name)
        out.append(topic.name)
    return out


def recount(store: Store, names: Iterable[str]) -> None:
    """Recount the projects of the named topics (from the projects' topic index)."""
    table = topics(store)
    index = projects(store).sorted["topic"]
    rows = projects(store).rows
    for name in {n.lower() for n in names}:
        topic = table.by("name", name)
        if topic is None:
            continue
        ids = [entry[-1] for entry in index.part(name)]
        public = sum(1 for pid in ids if rows[pid].visibility != "private")
        if (topic.total_projects_count, topic.non_private_projects_count) != (len(ids), public):
            table.update(topic, total_projects_count=len(ids), non_private_projects_count=public)


def project_ids(store: Store, topic: Topic) -> list[int]:
    return [entry[-1] for entry in projects(store).sorted["topic"].part(topic.name.lower())]


def _replace(project_topics: list[str], old: str, new: str | None) -> list[str]:
    out = []
    for name in project_topics:
        replacement = new if name.lower() == old.lower() else name
        if replacement is not None and replacement.lower() not in {n.lower() for n in out}:
            out.append(replacement)
    return out


def rename_in_projects(store: Store, topic: Topic, new: str | None) -> None:
    """Give every project of ``topic`` the name ``new`` instead (None: drop it)."""
    table = projects(store)
    for pid in project_ids(store, topic):
        project: Project = table.rows[pid]
        table.update(project, topics=_replace(project.topics, topic.name, new))


def delete_topic(store: Store, topic: Topic) -> None:
    rename_in_projects(store, topic, None)
    topics(store).delete(topic)


def merge_topics(store: Store, source: Topic, target: Topic) -> Topic:
    """Move the source topic's projects to the target and delete the source."""
    rename_in_projects(store, source, target.name)
    topics(store).delete(source)
    recount(store, [target.name])
    return target
