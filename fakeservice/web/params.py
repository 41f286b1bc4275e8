"""Declared endpoint parameters: types, coercion, bounds and the service's 400 messages.

Each endpoint declares its parameters once (:class:`Param`, plus group constraints such
as :class:`MutuallyExclusive`); :func:`validate` turns raw query/body/path values into
typed values or raises :class:`~fakeservice.core.errors.ParamError` whose ``error``
string is worded and ordered as the real service words it (``ref is missing``,
``job_id is invalid``, ``scope does not have a valid value``, joined by ``", "``).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import attrs

from fakeservice.core.clock import parse_iso
from fakeservice.core.errors import ParamError
from fakeservice.web.http import UploadedFile


class _Nothing:
    """The marker for 'no default' and 'no value' (attrs' own NOTHING means 'no default')."""

    def __repr__(self) -> str:
        return "NOTHING"


NOTHING: Any = _Nothing()


class Invalid(Exception):
    """Raised by a type's coercion when a value does not fit."""


class ParamType:
    """A parameter type: a name (for the OpenAPI document) and a coercion."""

    name = "string"
    # whether a JSON null reaches the handler (then the model's own checks answer it)
    accepts_null = True

    def coerce(self, value: Any) -> Any:
        raise Invalid

    def schema(self) -> dict[str, Any]:
        return {"type": self.name}


class _Str(ParamType):
    name = "string"

    def coerce(self, value: Any) -> Any:
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        raise Invalid


_INT_RE = re.compile(r"^[+-]?\d+$")


INT_MAX = 2**63 - 1  # the database's bigint: a larger value cannot be stored or looked up


def parse_integer(value: Any) -> int:
    """An integer of any size from a JSON number or decimal text (Invalid otherwise)."""
    if isinstance(value, bool):
        raise Invalid
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _INT_RE.match(value.strip()) and len(value) <= 4000:
        return int(value.strip())
    raise Invalid


class _Int(ParamType):
    """An integer the database can hold (a bigint); larger values are invalid."""

    name = "integer"

    def coerce(self, value: Any) -> Any:
        number = parse_integer(value)
        if not -INT_MAX - 1 <= number <= INT_MAX:
            raise Invalid
        return number


class _Float(ParamType):
    name = "number"

    def coerce(self, value: Any) -> Any:
        if isinstance(value, bool):
            raise Invalid
        if isinstance(value, int | float):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value.strip())
            except ValueError as exc:
                raise Invalid from exc
        raise Invalid


TRUE_WORDS = frozenset({"true", "t", "yes", "y", "on", "1"})
FALSE_WORDS = frozenset({"false", "f", "no", "n", "off", "0"})


class _Bool(ParamType):
    name = "boolean"

    def coerce(self, value: Any) -> Any:
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str):
            word = value.strip().lower()
            if word in TRUE_WORDS:
                return True
            if word in FALSE_WORDS:
                return False
        raise Invalid


class _DateTime(ParamType):
    name = "string"

    def coerce(self, value: Any) -> Any:
        if isinstance(value, dt.datetime):
            return value
        if not isinstance(value, str):
            raise Invalid
        try:
            return parse_iso(value)
        except ValueError as exc:
            raise Invalid from exc

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "format": "date-time"}


class _Date(ParamType):
    name = "string"

    def coerce(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise Invalid
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError as exc:
            raise Invalid from exc

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "format": "date"}


class _Hash(ParamType):
    name = "object"

    def coerce(self, value: Any) -> Any:
        if isinstance(value, dict):
            return value
        raise Invalid


class _File(ParamType):
    name = "file"
    accepts_null = False  # a null is no upload: "file is invalid"

    def coerce(self, value: Any) -> Any:
        if isinstance(value, UploadedFile):
            return value
        raise Invalid

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "format": "binary"}


class _Any(ParamType):
    name = "any"

    def coerce(self, value: Any) -> Any:
        return value

    def schema(self) -> dict[str, Any]:
        return {}


@attrs.frozen
class Array(ParamType):
    """An array of ``of``. ``scalar`` accepts one bare value; ``comma`` splits ``"1,2"``."""

    of: ParamType = attrs.field(factory=_Str)
    scalar: bool = False
    comma: bool = False

    name = "array"

    def coerce(self, value: Any) -> Any:
        if isinstance(value, str) and self.comma:
            value = [part for part in value.split(",") if part.strip() != ""]
        elif not isinstance(value, list):
            if self.scalar and not isinstance(value, dict):
                value = [value]
            else:
                raise Invalid
        return [self.of.coerce(item) for item in value]

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "items": self.of.schema()}


STR: ParamType = _Str()
INT: ParamType = _Int()
FLOAT: ParamType = _Float()
BOOL: ParamType = _Bool()
DATETIME: ParamType = _DateTime()
DATE: ParamType = _Date()
HASH: ParamType = _Hash()
FILE: ParamType = _File()
ANY: ParamType = _Any()


@attrs.frozen
class Param:
    """One declared parameter.

    ``values``: allowed values (else ``does not have a valid value``); ``excluded``:
    refused values (``has a value not allowed``); ``allow_blank=False``: ``is empty``;
    ``check``: a predicate on the coerced value (``does not have a valid value``).
    ``items``: for an array of hashes, the declared keys of each hash.
    """

    name: str
    type: ParamType = STR
    required: bool = False
    default: Any = NOTHING
    values: Collection[Any] | None = None
    excluded: Collection[Any] | None = None
    allow_blank: bool = True
    check: Callable[[Any], bool] | None = None
    items: tuple[Param, ...] = ()
    description: str = ""

    @property
    def has_default(self) -> bool:
        return self.default is not NOTHING


@attrs.frozen
class MutuallyExclusive:
    names: tuple[str, ...]

    def errors(self, given: Mapping[str, Any]) -> list[str]:
        present = [n for n in self.names if n in given]
        if len(present) > 1:
            return [f"{', '.join(present)} are mutually exclusive"]
        return []


@attrs.frozen
class AtLeastOne:
    names: tuple[str, ...]

    def errors(self, given: Mapping[str, Any]) -> list[str]:
        if not any(n in given for n in self.names):
            return [f"{', '.join(self.names)} are missing, at least one parameter must be provided"]
        return []


@attrs.frozen
class ExactlyOne:
    names: tuple[str, ...]

    def errors(self, given: Mapping[str, Any]) -> list[str]:
        present = [n for n in self.names if n in given]
        if not present:
            return [f"{', '.join(self.names)} are missing, exactly one parameter must be provided"]
        if len(present) > 1:
            return [f"{', '.join(present)} are mutually exclusive"]
        return []


@attrs.frozen
class AllOrNone:
    names: tuple[str, ...]

    def errors(self, given: Mapping[str, Any]) -> list[str]:
        present = [n for n in self.names if n in given]
        if present and len(present) != len(self.names):
            return [f"{', '.join(self.names)} provide all or none of parameters"]
        return []


Constraint = MutuallyExclusive | AtLeastOne | ExactlyOne | AllOrNone


def _blank(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, str):
        return value.strip() == ""
    if isinstance(value, list | dict):
        return len(value) == 0
    return False


def _null_means_absent(param: Param, raw: Any) -> bool:
    """A JSON ``null`` stands for "not given" when the parameter has a default or a
    closed set of values without ``None``, as the real service fills defaults over nil
    and checks the values of a nil only when the parameter is required. Elsewhere it is
    passed on: an edit can clear an optional field, and a required one reaches the
    model's own validation (``can't be blank``)."""
    if raw is not None or param.required:
        return False
    return param.has_default or (param.values is not None and None not in param.values)


def _check_one(param: Param, label: str, raw: Any, errors: list[str]) -> Any:
    if not param.allow_blank and _blank(raw):
        errors.append(f"{label} is empty")
        return NOTHING
    if raw is None:
        if not param.type.accepts_null:
            errors.append(f"{label} is invalid")
            return NOTHING
        if param.values is not None and None not in param.values:
            errors.append(f"{label} does not have a valid value")
            return NOTHING
        return None
    try:
        value = param.type.coerce(raw)
    except Invalid:
        errors.append(f"{label} is invalid")
        return NOTHING
    if param.items and isinstance(value, list):
        value = [_check_items(param, label, i, item, errors) for i, item in enumerate(value)]
    candidates = value if isinstance(value, list) and param.values is not None else [value]
    if param.values is not None and any(v not in param.values for v in candidates):
        errors.append(f"{label} does not have a valid value")
        return NOTHING
    if param.excluded is not None and any(v in param.excluded for v in candidates):
        errors.append(f"{label} has a value not allowed")
        return NOTHING
    if param.check is not None and not param.check(value):
        errors.append(f"{label} does not have a valid value")
        return NOTHING
    return value


def _check_items(param: Param, label: str, index: int, item: Any, errors: list[str]) -> Any:
    if not isinstance(item, dict):
        return item
    out = dict(item)
    for sub in param.items:
        sub_label = f"{label}[{index}][{sub.name}]"
        if sub.name not in item:
            if sub.required:
                errors.append(f"{sub_label} is missing")
            elif sub.has_default:
                out[sub.name] = sub.default
            continue
        checked = _check_one(sub, sub_label, item[sub.name], errors)
        if checked is not NOTHING:
            out[sub.name] = checked
    return out


def validate(
    declared: Sequence[Param],
    raw: Mapping[str, Any],
    constraints: Sequence[Constraint] = (),
) -> dict[str, Any]:
    """Coerce and check ``raw`` against ``declared``; return typed values (defaults filled).

    Undeclared raw values are left out. All failures are gathered into one ParamError.
    """
    errors: list[str] = []
    out: dict[str, Any] = {}
    for param in declared:
        if param.name not in raw or _null_means_absent(param, raw[param.name]):
            if param.required:
                errors.append(f"{param.name} is missing")
            elif param.has_default:
                out[param.name] = param.default
            continue
        value = _check_one(param, param.name, raw[param.name], errors)
        if value is not NOTHING:
            out[param.name] = value
    given = {p.name: True for p in declared if p.name in raw}
    for constraint in constraints:
        errors.extend(constraint.errors(given))
    if errors:
        raise ParamError(errors)
    return out
