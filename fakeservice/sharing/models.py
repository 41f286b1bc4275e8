"""Shares ("group links"): a project or a group shared with another group at a role
(``group_access_level``) until an optional date. They are kept on the shared record
(``shared_with_groups``, indexed by the invited group in both tables) and read by
:mod:`fakeservice.members.access`: members of the invited group get
min(their role, the share's role).

The service's refusals, checked before anything changes: sharing disabled by the
namespace's ``share_with_group_lock`` (400), an invited group the caller cannot read
(404), a group already invited (409), a project's own group or one of its ancestors,
or a group with itself or one of its ancestors (409).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from fakeservice.core.errors import ApiError, NotFound
from fakeservice.core.store import Store, Table
from fakeservice.groups.models import Namespace, namespaces, self_and_ancestor_ids

SHARING_LOCKED = "The project sharing with group is disabled"
PROJECT_ALREADY = "Group already shared with this group"
PROJECT_OWN_GROUP = "Project cannot be shared with the group it is in or one of its ancestors."
GROUP_ALREADY = "The group has already been shared with this group"
GROUP_ITSELF = "Shared group cannot be the same as shared with group or one of its ancestors"


def find_share(record: Any, group_id: int) -> dict[str, Any] | None:
    return next((s for s in record.shared_with_groups if s["group_id"] == group_id), None)


def _conflict(message: str) -> ApiError:
    return ApiError({"message": message}, status=409)


def project_share_errors(store: Store, project: Any, group: Namespace) -> None:
    """Raise the service's error when ``project`` may not be shared with ``group``."""
    ns = namespaces(store).rows[project.namespace_id]
    if find_share(project, group.id) is not None:
        raise _conflict(PROJECT_ALREADY)
    if ns.is_group and group.id in self_and_ancestor_ids(store, ns):
        raise _conflict(PROJECT_OWN_GROUP)


def group_share_errors(store: Store, group: Namespace, invited: Namespace) -> None:
    """Raise the service's error when ``group`` may not be shared with ``invited``."""
    if find_share(group, invited.id) is not None:
        raise _conflict(GROUP_ALREADY)
    if invited.id in self_and_ancestor_ids(store, group):
        raise _conflict(GROUP_ITSELF)


def share(
    store: Store,
    table: Table[Any],
    record: Any,
    group: Namespace,
    level: int,
    expires_at: dt.date | None,
) -> dict[str, Any]:
    """Add the share (validated already, with an id of its own) and reindex ``record``."""
    entry = {
        "id": store.next_id("group_links"),
        "group_id": group.id,
        "group_access_level": level,
        "expires_at": expires_at,
    }
    table.update(record, shared_with_groups=[*record.shared_with_groups, entry])
    return entry


def unshare(table: Table[Any], record: Any, group_id: int, kind: str | None) -> None:
    """Remove the share with ``group_id`` (``404 <kind> Not Found`` when there is none)."""
    if find_share(record, group_id) is None:
        raise NotFound(kind)
    kept = [s for s in record.shared_with_groups if s["group_id"] != group_id]
    table.update(record, shared_with_groups=kept)


def forget_group(store: Store, group: Namespace) -> None:
    """The ``NAMESPACE_DELETED`` listener: shares with a deleted group go with it."""
    from fakeservice.projects.models import projects

    for table in (projects(store), namespaces(store)):
        for entry in list(table.sorted["shared_with"].part(group.id)):
            record = table.rows[entry[-1]]
            kept = [s for s in record.shared_with_groups if s["group_id"] != group.id]
            table.update(record, shared_with_groups=kept)
