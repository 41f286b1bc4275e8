"""How approvals react to merge requests: a merge is refused while approvals are missing,
and a push to the source branch resets approvals when ``reset_approvals_on_push`` is on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.approvals import models, settings
from fakeservice.core.errors import ApiError
from fakeservice.core.store import Store
from fakeservice.merge_requests import approvers, operations
from fakeservice.merge_requests.models import MergeRequest, change
from fakeservice.repository.models import RefChange

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def _approvals_missing(store: Store, project: Any, record: MergeRequest, user: Any) -> None:
    if models.approvals_left(store, record) > 0:
        raise ApiError({"message": "405 Method Not Allowed"}, status=405)


def _reset_on_push(
    store: Store, project: Any, record: MergeRequest, change_: RefChange, added: list[str]
) -> None:
    if record.approved_by and settings.of_project(store, project.id).reset_approvals_on_push:
        change(store, record, None, approved_by=[])


def _named_approvers(store: Store, record: MergeRequest) -> list[int]:
    _, found = models.effective_rules(store, record)
    return [user_id for rule in found for user_id in rule.user_ids]


def register(setup: Composition) -> None:
    """Guard merges, reset approvals on push and name the rules' approvers to the
    ``approver_ids`` filter."""
    setup.listen(operations.MERGE_GUARD, _approvals_missing)
    setup.listen(approvers.MR_APPROVERS, _named_approvers)
    setup.listen(operations.MR_PUSHED, _reset_on_push)
