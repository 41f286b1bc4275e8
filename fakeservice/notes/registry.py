"""What a noteable is: :func:`fakeservice.notes.routes.register_noteable` declares the
five note endpoints (list, get, create, update, delete) under the noteable's path.

A :class:`Noteable` says how to find the noteable for a request (``find(ctx)`` returns
a :class:`Target`, raising the noteable's own 404/403) and what its notes allow:
``confidential`` notes (issues only), ``backdate`` (``created_at`` for administrators and
owners; not for epics), and an optional ``single`` shape for ``GET <base>/:note_id``
(snippets and epics answer ``{id, title, file_name, author, expires_at, updated_at,
created_at}``, seed 001 §2.4). Merge requests add ``resolvable`` threads and a
``position`` check for diff notes. The same registration declares the noteable's
discussions (:mod:`.discussion_routes`). The epics area registers with one call::

    register_noteable(Noteable(
        type="Epic",
        base="/groups/:id/epics/:epic_id/notes",
        params=(GROUP_ID, Param("epic_id", INT, required=True)),
        find=lambda ctx: Target(epic, None, ctx.is_admin or owner, role, table=epics),
        auth=REQUIRED, backdate=False, single=epic_note_shape,
    ))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.store import Store, Table
from fakeservice.web.context import Context
from fakeservice.web.params import Param
from fakeservice.web.routing import PUBLIC


@attrs.frozen
class Target:
    """The noteable a request names: its record (``id``, ``iid`` when it has one,
    ``user_notes_count``), the project it lives in (None for group noteables), whether the
    caller may backdate notes, the caller's role, and the record's table."""

    record: Any
    project_id: int | None
    can_backdate: bool
    role: int
    table: Callable[[Store], Table[Any]] | None  # None: no ``user_notes_count`` to keep
    can_write: bool = True


@attrs.frozen
class Noteable:
    type: str
    base: str
    params: tuple[Param, ...]
    find: Callable[[Context], Target]
    auth: str = PUBLIC
    confidential: bool = False
    backdate: bool = True
    single: Callable[[Context, Target, Any], dict[str, Any]] | None = None
    resolvable: bool = False
    position: Callable[[Context, Target, Any], dict[str, Any]] | None = None
    notes_api: bool = True  # False: discussions only (commits)
