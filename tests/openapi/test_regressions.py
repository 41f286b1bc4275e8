"""Server errors the OpenAPI fuzz found, each answered now as a 4xx with state untouched."""

from __future__ import annotations

from typing import Any

from fakeservice import FakeService


def _refused(path: str, bodies: list[dict[str, Any]], error: list[str]) -> None:
    service = FakeService()
    before = service.snapshot()
    for body, message in zip(bodies, error, strict=True):
        response = service.request("POST", path, json_body=body)
        assert (response.status, response.json()) == (400, {"error": message})
    assert service.snapshot() == before
    assert service.server_errors == []


def test_restore_with_a_null_snapshot_id_is_a_400() -> None:
    _refused("/_fake/restore", [{"id": None}, {"id": ""}], ["id is empty", "id is empty"])


def test_loading_a_null_scenario_is_a_400() -> None:
    _refused(
        "/_fake/scenario",
        [{"scenario": None}, {"yaml": None}],
        ["scenario is empty", "yaml is empty"],
    )


def test_moving_the_clock_by_null_is_a_400() -> None:
    _refused(
        "/_fake/clock",
        [{"seconds": None}, {"to": None}],
        ["seconds is empty", "to is empty"],
    )
