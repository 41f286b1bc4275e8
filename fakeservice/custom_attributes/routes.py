"""Custom attribute endpoints of users, groups and projects (administrators only):
list, get one key, create or update a key (``PUT`` with ``value``), delete a key.

The resource is looked up first (its 404 for callers who may not see it), then the
caller must be an administrator (403). A missing key answers ``404 Not found``, as a
record lookup does in the real service.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakeservice.core.errors import Forbidden, NotFound, ValidationFailed
from fakeservice.groups.lookup import find_group_or_404
from fakeservice.projects.lookup import find_project_or_404
from fakeservice.users.models import find_by_id_or_username
from fakeservice.users.views import custom_attributes
from fakeservice.web.context import Context
from fakeservice.web.params import STR, Param
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("custom_attributes")

ID = Param("id", STR, required=True)
KEY = Param("key", STR, required=True)


def _find_user(ctx: Context, key: str) -> Any:
    user = find_by_id_or_username(ctx.store, key)
    if user is None or user.deleted:
        raise NotFound("User")
    return user


FINDERS: dict[str, Callable[[Context, str], Any]] = {
    "users": _find_user,
    "groups": find_group_or_404,
    "projects": find_project_or_404,
}


def _resource(ctx: Context, kind: str) -> Any:
    """The user, group or project of ``:id``; then 403 unless the caller is an administrator."""
    record = FINDERS[kind](ctx, ctx.params["id"])
    if not ctx.is_admin:
        raise Forbidden()
    return record


def _entry(key: str, value: str) -> dict[str, str]:
    return {"key": key, "value": value}


def _value_of(record: Any, key: str) -> str:
    if key not in record.custom_attributes:
        raise NotFound()
    return str(record.custom_attributes[key])


def list_attributes(ctx: Context, kind: str) -> Any:
    return custom_attributes(_resource(ctx, kind))


def get_attribute(ctx: Context, kind: str) -> Any:
    key = ctx.params["key"]
    return _entry(key, _value_of(_resource(ctx, kind), key))


def set_attribute(ctx: Context, kind: str) -> Any:
    record = _resource(ctx, kind)
    key, value = ctx.params["key"], ctx.params["value"]
    if not (value or "").strip():
        raise ValidationFailed({"value": ["can't be blank"]})
    record.custom_attributes = {**record.custom_attributes, key: value}  # never in place
    return _entry(key, value)


def delete_attribute(ctx: Context, kind: str) -> Any:
    record = _resource(ctx, kind)
    key = ctx.params["key"]
    _value_of(record, key)
    record.custom_attributes = {k: v for k, v in record.custom_attributes.items() if k != key}
    return None


def _bind(action: Callable[[Context, str], Any], kind: str) -> Callable[[Context], Any]:
    def handler(ctx: Context) -> Any:
        return action(ctx, kind)

    return handler


def _register(kind: str) -> None:
    noun = kind.removesuffix("s")
    base = f"/{kind}/:id/custom_attributes"
    routes: list[tuple[str, str, tuple[Param, ...], Callable[[Context, str], Any], str]] = [
        ("GET", base, (ID,), list_attributes, f"List a {noun}'s custom attributes."),
        ("GET", f"{base}/:key", (ID, KEY), get_attribute, f"Get one custom attribute of a {noun}."),
        ("PUT", f"{base}/:key", (ID, KEY, Param("value", STR, required=True)), set_attribute, f"Set a custom attribute of a {noun}."),
        ("DELETE", f"{base}/:key", (ID, KEY), delete_attribute, f"Delete a custom attribute of a {noun}."),
    ]  # fmt: skip
    for method, pattern, params, action, summary in routes:
        api.route(method, pattern, params=params, auth=REQUIRED, summary=summary)(
            _bind(action, kind)
        )


for _kind in FINDERS:
    _register(_kind)
