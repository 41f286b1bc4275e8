"""How scenario records name each other: users by username, groups by full path. A name
that does not resolve is a :class:`ScenarioError` at the place that used it."""

from __future__ import annotations

from typing import Any

from fakeservice.core.store import Store
from fakeservice.groups.models import Namespace, find_group
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.users.models import User, find_by_username


def named_user(store: Store, username: Any, where: str) -> User:
    """The user ``username`` names; ``unknown user '<name>'`` at ``where`` otherwise."""
    user = find_by_username(store, str(username))
    if user is None:
        raise ScenarioError([(where, f"unknown user {username!r}")])
    return user


def named_group(store: Store, path: Any, where: str) -> Namespace:
    """The group ``path`` names; ``unknown group '<path>'`` at ``where`` otherwise."""
    group = find_group(store, str(path))
    if group is None:
        raise ScenarioError([(where, f"unknown group {path!r}")])
    return group
