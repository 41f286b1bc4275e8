"""Forgetting a snapshot (``DELETE /_fake/snapshots/:id``): 204, gone from the list and no
longer restorable."""

from __future__ import annotations

from fakeservice import FakeService


def test_drop_a_snapshot(fake_service: FakeService) -> None:
    kept = fake_service.request("POST", "/_fake/snapshot", json_body={"name": "kept"}).json()["id"]
    dropped = fake_service.request("POST", "/_fake/snapshot", json_body={"name": "gone"}).json()[
        "id"
    ]
    answer = fake_service.request("DELETE", f"/_fake/snapshots/{dropped}")
    assert (answer.status, answer.body) == (204, b"")
    assert fake_service.request("GET", "/_fake/snapshots").json() == {"ids": [kept]}
    again = fake_service.request("POST", "/_fake/restore", json_body={"id": dropped})
    assert (again.status, again.json()) == (404, {"error": "unknown snapshot 'gone'"})
