"""Creating, editing and deleting feature flags and user lists (validate first, then
write: a refused request changes nothing and takes no id).

Edits follow the service's nested attributes: a strategy (or scope) with an ``id`` is
changed in place, with ``_destroy: true`` removed, without an ``id`` added; an unknown
``id`` is 404. A user list that a strategy uses cannot be deleted (409).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from fakeservice.core.errors import ApiError, NotFound
from fakeservice.core.store import Store
from fakeservice.feature_flags import validation
from fakeservice.feature_flags.records import (
    FeatureFlag,
    Scope,
    Strategy,
    UserList,
    flags,
    user_lists,
)

IN_USE = "User list is associated with a strategy"
TAKEN = "Name has already been taken"


def _refuse(messages: list[str], status: int = 400) -> ApiError:
    return ApiError({"message": messages}, status=status)


def find_flag(store: Store, project_id: int, name: str) -> FeatureFlag:
    flag = flags(store).by("name", (project_id, name))
    if flag is None:
        raise NotFound()
    return flag


def find_list(store: Store, project_id: int, iid: int) -> UserList:
    found = user_lists(store).by("iid", (project_id, iid))
    if found is None:
        raise NotFound()
    return found


# -- strategies ----------------------------------------------------------------------------


def _locate(items: Sequence[Any], given: dict[str, Any]) -> int:
    """The position of the nested record ``given["id"]`` names (404 when none)."""
    index = next((i for i, item in enumerate(items) if item.id == given["id"]), None)
    if index is None:
        raise NotFound()
    return index


def _pending_scopes(current: list[Scope], given: Sequence[dict[str, Any]]) -> list[Scope]:
    """The scopes after applying ``given`` (new ones get id 0 until stored)."""
    result = list(current)
    for item in given:
        if item.get("id") is not None:
            index = _locate(result, item)
            if item.get("_destroy"):
                result.pop(index)
            elif "environment_scope" in item:
                result[index] = Scope(result[index].id, str(item["environment_scope"] or ""))
        elif not item.get("_destroy"):
            result.append(Scope(0, str(item.get("environment_scope") or "")))
    return result


def _pending_strategies(current: list[Strategy], given: Sequence[dict[str, Any]]) -> list[Strategy]:
    result = [
        Strategy(s.id, s.name, dict(s.parameters), list(s.scopes), s.user_list_id) for s in current
    ]
    for item in given:
        if item.get("id") is not None:
            index = _locate(result, item)
            if item.get("_destroy"):
                result.pop(index)
                continue
            found = result[index]
            if "name" in item:
                found.name = str(item["name"])
            if "parameters" in item:
                found.parameters = item["parameters"]
            if "user_list_id" in item:
                found.user_list_id = item["user_list_id"]
            found.scopes = _pending_scopes(found.scopes, item.get("scopes") or [])
        elif not item.get("_destroy"):
            result.append(
                Strategy(
                    0,
                    str(item.get("name") or ""),
                    item.get("parameters"),  # type: ignore[arg-type]
                    _pending_scopes([], item.get("scopes") or []),
                    item.get("user_list_id"),
                )
            )
    return result


def _strategy_errors(store: Store, project_id: int, strategies: list[Strategy]) -> list[str]:
    found: list[str] = []
    for strategy in strategies:
        listed = user_lists(store).get(strategy.user_list_id) if strategy.user_list_id else None
        for message in validation.strategy_errors(
            strategy.name,
            strategy.parameters,
            listed is not None,
            listed is not None and listed.project_id == project_id,
            [s.environment_scope for s in strategy.scopes],
        ):
            if message not in found:
                found.append(message)
    return found


def _stored(store: Store, strategies: list[Strategy]) -> list[Strategy]:
    """Give new strategies and scopes their ids (after validation)."""
    for strategy in strategies:
        if strategy.id == 0:
            strategy.id = store.next_id("feature_flag_strategies")
        for index, scope in enumerate(strategy.scopes):
            if scope.id == 0:
                strategy.scopes[index] = Scope(
                    store.next_id("feature_flag_scopes"), scope.environment_scope
                )
    return strategies


# -- flags -----------------------------------------------------------------------------------


def _flag_errors(
    store: Store, project_id: int, name: str, description: str | None, own: int | None
) -> list[str]:
    found = validation.flag_name_errors(name)
    taken = flags(store).by("name", (project_id, name))
    if taken is not None and taken.id != own:
        found.append(TAKEN)
    return found + validation.description_errors(description)


def create_flag(
    store: Store,
    project_id: int,
    now: dt.datetime,
    *,
    name: str,
    description: str | None = None,
    active: bool = True,
    strategies: Sequence[dict[str, Any]] = (),
) -> FeatureFlag:
    pending = _pending_strategies([], strategies)
    errors = _flag_errors(store, project_id, name, description, None)
    errors += _strategy_errors(store, project_id, pending)
    if errors:
        raise _refuse(errors)
    flag = FeatureFlag(
        id=store.next_id("feature_flags"),
        project_id=project_id,
        name=name,
        description=description,
        active=active,
        created_at=now,
        updated_at=now,
        strategies=_stored(store, pending),
    )
    return flags(store).insert(flag)


def update_flag(
    store: Store, flag: FeatureFlag, now: dt.datetime, changes: dict[str, Any]
) -> FeatureFlag:
    pending = _pending_strategies(flag.strategies, changes.get("strategies") or [])
    name = changes.get("name", flag.name)
    description = changes.get("description", flag.description)
    errors = _flag_errors(store, flag.project_id, name, description, flag.id)
    errors += _strategy_errors(store, flag.project_id, pending)
    if errors:
        raise _refuse(errors)
    fields: dict[str, Any] = {
        "name": name,
        "description": description,
        "strategies": _stored(store, pending),
        "updated_at": now,
    }
    if changes.get("active") is not None:
        fields["active"] = changes["active"]
    return flags(store).update(flag, **fields)


def delete_flag(store: Store, flag: FeatureFlag) -> None:
    flags(store).delete(flag)


# -- user lists ------------------------------------------------------------------------------


def _list_errors(store: Store, project_id: int, name: str, xids: Any, own: int | None) -> list[str]:
    found = validation.user_list_errors(name, xids)
    taken = user_lists(store).by("name", (project_id, name))
    if taken is not None and taken.id != own:
        found.insert(0, TAKEN)
    return found


def create_list(
    store: Store, project_id: int, now: dt.datetime, name: str, user_xids: str
) -> UserList:
    errors = _list_errors(store, project_id, name, user_xids, None)
    if errors:
        raise _refuse(errors)
    created = UserList(
        id=store.next_id("feature_flag_user_lists"),
        iid=store.next_iid("feature_flag_user_lists", project_id),
        project_id=project_id,
        name=name,
        user_xids=user_xids,
        created_at=now,
        updated_at=now,
    )
    return user_lists(store).insert(created)


def update_list(
    store: Store, found: UserList, now: dt.datetime, changes: dict[str, Any]
) -> UserList:
    name = changes.get("name") if changes.get("name") is not None else found.name
    xids = changes.get("user_xids") if changes.get("user_xids") is not None else found.user_xids
    errors = _list_errors(store, found.project_id, name, xids, found.id)
    if errors:
        raise _refuse(errors)
    return user_lists(store).update(found, name=name, user_xids=xids, updated_at=now)


def delete_list(store: Store, found: UserList) -> None:
    if any(True for _ in flags(store).select("user_list", [found.id])):
        raise _refuse([IN_USE], status=409)
    user_lists(store).delete(found)


def forget_project(store: Store, project: Any) -> None:
    """Drop a deleted project's flags and user lists."""
    for flag in list(flags(store).select("project", [project.id])):
        flags(store).delete(flag)
    for found in list(user_lists(store).select("project", [project.id])):
        user_lists(store).delete(found)
