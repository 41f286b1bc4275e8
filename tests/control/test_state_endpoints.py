"""Control plane: reset, snapshots, scenario loading and the clock, over HTTP and in Python."""

from __future__ import annotations

import pytest

from fakeservice import FakeService


def users_count(service: FakeService) -> int:
    response = service.request("GET", "/users", token="root-token")
    return int(response.header("X-Total") or 0)


def create_user(service: FakeService, username: str, token: str = "root-token") -> int:
    response = service.request(
        "POST",
        "/users",
        token=token,
        json_body={
            "username": username,
            "name": username,
            "email": f"{username}@x.test",
            "password": "long-enough-1",
        },
    )
    assert response.status == 201, response.body
    return int(response.json()["id"])


def test_control_plane_is_outside_the_api_and_needs_no_auth(fake_service: FakeService) -> None:
    assert fake_service.request("GET", "/_fake/clock").status == 200
    assert fake_service.request("GET", "/api/v4/_fake/clock").status == 404


def test_reset_returns_to_the_scenario_and_empties_the_journal(fake_service: FakeService) -> None:
    before = users_count(fake_service)
    create_user(fake_service, "temp")
    assert users_count(fake_service) == before + 1
    response = fake_service.request("POST", "/_fake/reset")
    assert response.status == 200
    assert response.json()["reset"] is True
    assert len(fake_service.journal) == 0
    assert users_count(fake_service) == before


def test_snapshot_and_restore_by_id(fake_service: FakeService) -> None:
    before = users_count(fake_service)
    taken = fake_service.request("POST", "/_fake/snapshot")
    assert taken.status == 201
    snap_id = taken.json()["id"]
    create_user(fake_service, "later")
    assert fake_service.request("GET", "/_fake/snapshots").json() == {"ids": [snap_id]}
    restored = fake_service.request("POST", "/_fake/restore", json_body={"id": snap_id})
    assert restored.status == 200
    assert users_count(fake_service) == before


def test_named_snapshot_and_python_methods(fake_service: FakeService) -> None:
    name = fake_service.save_snapshot("clean")
    assert name == "clean"
    create_user(fake_service, "later")
    fake_service.restore("clean")
    assert (
        fake_service.request(
            "GET", "/users", query={"username": "later"}, token="root-token"
        ).json()
        == []
    )
    raw = fake_service.snapshot()
    create_user(fake_service, "again")
    fake_service.restore(raw)
    assert (
        fake_service.request(
            "GET", "/users", query={"username": "again"}, token="root-token"
        ).json()
        == []
    )


def test_snapshot_errors_are_clear(fake_service: FakeService) -> None:
    missing = fake_service.request("POST", "/_fake/restore", json_body={"id": "nope"})
    assert missing.status == 404
    assert missing.json() == {"error": "unknown snapshot 'nope'"}
    no_id = fake_service.request("POST", "/_fake/restore")
    assert no_id.status == 400
    assert no_id.json() == {"error": "id is missing"}
    bad_name = fake_service.request("POST", "/_fake/snapshot", json_body={"name": "a b"})
    assert bad_name.status == 400
    assert "snapshot name" in bad_name.json()["error"]
    assert fake_service.request("DELETE", "/_fake/snapshots/nope").status == 404


def test_snapshots_keep_the_journal_and_faults(fake_service: FakeService) -> None:
    snap = fake_service.save_snapshot()
    fake_service.faults.add("/version", status=503)
    fake_service.request("GET", "/version", token="root-token")
    fake_service.restore(snap)
    assert fake_service.journal.count(path="/version") == 1
    assert len(fake_service.faults.rules) == 1


def test_load_scenario_yaml_text_replaces_the_state(fake_service: FakeService) -> None:
    text = "users:\n  - username: solo\n    admin: true\n    tokens: [{token: solo-token}]\n"
    response = fake_service.request(
        "POST", "/_fake/scenario", body=text.encode(), headers={"Content-Type": "application/yaml"}
    )
    assert response.status == 201, response.body
    assert fake_service.request("GET", "/user", token="root-token").status == 401
    me = fake_service.request("GET", "/user", token="solo-token")
    assert me.json()["username"] == "solo"
    create_user(fake_service, "extra", token="solo-token")
    fake_service.reset()
    assert users_count_as(fake_service, "solo-token") == 1


def users_count_as(service: FakeService, token: str) -> int:
    return int(service.request("GET", "/users", token=token).header("X-Total") or 0)


def test_load_scenario_json_and_adding(fake_service: FakeService) -> None:
    before = users_count(fake_service)
    response = fake_service.request(
        "POST",
        "/_fake/scenario?replace=false",
        json_body={"scenario": {"users": [{"username": "newbie"}]}},
    )
    assert response.status == 201, response.body
    assert users_count(fake_service) == before + 1
    as_yaml = fake_service.request(
        "POST", "/_fake/scenario", json_body={"yaml": "users: [{username: x, admin: true}]"}
    )
    assert as_yaml.status == 201


def test_bad_scenario_answers_400_with_lines_and_changes_nothing(fake_service: FakeService) -> None:
    before = users_count(fake_service)
    text = "users:\n  - username: ok\n  - usernme: typo\n"
    response = fake_service.request(
        "POST", "/_fake/scenario", body=text.encode(), headers={"Content-Type": "text/yaml"}
    )
    assert response.status == 400
    body = response.json()
    assert body["error"] == "the scenario is invalid"
    assert {
        "file": "<request>",
        "line": 3,
        "where": "users[1].usernme",
        "message": "unknown key 'usernme' (did you mean 'username'?)",
    } in body["problems"]
    assert users_count(fake_service) == before
    broken = fake_service.request(
        "POST", "/_fake/scenario", body=b"users: [", headers={"Content-Type": "text/yaml"}
    )
    assert broken.status == 400
    assert "not valid YAML" in broken.json()["problems"][0]["message"]
    empty = fake_service.request("POST", "/_fake/scenario")
    assert empty.status == 400


def test_scenario_failing_late_leaves_state_whole(fake_service: FakeService) -> None:
    before = users_count(fake_service)
    with pytest.raises(ValueError, match="unknown namespace"):
        fake_service.load_scenario(
            {"users": [{"username": "first"}], "projects": [{"path": "ghost/p"}]}
        )
    assert users_count(fake_service) == before


def test_clock_read_advance_set_and_mode(fake_service: FakeService) -> None:
    clock = fake_service.request("GET", "/_fake/clock").json()
    assert clock == {
        "now": "2026-01-01T09:00:00Z",
        "timestamp": 1767258000.0,
        "mode": "manual",
        "start": "2026-01-01T09:00:00Z",
    }
    moved = fake_service.request("POST", "/_fake/clock", json_body={"seconds": 90})
    assert moved.json()["now"] == "2026-01-01T09:01:30Z"
    set_to = fake_service.request("POST", "/_fake/clock", json_body={"to": "2026-02-01T00:00:00Z"})
    assert set_to.json()["now"] == "2026-02-01T00:00:00Z"
    frozen = fake_service.request("POST", "/_fake/clock", json_body={"mode": "frozen"})
    assert frozen.json()["mode"] == "frozen"
    refused = fake_service.request("POST", "/_fake/clock", json_body={"seconds": 1})
    assert refused.status == 400
    assert "frozen clock cannot be moved" in refused.json()["error"]


def test_clock_input_errors_are_400(fake_service: FakeService) -> None:
    cases = [
        ({}, "seconds, to, mode are missing, at least one parameter must be provided"),
        ({"seconds": "soon"}, "seconds is invalid"),
        ({"to": "yesterday"}, "to is invalid"),
        ({"mode": "fast"}, "mode does not have a valid value"),
        ({"seconds": 1, "to": "2026-02-01T00:00:00Z"}, "seconds, to are mutually exclusive"),
        ({"seconds": -5}, "the clock cannot go backwards"),
        ({"to": "2020-01-01T00:00:00Z"}, "the clock cannot go backwards"),
    ]
    for body, message in cases:
        response = fake_service.request("POST", "/_fake/clock", json_body=body)
        assert response.status == 400, body
        assert response.json() == {"error": message}, body


def test_clock_python_methods(fake_service: FakeService) -> None:
    fake_service.advance_clock(minutes=2)
    assert fake_service.now().isoformat() == "2026-01-01T09:02:00+00:00"
    fake_service.set_clock("2026-01-03T00:00:00Z")
    assert fake_service.now().day == 3
    fake_service.set_clock_mode("real")
    assert fake_service.clock.mode == "real"
    assert fake_service.now().year == 2026


def test_real_mode_keeps_clock_listeners(fake_service: FakeService) -> None:
    seen: list[object] = []
    fake_service.clock.on_change(lambda before, after: seen.append(after))
    fake_service.set_clock_mode("frozen")
    fake_service.set_clock_mode("manual")
    fake_service.advance_clock(5)
    assert len(seen) == 1


def test_control_errors_never_500(fake_service: FakeService) -> None:
    probes = [
        ("POST", "/_fake/faults", {"path": 5}),
        ("POST", "/_fake/faults", {"path": "/x", "status": "abc"}),
        ("POST", "/_fake/rate_limits", {"limit": "many"}),
        ("POST", "/_fake/restore", {"id": ["a"]}),
        ("POST", "/_fake/scenario", {"scenario": "text"}),
        ("GET", "/_fake/journal?status=x", None),
        ("DELETE", "/_fake/faults/abc", None),
    ]
    for method, path, body in probes:
        response = fake_service.request(method, path, json_body=body)
        assert 400 <= response.status < 500, (path, body, response.body)
    assert fake_service.server_errors == []
