"""The service's validation of feature flags, strategies and user lists, worded as its
full messages (``Name has already been taken``, ``Strategies parameters percentage must
be a string between 0 and 100 inclusive``...)."""

from __future__ import annotations

import re
from typing import Any

STRATEGIES: dict[str, tuple[str, ...]] = {
    "default": (),
    "gitlabUserList": (),
    "gradualRolloutUserId": ("groupId", "percentage"),
    "flexibleRollout": ("groupId", "rollout", "stickiness"),
    "userWithId": ("userIds",),
}
USER_LIST = "gitlabUserList"
STICKINESS = ("default", "userId", "sessionId", "random")
XID_MAX_LENGTH = 256
NAME_LIMITS = (2, 63)
_NAME = re.compile(r"\A[a-z]([-_a-z0-9]*[a-z0-9])?\Z")
_PERCENT = re.compile(r"\A[1-9]?[0-9]\Z|\A100\Z")
_GROUP_ID = re.compile(r"\A[a-z]{1,32}\Z")
NAME_FORMAT = (
    "Name can contain only lowercase letters, digits, '_' and '-'. "
    "Must start with a letter, and cannot end with '-' or '_'"
)


def flag_name_errors(name: str) -> list[str]:
    if not name:
        return ["Name can't be blank"]
    errors = []
    low, high = NAME_LIMITS
    if len(name) < low:
        errors.append(f"Name is too short (minimum is {low} characters)")
    if len(name) > high:
        errors.append(f"Name is too long (maximum is {high} characters)")
    if not _NAME.match(name):
        errors.append(NAME_FORMAT)
    return errors


def description_errors(description: str | None) -> list[str]:
    if description is not None and len(description) > 255:
        return ["Description is too long (maximum is 255 characters)"]
    return []


def xids_valid(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    ids = value.split(",")
    return len(set(ids)) == len(ids) and all(
        i and i.strip() == i and len(i) <= XID_MAX_LENGTH for i in ids
    )


def xids_message(key: str) -> str:
    return (
        f"{key} must be a string of unique comma separated values each "
        f"{XID_MAX_LENGTH} characters or less"
    )


def _percent(value: Any) -> bool:
    return isinstance(value, str) and bool(_PERCENT.match(value))


def _group_id(value: Any) -> bool:
    return isinstance(value, str) and bool(_GROUP_ID.match(value))


def _parameter_errors(name: str, parameters: Any) -> list[str]:
    if not isinstance(parameters, dict) or sorted(parameters) != sorted(STRATEGIES[name]):
        return ["parameters are invalid"]
    found: list[str] = []
    if name == "gradualRolloutUserId":
        if not _percent(parameters["percentage"]):
            found.append("percentage must be a string between 0 and 100 inclusive")
        if not _group_id(parameters["groupId"]):
            found.append("groupId parameter is invalid")
    elif name == "flexibleRollout":
        if parameters["stickiness"] not in STICKINESS:
            found.append("stickiness parameter must be default, userId, sessionId, or random")
        if not _group_id(parameters["groupId"]):
            found.append("groupId parameter is invalid")
        if not _percent(parameters["rollout"]):
            found.append("rollout must be a string between 0 and 100 inclusive")
    elif name == "userWithId" and not xids_valid(parameters["userIds"]):
        found.append(xids_message("userIds"))
    return found


def strategy_errors(
    name: str, parameters: Any, has_list: bool, list_in_project: bool, scopes: list[str]
) -> list[str]:
    """Full messages of one strategy (its user list given or not, and whether that list
    belongs to the flag's project)."""
    if name not in STRATEGIES:
        found = ["Strategies name strategy name is invalid"]
    else:
        found = [f"Strategies parameters {m}" for m in _parameter_errors(name, parameters)]
    if name == USER_LIST and not has_list:
        found.append("Strategies user list can't be blank")
    if name != USER_LIST and has_list:
        found.append("Strategies user list must be blank")
    if has_list and not list_in_project:
        found.append("Strategies user list must belong to the same project")
    if any(not scope for scope in scopes):
        found.append("Strategies scopes environment scope can't be blank")
    if len(set(scopes)) != len(scopes):
        found.append("Strategies scopes environment scope has already been taken")
    return found


def user_list_errors(name: str | None, user_xids: Any) -> list[str]:
    found = []
    if not name:
        found.append("Name can't be blank")
    elif len(name) > 255:
        found.append("Name is too long (maximum is 255 characters)")
    if not xids_valid(user_xids):
        found.append(f"User xids {xids_message('user_xids')}")
    return found
