"""Benchmarks of the testing ergonomics: what a test pays for the fake.

* the ``fake_service`` fixture on the default scenario, set-up plus tear-down: measured
  directly (stamping a service from the cached scenario) and as pytest sees it (a
  session of tests using the fixture against the same tests without it);
* ``reset``, ``snapshot`` and ``restore`` on the default scenario;
* one python-gitlab call (``projects.get``) in-process against the same call answered
  by a static ``responses`` mock, in the same run; and over a live loopback server.

Run: ``python bench/bench_testing.py`` (prints a table; no pytest-benchmark needed).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import gitlab
import pytest
import requests
import responses

from fakeservice import FakeService
from fakeservice.testing.server import LiveServer
from fakeservice.testing.templates import service_for

Row = tuple[str, float, str]


def per_call(action: Callable[[], object], repeat: int, rounds: int = 5) -> float:
    """Median seconds per call over ``rounds`` rounds of ``repeat`` calls."""
    action()
    timings = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeat):
            action()
        timings.append((time.perf_counter() - start) / repeat)
    return statistics.median(timings)


def fixture_direct() -> float:
    service_for("default")

    def setup_and_teardown() -> None:
        service = service_for("default")
        assert not service.server_errors  # what the fixture checks at tear-down

    return per_call(setup_and_teardown, 100)


def fixture_in_pytest(tests: int = 300) -> tuple[float, float]:
    """Per-test seconds of a pytest session with and without the fixture."""
    body = textwrap.dedent(
        f"""
        import pytest

        @pytest.mark.parametrize("n", range({tests}))
        def test_with(fake_service, n):
            pass

        @pytest.mark.parametrize("n", range({tests}))
        def test_without(n):
            pass
        """
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "test_bench_fixture.py"
        path.write_text(body)
        timings = {"with": 0.0, "without": 0.0}
        started: dict[str, float] = {}

        class Timer:
            def pytest_runtest_logstart(self, nodeid: str) -> None:
                started[nodeid] = time.perf_counter()

            def pytest_runtest_logfinish(self, nodeid: str) -> None:
                kind = "without" if "::test_without" in nodeid else "with"
                timings[kind] += time.perf_counter() - started[nodeid]

        pytest.main([str(path), "-qq", "-p", "no:cacheprovider"], plugins=[Timer()])
    return timings["with"] / tests, timings["without"] / tests


def state_operations() -> list[Row]:
    service = FakeService()
    snap = service.snapshot()
    return [
        ("reset (default scenario)", per_call(service.reset, 200), "restore + empty journal"),
        (
            "snapshot (default scenario)",
            per_call(service.snapshot, 200),
            f"{len(snap) / 1024:.0f} KiB",
        ),
        ("restore (default scenario)", per_call(lambda: service.restore(snap), 200), ""),
        ("load default scenario from YAML", per_call(FakeService, 20), "what the cache saves"),
    ]


def gitlab_calls() -> list[Row]:
    service = FakeService()
    in_process = gitlab.Gitlab(
        service.url, private_token="root-token", session=service.requests_session()
    )
    fake_time = per_call(lambda: in_process.projects.get("acme/website"), 300)
    detail = service.request("GET", "/projects/acme%2Fwebsite", token="root-token").json()

    with responses.RequestsMock() as mock:
        mock.get("http://mocked.test/api/v4/projects/acme%2Fwebsite", json=detail)
        mocked = gitlab.Gitlab(
            "http://mocked.test", private_token="root-token", session=requests.Session()
        )
        mock_time = per_call(lambda: mocked.projects.get("acme/website"), 300)

    with LiveServer(service) as server:
        session = requests.Session()
        live = gitlab.Gitlab(server.url, private_token="root-token", session=session)
        live_time = per_call(lambda: live.projects.get("acme/website"), 100)
        session.close()
    return [
        (
            "python-gitlab projects.get, in-process fake",
            fake_time,
            f"{fake_time / mock_time:.1f}x the mock",
        ),
        ("python-gitlab projects.get, static responses mock", mock_time, "no state, no auth"),
        (
            "python-gitlab projects.get, live server (loopback)",
            live_time,
            f"{live_time / mock_time:.1f}x the mock",
        ),
    ]


def main() -> int:
    rows: list[Row] = [
        (
            "fake_service fixture, set-up + tear-down",
            fixture_direct(),
            "stamp from the cached scenario",
        )
    ]
    with_fixture, without = fixture_in_pytest()
    rows.append(
        (
            "pytest test using fake_service",
            with_fixture,
            f"{(with_fixture - without) * 1000:.2f} ms over an empty test",
        )
    )
    rows.append(("pytest empty test (baseline)", without, ""))
    rows += state_operations()
    rows += gitlab_calls()
    width = max(len(name) for name, _, _ in rows)
    print(f"{'measure'.ljust(width)}  {'time':>10}  note")
    print(f"{'-' * width}  {'-' * 10}  {'-' * 30}")
    for name, seconds, note in rows:
        print(f"{name.ljust(width)}  {seconds * 1000:>7.3f} ms  {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
