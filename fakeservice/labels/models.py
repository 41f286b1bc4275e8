"""Labels of projects and groups: records, lookups and the operations on them.

A label belongs to a project or to a group (``owner`` is ``("project", id)`` or
``("group", id)``); a project sees its own labels and those of its ancestor groups. Names
are unique per owner regardless of case. Issues and merge requests keep label ids, so a
rename shows everywhere at once.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

import attrs

from fakeservice.core.errors import Conflict, ValidationFailed
from fakeservice.core.store import Selection, Store, Table, as_id
from fakeservice.groups.models import namespaces, self_and_ancestor_ids
from fakeservice.projects.models import Project

PROJECT, GROUP = "project", "group"
DEFAULT_COLOR = "#6699cc"
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
NAMED_COLORS = {
    "red": "#FF0000",
    "green": "#008000",
    "blue": "#0000FF",
    "black": "#000000",
    "white": "#FFFFFF",
    "orange": "#FFA500",
    "yellow": "#FFFF00",
    "purple": "#800080",
    "gray": "#808080",
    "grey": "#808080",
}

Owner = tuple[str, int]


@attrs.define(slots=True)
class Label:
    id: int
    owner_kind: str
    owner_id: int
    name: str
    color: str
    description: str | None
    created_at: dt.datetime
    priority: int | None = None

    @property
    def owner(self) -> Owner:
        return (self.owner_kind, self.owner_id)


def labels(store: Store) -> Table[Label]:
    return store.tables["labels"]


def install(store: Store) -> None:
    table = store.table("labels")
    table.add_unique("owner_name", lambda r: (r.owner_kind, r.owner_id, r.name.lower()))
    table.add_sorted("owner", lambda r: (r.owner_kind, r.owner_id), lambda r: (r.name.lower(),))


def normal_color(value: str) -> str | None:
    """``#RRGGBB``/``#RGB`` as given, a CSS colour name as its code, else None."""
    text = value.strip()
    if _HEX.match(text):
        return text
    return NAMED_COLORS.get(text.lower())


def text_color(color: str) -> str:
    """White on dark colours, near-black on light ones (the service's rule of luminance)."""
    code = color.lstrip("#")
    if len(code) == 3:
        code = "".join(c * 2 for c in code)
    red, green, blue = (int(code[i : i + 2], 16) for i in (0, 2, 4))
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return "#1F1E24" if luminance > 128 else "#FFFFFF"


def owners_of_project(store: Store, project: Project) -> list[Owner]:
    """The owners whose labels a project sees: itself, then its ancestor groups."""
    namespace = namespaces(store).rows[project.namespace_id]
    groups = self_and_ancestor_ids(store, namespace) if namespace.is_group else []
    return [(PROJECT, project.id), *((GROUP, gid) for gid in groups)]


def owners_of_group(store: Store, group_id: int) -> list[Owner]:
    return [(GROUP, gid) for gid in self_and_ancestor_ids(store, namespaces(store).rows[group_id])]


def of_owners(store: Store, owners: Iterable[Owner]) -> Selection[Label]:
    return labels(store).select("owner", list(owners))


def find(store: Store, owners: Iterable[Owner], key: object) -> Label | None:
    """A label by id or by name (case-insensitive) among ``owners``' labels."""
    owners = list(owners)
    table = labels(store)
    rid = as_id(key)
    if rid is not None:
        found = table.get(rid)
        if found is not None and found.owner in owners:
            return found
    name = str(key).lower()
    for kind, owner_id in owners:
        label = table.by("owner_name", (kind, owner_id, name))
        if label is not None:
            return label
    return None


def _checked_color(color: str | None, default: str | None) -> str:
    if color is None:
        if default is None:
            raise ValidationFailed({"color": ["can't be blank", "must be a valid color code"]})
        return default
    normal = normal_color(color)
    if normal is None:
        raise ValidationFailed({"color": ["must be a valid color code"]})
    return normal


def _checked_name(name: str) -> str:
    text = name.strip()
    if not text:
        raise ValidationFailed({"title": ["can't be blank"]})
    if "," in text:
        raise ValidationFailed({"title": ["is invalid"]})
    return text


def create(
    store: Store,
    owner: Owner,
    now: dt.datetime,
    *,
    name: str,
    color: str | None,
    description: str | None = None,
    priority: int | None = None,
) -> Label:
    """A new label; 409 ``Label already exists`` when the owner has one of that name."""
    text = _checked_name(name)
    code = _checked_color(color, DEFAULT_COLOR)
    if labels(store).by("owner_name", (*owner, text.lower())) is not None:
        raise Conflict("Label already exists")
    label = Label(
        id=store.next_id("labels"),
        owner_kind=owner[0],
        owner_id=owner[1],
        name=text,
        color=code,
        description=description,
        created_at=now,
        priority=priority if owner[0] == PROJECT else None,
    )
    return labels(store).insert(label)


def update(
    store: Store,
    label: Label,
    *,
    new_name: str | None = None,
    color: str | None = None,
    description: str | None = None,
    priority: int | None = None,
    fields: Iterable[str] = (),
) -> Label:
    """Change the given ``fields``; validated first, 409 when the new name is taken."""
    given = set(fields)
    changes: dict[str, object] = {}
    if "new_name" in given and new_name is not None:
        text = _checked_name(new_name)
        other = labels(store).by("owner_name", (*label.owner, text.lower()))
        if other is not None and other.id != label.id:
            raise Conflict("Label already exists")
        changes["name"] = text
    if "color" in given and color is not None:
        changes["color"] = _checked_color(color, None)
    if "description" in given:
        changes["description"] = description
    if "priority" in given and label.owner_kind == PROJECT:
        changes["priority"] = priority
    return labels(store).update(label, **changes)


def delete(store: Store, label: Label) -> None:
    labels(store).delete(label)


def find_or_create(
    store: Store, project: Project, names: Iterable[str], now: dt.datetime
) -> list[int]:
    """The ids of the labels ``names`` name for ``project``, creating missing ones as project
    labels with the default colour (as issue and merge request writes do)."""
    owners = owners_of_project(store, project)
    out: list[int] = []
    for name in names:
        text = name.strip()
        if not text:
            continue
        label = find_by_name(store, owners, text)
        if label is None:
            label = create(store, (PROJECT, project.id), now, name=text, color=None)
        if label.id not in out:
            out.append(label.id)
    return out


def find_by_name(store: Store, owners: Iterable[Owner], name: str) -> Label | None:
    table = labels(store)
    for kind, owner_id in owners:
        label = table.by("owner_name", (kind, owner_id, name.lower()))
        if label is not None:
            return label
    return None


def names_errors(names: Iterable[str]) -> list[str]:
    """Model messages for label names an issuable write would create (validate first)."""
    return ["is invalid" for name in names if "," in name]


def sorted_names(store: Store, ids: Iterable[int]) -> list[Label]:
    """Live labels of ``ids``, by name as the service lists them."""
    table = labels(store)
    found = [label for label in (table.get(i) for i in ids) if label is not None]
    return sorted(found, key=lambda label: (label.name.lower(), label.id))
