"""JSON of a feature: ``name``, ``state`` (on, off, conditional), the gates that are set
(``boolean`` always, then ``actors``, ``percentage_of_actors``, ``percentage_of_time``,
``groups``) and its ``definition`` (null for a flag the fake does not know)."""

from __future__ import annotations

from typing import Any

from fakeservice.features.definitions import definition
from fakeservice.features.models import Feature


def gates(feature: Feature) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"key": "boolean", "value": feature.boolean}]
    for key, value in (
        ("actors", list(feature.actors)),
        ("percentage_of_actors", feature.percentage_of_actors),
        ("percentage_of_time", feature.percentage_of_time),
        ("groups", list(feature.groups)),
    ):
        if value:
            out.append({"key": key, "value": value})
    return out


def feature_view(feature: Feature) -> dict[str, Any]:
    known = definition(feature.name)
    return {
        "name": feature.name,
        "state": feature.state,
        "gates": gates(feature),
        "definition": known.view() if known is not None else None,
    }
