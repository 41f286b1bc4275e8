"""Settings attributes declared as data, for the endpoints that create and edit a record
(projects, groups) and the views that show it.

A :class:`Setting` row names one attribute: its parameter type and allowed values, its
default, where the record keeps it (an attribute of the record, a feature access level in
``record.features``, or the record's ``settings`` mapping), its model validation (the
service's messages), whether only administrators may set it, the least plan that honours
it, and whether only the detail view shows it. An :class:`Alias` row is an older name that
writes another setting. A :class:`SettingsTable` turns the rows into the endpoints'
parameters, the settings a request writes, their validation errors, the writes, and the
fields of the view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Store
from fakeservice.instance.models import PLANS, instance
from fakeservice.web.params import HASH, Param, ParamType, validate

Validator = Callable[[Any], list[str]]


def instance_plan(store: Store) -> str:
    """The plan of the instance's license (``ultimate`` unless set otherwise): the instance
    record's, which the ``instance.plan`` and top-level ``plan`` scenario keys both set."""
    return instance(store).plan


def licensed(store: Store, plan: str) -> bool:
    return PLANS.index(instance_plan(store)) >= PLANS.index(plan)


def too_long(limit: int) -> Validator:
    def check(value: Any) -> list[str]:
        if isinstance(value, str) and len(value) > limit:
            return [f"is too long (maximum is {limit} characters)"]
        return []

    return check


def between(low: int, high: int) -> Validator:
    def check(value: Any) -> list[str]:
        if value is None:
            return []
        if value < low:
            return [f"must be greater than or equal to {low}"]
        if value > high:
            return [f"must be less than or equal to {high}"]
        return []

    return check


@attrs.frozen
class Setting:
    """One settings attribute.

    ``store``: ``attr`` (an attribute of the record), ``feature`` (an access level in
    ``record.features``, keyed by the name without ``_access_level``) or ``settings``
    (``record.settings``). ``error_key``: the field the model validation names (default:
    ``name``). ``plan``: below it the service drops the value and leaves the field out.
    ``admin``: ignored unless an administrator sends it. ``shown``: whether views show
    it; ``detail``: only the detail view does.
    """

    name: str
    type: ParamType
    default: Any = None
    values: tuple[Any, ...] | None = None
    store: str = "settings"
    validate: Validator | None = None
    error_key: str | None = None
    plan: str = "free"
    admin: bool = False
    shown: bool = True
    detail: bool = False

    @property
    def param(self) -> Param:
        return Param(self.name, self.type, values=self.values)

    @property
    def key(self) -> str:
        return self.name.removesuffix("_access_level") if self.store == "feature" else self.name


@attrs.frozen
class Alias:
    """An older parameter that writes ``target`` through ``convert``; ``last``: it wins
    over ``target`` when both are sent (the service translates it after)."""

    name: str
    type: ParamType
    target: str
    convert: Callable[[Any], Any]
    last: bool = False


class SettingsTable:
    """The rows of one record kind's settings, and what endpoints and views do with them."""

    def __init__(self, settings: Sequence[Setting], aliases: Sequence[Alias] = ()) -> None:
        self.settings = tuple(settings)
        self.aliases = tuple(aliases)
        self.by_name = {s.name: s for s in self.settings}
        self.params: tuple[Param, ...] = (
            *(s.param for s in self.settings),
            *(Param(a.name, a.type) for a in self.aliases),
        )

    def requested(
        self, store: Store, params: Mapping[str, Any], *, is_admin: bool
    ) -> dict[str, Any]:
        """The settings a request writes, aliases resolved, without what the plan or the
        caller's role makes the service ignore. A null over a setting with a default
        keeps the current value."""
        out: dict[str, Any] = {}
        early = [a for a in self.aliases if not a.last]
        late = [a for a in self.aliases if a.last]
        self._aliases(early, params, out)
        for setting in self.settings:
            if setting.name in params:
                if params[setting.name] is None and setting.default is not None:
                    continue
                out[setting.name] = params[setting.name]
        self._aliases(late, params, out)
        for name in list(out):
            setting = self.by_name[name]
            if not licensed(store, setting.plan) or (setting.admin and not is_admin):
                del out[name]
            elif setting.type is HASH:
                out[name] = dict(out[name] or {})
        return out

    def parse(
        self,
        store: Store,
        raw: Mapping[str, Any],
        *,
        is_admin: bool,
        extra_errors: Callable[[dict[str, Any]], dict[str, list[str]]] | None = None,
    ) -> dict[str, Any]:
        """Raw values (a scenario's) to validated changes: the parameters' 400 errors
        (:class:`ParamError`), then the model validation (:class:`ValidationFailed`)."""
        changes = self.requested(store, validate(self.params, raw), is_admin=is_admin)
        errors = self.errors(changes)
        if extra_errors is not None:
            for key, found in extra_errors(changes).items():
                errors.setdefault(key, []).extend(found)
        if errors:
            raise ValidationFailed(errors)
        return changes

    @staticmethod
    def _aliases(aliases: list[Alias], params: Mapping[str, Any], out: dict[str, Any]) -> None:
        for alias in aliases:
            if params.get(alias.name) is not None:
                out[alias.target] = alias.convert(params[alias.name])

    def errors(self, changes: Mapping[str, Any]) -> dict[str, list[str]]:
        """Each row's own model validation of ``changes``."""
        errors: dict[str, list[str]] = {}
        for name, value in changes.items():
            setting = self.by_name[name]
            if setting.validate is not None:
                found = setting.validate(value)
                if found:
                    errors.setdefault(setting.error_key or name, []).extend(found)
        return errors

    def attributes_of(self, changes: Mapping[str, Any]) -> dict[str, Any]:
        """The changes kept as attributes of the record."""
        return {n: v for n, v in changes.items() if self.by_name[n].store == "attr"}

    def apply(self, record: Any, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Write the feature and ``settings`` values into ``record`` (hashes merge into
        what is there); return the attribute changes, for the table's ``update``."""
        for name, value in changes.items():
            setting = self.by_name[name]
            if setting.store == "feature":
                record.features[setting.key] = value
            elif setting.store == "settings" and setting.type is HASH:
                merged = {**(self.value_of(record, setting) or {}), **value}
                record.settings = {**record.settings, name: merged}  # never in place
            elif setting.store == "settings":
                record.settings = {**record.settings, name: value}
        return self.attributes_of(changes)

    @staticmethod
    def value_of(record: Any, setting: Setting) -> Any:
        if setting.store == "attr":
            return getattr(record, setting.name)
        if setting.store == "feature":
            return record.features.get(setting.key, setting.default)
        return record.settings.get(setting.name, setting.default)

    def render(self, store: Store, record: Any, out: dict[str, Any], *, detail: bool) -> None:
        """Write every shown (and licensed) setting of ``record`` into ``out``."""
        for setting in self.settings:
            if setting.shown and (detail or not setting.detail) and licensed(store, setting.plan):
                out[setting.name] = self.value_of(record, setting)
