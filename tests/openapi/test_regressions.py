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


def test_a_null_upload_is_an_invalid_file() -> None:
    service = FakeService()
    before = service.snapshot()
    for path, body in (
        ("/groups/acme/wikis/attachments", {"file": None}),
        ("/projects/1/wikis/attachments", {"file": None}),
        ("/projects/import", {"file": None, "path": None}),
    ):
        response = service.request("POST", path, json_body=body, token="root-token")
        assert (response.status, response.json()) == (400, {"error": "file is invalid"}), path
    assert service.snapshot() == before
    assert service.server_errors == []


def test_a_null_environment_name_is_blank() -> None:
    service = FakeService()
    before = service.snapshot()
    response = service.request(
        "POST", "/projects/1/environments", json_body={"name": None}, token="root-token"
    )
    assert response.status == 400
    assert response.json()["message"]["name"][0] == "can't be blank"
    assert len(response.json()["message"]["name"]) == 2
    assert service.snapshot() == before
    assert service.server_errors == []
