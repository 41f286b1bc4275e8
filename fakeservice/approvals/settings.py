"""A project's approval configuration (seed 001 §2.3): ``approvals_before_merge`` and the
five boolean settings, kept per project with the defaults of a new project."""

from __future__ import annotations

import attrs

from fakeservice.core.store import Store, Table

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


def of_project(store: Store, project_id: int) -> ApprovalSettings:
    """The project's settings (the defaults when never changed; not stored by reading)."""
    found = table(store).get(project_id)
    return found if found is not None else ApprovalSettings(id=project_id)


def change(store: Store, project_id: int, **fields: object) -> ApprovalSettings:
    current = table(store).get(project_id)
    if current is None:
        current = table(store).insert(ApprovalSettings(id=project_id))
    return table(store).update(current, **fields)
