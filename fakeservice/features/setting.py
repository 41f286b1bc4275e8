"""Setting a flag's gate (``POST /features/:name``): the value and key read as the real
service reads them, every check made before anything changes.

* ``true``/``100`` enable and ``false``/``0`` disable: for everyone (clearing the other
  gates) or, with targets, for each target; ``opt_out`` and ``remove_opt_out`` act on
  actors only;
* another number is a percentage of time, or of actors with ``key=percentage_of_actors``;
* anything else: 400 ``Cannot set '<name>' to "<value>"`` (with the key when given, or
  ``for <target>``), ``Not a percentage``, ``No opt-out exists for <target>``, ``Opt-out
  exists for <target> - remove opt-out before enabling``;
* a licensed feature's name is refused unless ``force`` is given.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from fakeservice.core.errors import BadRequest
from fakeservice.core.store import Store
from fakeservice.features import models
from fakeservice.features.definitions import LICENSED_FEATURES
from fakeservice.features.models import OPT_OUT, Feature, Number
from fakeservice.features.targets import Target, gate_specified, resolve

ENABLE = frozenset({"100", "100.0", "true"})
DISABLE = frozenset({"0", "0.0", "false"})
_NUMERIC = re.compile(r"^\d+(\.\d+)?$")
KEYS = ("percentage_of_actors", "percentage_of_time")


def _inspect(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _percentage(value: str) -> Number:
    if not _NUMERIC.match(value):
        raise BadRequest("Not a percentage")
    number: Number = float(value) if "." in value else int(value)
    if number > 100:
        raise BadRequest(
            f"value must be a positive number less than or equal to 100, but was {number}"
        )
    return number


def _target_step(store: Store, name: str, value: str, target: Target) -> Callable[[], Any]:
    """The change for one target, checked now and applied later."""
    if value in ENABLE:
        if not target.group and models.opted_out(store, name, target.key):
            raise BadRequest(f"Opt-out exists for {target.label} - remove opt-out before enabling")
        return lambda: models.add_gate(store, name, target.key, group=target.group)
    if value in DISABLE:
        return lambda: models.remove_gate(store, name, target.key, group=target.group)
    if value == "opt_out" and not target.group:
        return lambda: models.add_gate(store, name, target.key + OPT_OUT)
    if value == "remove_opt_out" and not target.group:
        if not models.opted_out(store, name, target.key):
            raise BadRequest(f"No opt-out exists for {target.label}")
        return lambda: models.remove_gate(store, name, target.key + OPT_OUT)
    raise BadRequest(f"Cannot set '{name}' to {_inspect(value)} for {target.key}")


def _global_step(store: Store, name: str, value: str, key: str | None) -> Callable[[], Any]:
    if value in ENABLE:
        return lambda: models.set_boolean(store, name, True)
    if value in DISABLE:
        return lambda: models.set_boolean(store, name, False)
    numeric = _NUMERIC.match(value) is not None
    if key in KEYS or (key is None and numeric):
        gate, number = key or "percentage_of_time", _percentage(value)
        return lambda: models.set_percentage(store, name, gate, number)
    shown = f" ({_inspect(key)})" if key else ""
    raise BadRequest(f"Cannot set '{name}'{shown} to {_inspect(value)}")


def set_feature(store: Store, name: str, params: Mapping[str, Any]) -> Feature:
    """Apply ``POST /features/:name`` with declared ``params``; nothing changes on error."""
    if not params.get("force") and name in LICENSED_FEATURES:
        raise BadRequest(
            f"The '{name}' is a licensed feature name, and thus it cannot be used as a "
            "feature flag name. Use `rails console` to set this feature flag state."
        )
    value = str(params["value"])
    if gate_specified(params):
        steps = [_target_step(store, name, value, t) for t in resolve(store, params)]
    else:
        steps = [_global_step(store, name, value, params.get("key"))]
    for step in steps:
        step()
    return models.persisted(store, name)
