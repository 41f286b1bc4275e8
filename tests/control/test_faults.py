"""Fault injection: statuses with the service's bodies, delays, drops, counts, seeded
probabilities, and the HTTP interface."""

from __future__ import annotations

import time

import httpx
import pytest
import requests

from fakeservice import FakeService
from fakeservice.control.faults import FaultError


def get_version(service: FakeService) -> int:
    return service.request("GET", "/version", token="root-token").status


def test_status_fault_uses_the_service_body(fake_service: FakeService) -> None:
    fake_service.faults.add("/projects/*", method="GET", status=404)
    response = fake_service.request("GET", "/projects/1", token="root-token")
    assert response.status == 404
    assert response.json() == {"message": "404 Not found"}
    assert response.header("Content-Type") == "application/json"
    other = fake_service.request("POST", "/projects", json_body={"name": "n"}, token="root-token")
    assert other.status == 201


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (401, {"message": "401 Unauthorized"}),
        (403, {"message": "403 Forbidden"}),
        (409, {"message": "409 Conflict"}),
        (500, {"message": "500 Internal Server Error"}),
        (502, {"message": "502 Bad Gateway"}),
        (503, {"message": "503 Service Unavailable"}),
    ],
)
def test_statuses(fake_service: FakeService, status: int, body: dict[str, str]) -> None:
    fake_service.faults.add("/version", status=status)
    response = fake_service.request("GET", "/version", token="root-token")
    assert (response.status, response.json()) == (status, body)


def test_429_fault_looks_like_the_throttle(fake_service: FakeService) -> None:
    fake_service.faults.add("/version", status=429, retry_after=7)
    response = fake_service.request("GET", "/version", token="root-token")
    assert response.status == 429
    assert response.body == b"Retry later\n"
    assert response.header("Content-Type") == "text/plain"
    assert response.header("Retry-After") == "7"
    for name in (
        "RateLimit-Name",
        "RateLimit-Limit",
        "RateLimit-Observed",
        "RateLimit-Remaining",
        "RateLimit-Reset",
        "RateLimit-ResetTime",
    ):
        assert response.header(name), name


def test_times_then_through(fake_service: FakeService) -> None:
    fake_service.faults.add("/version", status=500, times=2)
    assert [get_version(fake_service) for _ in range(4)] == [500, 500, 200, 200]
    rule = fake_service.faults.rules[0]
    assert (rule.seen, rule.fired, rule.exhausted) == (2, 2, True)


def test_skip_lets_requests_through_first(fake_service: FakeService) -> None:
    fake_service.faults.add("/version", status=503, skip=2, times=1)
    assert [get_version(fake_service) for _ in range(4)] == [200, 200, 503, 200]


def test_seeded_probability_is_repeatable() -> None:
    def run() -> list[int]:
        service = FakeService()
        service.faults.add("/version", status=503, probability=0.5, seed=42)
        return [get_version(service) for _ in range(40)]

    first = run()
    assert first == run()
    assert 5 < first.count(503) < 35


def test_custom_body_and_headers(fake_service: FakeService) -> None:
    fake_service.faults.add(
        "/version", status=502, body="<html>bad gateway</html>", headers={"X-Proxy": "edge"}
    )
    response = fake_service.request("GET", "/version", token="root-token")
    assert response.body == b"<html>bad gateway</html>"
    assert response.header("Content-Type") == "text/plain"
    assert response.header("X-Proxy") == "edge"


def test_first_matching_rule_wins(fake_service: FakeService) -> None:
    fake_service.faults.add("/version", status=500, times=1)
    fake_service.faults.add("/**", status=503)
    assert get_version(fake_service) == 500
    assert get_version(fake_service) == 503


def test_delay_only_fault_answers_normally_but_late(fake_service: FakeService) -> None:
    fake_service.faults.add("/version", delay=0.2)
    session = fake_service.requests_session()
    start = time.perf_counter()
    response = session.get(
        fake_service.url + "/api/v4/version", headers={"PRIVATE-TOKEN": "root-token"}
    )
    assert response.status_code == 200
    assert time.perf_counter() - start >= 0.2


def test_drop_breaks_the_connection_in_process(fake_service: FakeService) -> None:
    fake_service.faults.add("/version", drop=True, times=1)
    session = fake_service.requests_session()
    with pytest.raises(requests.ConnectionError):
        session.get(fake_service.url + "/api/v4/version")
    client = fake_service.httpx_client()
    fake_service.faults.add("/version", drop=True, times=1)
    with pytest.raises(httpx.RemoteProtocolError):
        client.get("/api/v4/version")
    entries = fake_service.journal.entries(path="/version")
    assert [e.dropped for e in entries] == [True, True]


def test_drop_over_a_live_server(fake_server) -> None:  # type: ignore[no-untyped-def]
    fake_server.service.faults.add("/version", drop=True, times=1)
    with httpx.Client(base_url=fake_server.url) as client:
        with pytest.raises(httpx.HTTPError):
            client.get("/api/v4/version", headers={"PRIVATE-TOKEN": "root-token"})
        assert (
            client.get("/api/v4/version", headers={"PRIVATE-TOKEN": "root-token"}).status_code
            == 200
        )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "a fault needs a status, a delay or drop: true"),
        ({"status": 200}, "status must be 400 or more"),
        ({"status": 600}, "status must be an HTTP error status (400 to 599)"),
        ({"status": 500, "drop": True}, "status and drop are mutually exclusive"),
        ({"status": 500, "times": 0}, "times must be 1 or more"),
        ({"status": 500, "probability": 2}, "probability must be between 0 and 1"),
        ({"delay": -1}, "delay must be between 0 and 300"),
        ({"status": 500, "method": "FETCH"}, "unknown method FETCH"),
        ({"status": 500, "headers": {"a": 1}}, "headers must map header names to strings"),
    ],
)
def test_bad_rules_are_refused(kwargs: dict[str, object], message: str) -> None:
    from fakeservice.control.faults import Faults

    with pytest.raises(ValueError) as caught:
        Faults().add("/x", **kwargs)  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert isinstance(caught.value, FaultError) or "method" in message


def test_http_interface(fake_service: FakeService) -> None:
    created = fake_service.request(
        "POST",
        "/_fake/faults",
        json_body={"path": "/version", "method": "GET", "status": 503, "times": 1},
    )
    assert created.status == 201
    rule = created.json()
    assert rule["id"] == 1 and rule["status"] == 503 and rule["fired"] == 0
    assert get_version(fake_service) == 503
    listed = fake_service.request("GET", "/_fake/faults").json()
    assert listed[0]["fired"] == 1
    assert fake_service.request("DELETE", "/_fake/faults/1").status == 204
    assert fake_service.request("DELETE", "/_fake/faults/1").status == 404
    fake_service.request("POST", "/_fake/faults", json_body={"path": "/**", "status": 500})
    assert fake_service.request("DELETE", "/_fake/faults").status == 204
    assert get_version(fake_service) == 200
    bad = fake_service.request("POST", "/_fake/faults", json_body={"path": "/x"})
    assert bad.status == 400
    assert bad.json() == {"error": "a fault needs a status, a delay or drop: true"}
    missing = fake_service.request("POST", "/_fake/faults", json_body={"status": 500})
    assert missing.json() == {"error": "path is missing"}


def test_control_plane_is_never_faulted(fake_service: FakeService) -> None:
    fake_service.faults.add("/**", status=500)
    assert fake_service.request("GET", "/_fake/clock").status == 200


def test_reset_restores_the_scenario_faults() -> None:
    service = FakeService(
        {"extends": "default", "faults": [{"path": "/version", "status": 503, "times": 1}]}
    )
    assert get_version(service) == 503
    assert get_version(service) == 200
    service.faults.add("/**", status=500)
    service.reset()
    assert [r.status for r in service.faults.rules] == [503]
    assert get_version(service) == 503
