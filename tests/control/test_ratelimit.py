"""Rate limiting on the service's clock with the real service's 429 and headers."""

from __future__ import annotations

import time

import pytest

from fakeservice import FakeService
from fakeservice.web.http import Response


def version(service: FakeService, token: str | None = "root-token") -> Response:
    return service.request("GET", "/version", token=token)


def test_limit_per_window_with_the_real_headers(fake_service: FakeService) -> None:
    fake_service.rate_limits.add(limit=2, period=60)
    assert [version(fake_service).status for _ in range(2)] == [200, 200]
    fake_service.advance_clock(15)
    limited = version(fake_service)
    assert limited.status == 429
    assert limited.body == b"Retry later\n"
    assert limited.headers == [
        ("Content-Type", "text/plain"),
        ("RateLimit-Name", "throttle_authenticated_api"),
        ("RateLimit-Limit", "2"),
        ("RateLimit-Observed", "3"),
        ("RateLimit-Remaining", "0"),
        ("RateLimit-Reset", "1767258060"),
        ("RateLimit-ResetTime", "Thu, 01 Jan 2026 09:01:00 GMT"),
        ("Retry-After", "45"),
    ]
    fake_service.advance_clock(45)
    assert version(fake_service).status == 200


def test_counted_per_user_and_per_address(fake_service: FakeService) -> None:
    fake_service.rate_limits.add(limit=1, period=60)
    assert version(fake_service).status == 200
    assert version(fake_service, "alice-token").status == 200
    assert version(fake_service).status == 429
    assert version(fake_service, None).status == 401
    assert version(fake_service, None).status == 429


def test_applies_to_and_path_and_method(fake_service: FakeService) -> None:
    fake_service.rate_limits.add(
        limit=0, period=10, applies_to="unauthenticated", path="/projects/**"
    )
    assert fake_service.request("GET", "/projects/1").status == 429
    assert fake_service.request("GET", "/projects/1", token="root-token").status == 200
    assert fake_service.request("GET", "/version").status == 401
    limited = fake_service.request("GET", "/projects/1")
    assert limited.header("RateLimit-Name") == "throttle_unauthenticated_api"


def test_journal_names_the_throttled_user(fake_service: FakeService) -> None:
    fake_service.rate_limits.add(limit=0)
    version(fake_service, "alice-token")
    entry = fake_service.journal.last()
    assert entry is not None and (entry.status, entry.user) == (429, "alice")


def test_python_gitlab_retries_using_retry_after(
    fake_service: FakeService, fake_gitlab, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """python-gitlab sleeps Retry-After seconds: patched to move the manual clock."""
    import gitlab.utils

    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        fake_service.advance_clock(seconds)

    monkeypatch.setattr(gitlab.utils.time, "sleep", sleep)
    fake_service.rate_limits.add(limit=2, period=60)
    names = [fake_gitlab.users.get(1).username for _ in range(3)]
    assert names == ["root"] * 3
    assert slept == [60]
    assert fake_service.journal.count(status=429) == 1


def test_python_gitlab_retry_in_real_time(fake_service: FakeService, fake_gitlab) -> None:  # type: ignore[no-untyped-def]
    fake_service.faults.add("/users/1", status=429, retry_after=1, times=1)
    start = time.monotonic()
    assert fake_gitlab.users.get(1).username == "root"
    assert time.monotonic() - start >= 1
    assert [e.status for e in fake_service.journal.entries(path="/users/1")] == [429, 200]


def test_http_interface_and_validation(fake_service: FakeService) -> None:
    created = fake_service.request(
        "POST", "/_fake/rate_limits", json_body={"limit": 1, "period": 30, "name": "custom"}
    )
    assert created.status == 201
    assert created.json() == {
        "id": 1,
        "limit": 1,
        "period": 30,
        "name": "custom",
        "applies_to": "all",
        "method": "*",
        "path": "/api/v4/**",
    }
    version(fake_service)
    assert version(fake_service).header("RateLimit-Name") == "custom"
    assert len(fake_service.request("GET", "/_fake/rate_limits").json()) == 1
    assert fake_service.request("DELETE", "/_fake/rate_limits/1").status == 204
    assert fake_service.request("DELETE", "/_fake/rate_limits/1").status == 404
    for body, message in [
        ({}, "limit is missing"),
        ({"limit": -1}, "limit must be an integer of 0 or more"),
        ({"limit": 1, "period": 0}, "period must be a whole number of seconds, 1 or more"),
        ({"limit": 1, "applies_to": "robots"}, "applies_to does not have a valid value"),
        ({"limit": 1, "path": "x"}, "path pattern 'x' must start with '/'"),
    ]:
        response = fake_service.request("POST", "/_fake/rate_limits", json_body=body)
        assert (response.status, response.json()) == (400, {"error": message})
    fake_service.rate_limits.add(limit=0)
    assert fake_service.request("DELETE", "/_fake/rate_limits").status == 204
    assert version(fake_service).status == 200


def test_reset_restarts_counters() -> None:
    service = FakeService({"extends": "default", "rate_limits": [{"limit": 1}]})
    assert version(service).status == 200
    assert version(service).status == 429
    service.reset()
    assert version(service).status == 200


@pytest.mark.parametrize("period", [1, 7, 3600])
def test_retry_after_points_at_the_window_end(period: int) -> None:
    service = FakeService()
    service.rate_limits.add(limit=0, period=period)
    response = service.request("GET", "/version", token="root-token")
    reset = int(response.header("RateLimit-Reset") or 0)
    now = int(service.clock.timestamp())
    assert reset % period == 0
    assert int(response.header("Retry-After") or 0) == max(1, reset - now)
