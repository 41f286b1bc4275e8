"""The ``geo_nodes`` scenario section: Geo nodes, created as ``POST /geo_nodes`` creates
them (same defaults and validation). The instance's own node is the one named like
``instance.geo_node_name`` (``fakeservice`` by default).

.. code-block:: yaml

    geo_nodes:
      - {name: fakeservice, url: "http://fakeservice.test/", primary: true}
      - {name: replica-eu, url: "https://eu.example.com", repos_max_capacity: 50}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.geo import models
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.schema import (
    BOOL,
    INT,
    STR,
    Choice,
    Field,
    ListOf,
    Nullable,
    Range,
    Record,
)

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

NODE = Record(
    "geo_node",
    {
        "name": Field(STR, "unique name", required=True),
        "url": Field(STR, "external URL", required=True),
        "primary": Field(BOOL, "default false"),
        "enabled": Field(BOOL, "default true"),
        "internal_url": Field(STR, "default: url"),
        **{key: Field(Range(0), f"default {models.DEFAULTS[key]}") for key in models.CAPACITIES},
        "sync_object_storage": Field(BOOL, "default false"),
        "selective_sync_type": Field(
            Nullable(Choice(models.SYNC_TYPES)), "namespaces, shards or null"
        ),
        "selective_sync_shards": Field(ListOf(STR), "storage names"),
        "selective_sync_namespace_ids": Field(ListOf(INT), "namespace ids"),
        "minimum_reverification_interval": Field(Range(1), "days (default 7)"),
    },
)


def load_geo_nodes(service: FakeService, data: Mapping[str, Any]) -> None:
    value = data.get("geo_nodes")
    if value is None:
        return
    if not isinstance(value, list):
        raise ScenarioError([("geo_nodes", "must be a list")])
    for index, spec in enumerate(value):
        where = f"geo_nodes[{index}]"
        if not isinstance(spec, Mapping):
            raise ScenarioError([(where, "must be a mapping")])
        try:
            models.create_node(service.store, dict(spec))
        except ApiError as error:
            raise ScenarioError([(where, str(error.body.get("message")))]) from error
        except TypeError as error:
            raise ScenarioError([(where, f"unknown or malformed key: {error}")]) from error


def register(found: Sections) -> None:
    """Declare the top-level ``geo_nodes`` key."""
    found.register_section("geo_nodes", load_geo_nodes, schema=ListOf(NODE), doc="Geo nodes")
