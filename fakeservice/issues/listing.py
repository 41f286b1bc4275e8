"""Choosing the index a list of issuables walks, so that a page costs what it shows.

Every issuable table has, per order (``created_at``, ``updated_at``), the sorted indexes
``project_<order>`` (partition: project id), ``all_<order>`` (one partition) and
``label_<order>`` (partition: ``(project id, label id)``). A label filter on one project
walks the partitions of the first label only; other filters are predicates on the walk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.core.store import Selection, Table
from fakeservice.groups.models import descendants
from fakeservice.issues import filters
from fakeservice.labels import models as labels
from fakeservice.members.access import can_read_project
from fakeservice.projects.models import projects

Predicate = Callable[[Any], bool]


def install_indexes(table: Table[Any]) -> None:
    """The list indexes every issuable table has (see the module docstring), and
    ``label_state`` for the label counts."""
    for order in ("created_at", "updated_at"):
        key = (lambda attr: lambda r: (getattr(r, attr),))(order)
        table.add_sorted(f"project_{order}", lambda r: r.project_id, key)
        table.add_sorted(f"all_{order}", lambda r: "all", key)
        table.add_sorted(f"state_{order}", lambda r: (r.project_id, r.state), key)
        table.add_sorted(
            f"label_{order}",
            lambda r: [(r.project_id, label) for label in r.label_ids] or None,
            key,
            multi=True,
        )
    table.add_sorted(
        "label_state",
        lambda r: [(label, r.state) for label in r.label_ids] or None,
        multi=True,
    )


def group_project_ids(store: Any, group: Any) -> list[int]:
    """Ids of the projects of a group and of its subgroups."""
    table = projects(store)
    return [
        entry[-1]
        for ns in (group, *descendants(store, group))
        for entry in table.sorted["ns_by_id"].part(ns.id)
    ]


def project_selection(
    table: Table[Any],
    project_id: int,
    order: str,
    reverse: bool,
    label_sets: list[set[int]] | str | None,
    state: str | None = None,
) -> Selection[Any]:
    """One project's records in ``order``: through the label index when labels are named,
    else through the state index when a state is asked (see :func:`served_by_state`)."""
    if isinstance(label_sets, list) and label_sets:
        keys = [(project_id, label_id) for label_id in sorted(label_sets[0])]
        return table.select(f"label_{order}", keys, reverse=reverse)
    if state not in (None, "all"):
        return table.select(f"state_{order}", [(project_id, state)], reverse=reverse)
    return table.select(f"project_{order}", [project_id], reverse=reverse)


def served_by_state(label_sets: list[set[int]] | str | None, state: str | None) -> bool:
    """Whether :func:`project_selection` used the state index (no state predicate needed)."""
    return state not in (None, "all") and not (isinstance(label_sets, list) and label_sets)


def served_by_index(label_sets: list[set[int]] | str | None) -> bool:
    """Whether the label index alone answers the label filter (one name, one label), so
    that no predicate walks the rows (counting a page stays O(log n))."""
    return isinstance(label_sets, list) and len(label_sets) == 1 and len(label_sets[0]) == 1


def without_labels(params: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in params.items() if key != "labels"}


def projects_selection(
    table: Table[Any], project_ids: list[int] | None, order: str, reverse: bool
) -> Selection[Any]:
    """Records of several projects (None: every project) in ``order``."""
    if project_ids is None:
        return table.select(f"all_{order}", reverse=reverse)
    return table.select(f"project_{order}", project_ids, reverse=reverse)


def first_label_sets(
    store: Any, project: Any, params: dict[str, Any]
) -> list[set[int]] | str | None:
    if not params.get("labels"):
        return None
    return filters.label_sets(store, labels.owners_of_project(store, project), params["labels"])


def readable_projects(store: Any, user: Any, now: Any) -> Predicate:
    """A cached 'may the caller read this record's project' predicate."""
    seen: dict[int, bool] = {}
    table = projects(store)

    def readable(record: Any) -> bool:
        found = seen.get(record.project_id)
        if found is None:
            project = table.get(record.project_id)
            found = seen[record.project_id] = project is not None and can_read_project(
                store, user, project, now
            )
        return found

    return readable
