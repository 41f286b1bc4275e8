"""JSON shapes of feature flags, strategies and user lists."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso
from fakeservice.core.store import Store
from fakeservice.feature_flags.records import FeatureFlag, Strategy, UserList, user_lists


def basic_list_view(found: UserList) -> dict[str, Any]:
    return {"id": found.id, "iid": found.iid, "name": found.name, "user_xids": found.user_xids}


def strategy_view(store: Store, strategy: Strategy) -> dict[str, Any]:
    listed = user_lists(store).get(strategy.user_list_id) if strategy.user_list_id else None
    return {
        "id": strategy.id,
        "name": strategy.name,
        "parameters": strategy.parameters,
        "scopes": [{"id": s.id, "environment_scope": s.environment_scope} for s in strategy.scopes],
        "user_list": basic_list_view(listed) if listed is not None else None,
    }


def flag_view(store: Store, flag: FeatureFlag) -> dict[str, Any]:
    return {
        "name": flag.name,
        "description": flag.description,
        "active": flag.active,
        "version": flag.version,
        "created_at": iso(flag.created_at),
        "updated_at": iso(flag.updated_at),
        "scopes": [],
        "strategies": [strategy_view(store, s) for s in flag.strategies],
    }


def user_list_view(found: UserList, project_path: str) -> dict[str, Any]:
    path = f"/{project_path}/-/feature_flags_user_lists/{found.iid}"
    return {
        "id": found.id,
        "iid": found.iid,
        "project_id": found.project_id,
        "created_at": iso(found.created_at),
        "updated_at": iso(found.updated_at),
        "name": found.name,
        "user_xids": found.user_xids,
        "path": path,
        "edit_path": f"{path}/edit",
    }
