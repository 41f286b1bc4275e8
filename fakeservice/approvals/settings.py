"""A project's approval configuration (seed 001 §2.3): ``approvals_before_merge`` and the
five boolean settings, with the defaults of a new project.

The five booleans are kept per project in the ``approval_settings`` table;
``approvals_before_merge`` is also a project setting (``PUT /projects/:id``, the project
view; see projects/settings.py), so it has one source: the project's ``settings``
mapping, which both the approvals endpoints and the project endpoints read and write."""

from __future__ import annotations

import attrs

from fakeservice.core.store import Store, Table
from fakeservice.projects.models import projects

BOOLEANS = (
    "reset_approvals_on_push",
    "disable_overriding_approvers_per_merge_request",
    "merge_requests_author_approval",
    "merge_requests_disable_committers_approval",
    "require_password_to_approve",
)


@attrs.define(slots=True)
class ApprovalSettings:
    id: int  # the project id
    approvals_before_merge: int = 0
    reset_approvals_on_push: bool = True
    disable_overriding_approvers_per_merge_request: bool = False
    merge_requests_author_approval: bool = False
    merge_requests_disable_committers_approval: bool = False
    require_password_to_approve: bool = False


def table(store: Store) -> Table[ApprovalSettings]:
    return store.tables["approval_settings"]


def install(store: Store) -> None:
    store.table("approval_settings")


SHARED = "approvals_before_merge"  # kept in the project's settings mapping


def of_project(store: Store, project_id: int) -> ApprovalSettings:
    """The project's settings (the defaults when never changed; not stored by reading)."""
    found = table(store).get(project_id)
    current = found if found is not None else ApprovalSettings(id=project_id)
    project = projects(store).get(project_id)
    shared = project.settings.get(SHARED, 0) if project is not None else 0
    return attrs.evolve(current, approvals_before_merge=shared or 0)


def change(store: Store, project_id: int, **fields: object) -> ApprovalSettings:
    if SHARED in fields:
        project = projects(store).rows[project_id]
        value = fields.pop(SHARED)
        projects(store).update(project, settings={**project.settings, SHARED: value})
    if fields:
        current = table(store).get(project_id)
        if current is None:
            current = table(store).insert(ApprovalSettings(id=project_id))
        table(store).update(current, **fields)
    return of_project(store, project_id)
