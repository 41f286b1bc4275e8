"""Feature records (one per persisted flag) and the gate operations on them.

A feature keeps the gates of the real service's flag library: ``boolean``, ``actors``
(flipper ids such as ``User:3``; ``<id>:opt_out`` marks an opt-out), ``percentage_of_actors``,
``percentage_of_time`` and ``groups`` (feature groups). As there: enabling or disabling a
flag globally clears every other gate, and a percentage of 0 or 100 is a disable or an
enable. Features are kept in name order (the list's order).

:func:`enabled` is how the fake's own flag-gated behaviour asks: the boolean gate, an
actor gate (an opt-out wins), or the percentage of actors by the library's own hash
(``crc32(name + flipper_id) % 100000 < percentage * 1000``). A percentage of time never
counts: the fake gives the same answer every time.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable

import attrs

from fakeservice.core.store import ALL, Store, Table
from fakeservice.features.definitions import definition

Number = int | float
OPT_OUT = ":opt_out"


@attrs.define(slots=True)
class Feature:
    id: int
    name: str
    boolean: bool = False
    actors: list[str] = attrs.field(factory=list)
    percentage_of_actors: Number = 0
    percentage_of_time: Number = 0
    groups: list[str] = attrs.field(factory=list)

    @property
    def state(self) -> str:
        if self.boolean or self.percentage_of_time == 100:
            return "on"
        if self.actors or self.groups or self.percentage_of_actors or self.percentage_of_time:
            return "conditional"
        return "off"


def features(store: Store) -> Table[Feature]:
    table = store.tables.get("features")
    if table is None:  # a service composed without the features area
        install(store)
        table = store.tables["features"]
    return table


def install(store: Store) -> None:
    table = store.table("features")
    table.add_unique("name", lambda f: f.name)
    table.add_sorted("by_name", lambda f: ALL, lambda f: (f.name,))


def find(store: Store, name: str) -> Feature | None:
    return features(store).by("name", name)


def persisted(store: Store, name: str) -> Feature:
    """The feature named ``name``, created (every gate off) when it is not stored yet."""
    found = find(store, name)
    if found is None:
        found = features(store).insert(Feature(id=store.next_id("features"), name=name))
    return found


def set_boolean(store: Store, name: str, value: bool) -> Feature:
    """Enable or disable ``name`` for everyone: every other gate is cleared."""
    feature = persisted(store, name)
    return features(store).update(
        feature, boolean=value, actors=[], groups=[], percentage_of_actors=0, percentage_of_time=0
    )


def set_percentage(store: Store, name: str, gate: str, value: Number) -> Feature:
    """Set the ``percentage_of_actors`` or ``percentage_of_time`` gate."""
    feature = persisted(store, name)
    return features(store).update(feature, **{gate: value})


def _gate_list(feature: Feature, group: bool) -> list[str]:
    return list(feature.groups if group else feature.actors)


def add_gate(store: Store, name: str, key: str, *, group: bool = False) -> Feature:
    """Add an actor (flipper id, or ``<id>:opt_out``) or a feature group to ``name``."""
    feature = persisted(store, name)
    values = _gate_list(feature, group)
    if key not in values:
        values.append(key)
    return features(store).update(feature, **{"groups" if group else "actors": values})


def remove_gate(store: Store, name: str, key: str, *, group: bool = False) -> Feature:
    feature = persisted(store, name)
    values = [v for v in _gate_list(feature, group) if v != key]
    return features(store).update(feature, **{"groups" if group else "actors": values})


def opted_out(store: Store, name: str, actor: str) -> bool:
    feature = find(store, name)
    return feature is not None and actor + OPT_OUT in feature.actors


def remove(store: Store, name: str) -> None:
    """Forget ``name`` (its definition's default applies again)."""
    feature = find(store, name)
    if feature is not None:
        features(store).delete(feature)


def _in_percentage(name: str, actor: str, percentage: Number) -> bool:
    return zlib.crc32(f"{name}{actor}".encode()) % 100_000 < percentage * 1000


def enabled(store: Store, name: str, actors: Iterable[str] = ()) -> bool:
    """Whether ``name`` is on, for no actor or for any of ``actors`` (flipper ids)."""
    feature = find(store, name)
    if feature is None:
        known = definition(name)
        return known is not None and known.default_enabled
    wanted = list(actors)
    if any(actor + OPT_OUT in feature.actors for actor in wanted):
        return False
    if feature.boolean or feature.percentage_of_time == 100:
        return True
    if any(actor in feature.actors for actor in wanted):
        return True
    return any(_in_percentage(name, a, feature.percentage_of_actors) for a in wanted)
