"""The pytest plugin (registered through the ``pytest11`` entry point).

Installing fakeservice is enough to get these fixtures:

* ``fake_service``: a fresh :class:`~fakeservice.FakeService` per test, in-process. The
  scenario comes from ``@pytest.mark.fakeservice_scenario("path-or-name")`` (on the test,
  its class or module) or the ``fakeservice_scenario`` ini option (default: the built-in
  ``default``). A path is tried relative to the test file, the rootdir and
  ``<rootdir>/scenarios``, with or without ``.yaml``. Each scenario is built once per
  process; its service is then put back into the scenario's state before every test by
  undoing what the previous test touched, so the cost follows what a test does, not the
  scenario's size (ini ``fakeservice_isolation = copy`` stamps a new service per test
  from the scenario's snapshot instead).
* ``fake_server``: the same service on ``127.0.0.1`` on a free port (``.url``,
  ``.service``); waits up to ``fakeservice_server_timeout`` seconds for readiness.
* ``fake_requests``: a ``requests.Session`` dispatching in-process (give it to
  python-gitlab as ``session=``).
* ``fake_gitlab``: a python-gitlab ``Gitlab`` with the scenario's administrator token
  over ``fake_requests`` (skipped when python-gitlab is not installed).
* ``fake_httpx``: an ``httpx.Client`` dispatching in-process.
* ``fake_respx``: an active respx router whose requests to the service's base URL are
  answered by the service (add your own routes for other hosts).
* ``fake_service_factory``: ``factory(scenario=None)`` makes more services.

Nothing is shared between processes (no fixed ports, no files), so pytest-xdist is safe.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    import httpx
    import requests

    from fakeservice.service import FakeService
    from fakeservice.testing.server import LiveServer

MARKER = "fakeservice_scenario"
INI_SCENARIO = "fakeservice_scenario"
INI_TIMEOUT = "fakeservice_server_timeout"
INI_ISOLATION = "fakeservice_isolation"
ISOLATIONS = ("undo", "copy")


class FakeServiceWarning(UserWarning):
    """The fake answered a request with a 500 (a bug in the fake, not in your client)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        INI_SCENARIO,
        "scenario the fake_service fixture loads when a test has no marker",
        default="default",
    )
    parser.addini(INI_TIMEOUT, "seconds fake_server waits for its server to be ready", default="10")
    parser.addini(
        INI_ISOLATION,
        "how fake_service isolates tests: undo (one service per scenario, what a test "
        "touched is undone) or copy (a new service per test from the scenario's snapshot)",
        default="undo",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARKER}(path_or_name): the scenario the fake_service fixture loads "
        "(a YAML path relative to the test file, the rootdir or <rootdir>/scenarios, "
        "or a built-in scenario name)",
    )


def _search_path(request: pytest.FixtureRequest) -> list[Path]:
    rootdir = Path(request.config.rootpath)
    test_dir = Path(request.node.path).parent if getattr(request.node, "path", None) else rootdir
    return [test_dir, rootdir, rootdir / "scenarios"]


def _scenario_ref(request: pytest.FixtureRequest) -> str:
    marker = request.node.get_closest_marker(MARKER)
    if marker is None:
        return str(request.config.getini(INI_SCENARIO) or "default")
    if len(marker.args) != 1:
        raise pytest.UsageError(f"@pytest.mark.{MARKER} takes one scenario path or name")
    return str(marker.args[0])


def _isolation(request: pytest.FixtureRequest) -> str:
    found = str(request.config.getini(INI_ISOLATION) or "undo")
    if found not in ISOLATIONS:
        raise pytest.UsageError(f"{INI_ISOLATION} is one of {', '.join(ISOLATIONS)}, not {found!r}")
    return found


def _make(ref: str, request: pytest.FixtureRequest, *, reuse: bool = False) -> FakeService:
    from fakeservice.scenarios.problems import ScenarioError
    from fakeservice.testing.templates import recycled_service, service_for

    try:
        if reuse:
            return recycled_service(ref, _search_path(request))
        return service_for(ref, _search_path(request))
    except ScenarioError as exc:
        message = f"fakeservice: scenario {ref!r} does not load:\n{exc}"
    pytest.fail(message, pytrace=False)


def _warn_on_errors(service: FakeService) -> None:
    if service.server_errors:
        first = service.server_errors[0]
        warnings.warn(
            FakeServiceWarning(
                f"fakeservice answered {len(service.server_errors)} request(s) with a 500; "
                f"first error: {type(first).__name__}: {first}"
            ),
            stacklevel=1,
        )


@pytest.fixture
def fake_service(request: pytest.FixtureRequest) -> Iterator[FakeService]:
    """A fresh in-process fake in the state of the test's scenario."""
    service = _make(_scenario_ref(request), request, reuse=_isolation(request) == "undo")
    yield service
    _warn_on_errors(service)


@pytest.fixture
def fake_service_factory(
    request: pytest.FixtureRequest,
) -> Callable[..., FakeService]:
    """``factory(scenario=None)``: more fresh services (default: the test's scenario)."""

    def factory(scenario: str | None = None) -> FakeService:
        return _make(scenario or _scenario_ref(request), request)

    return factory


@pytest.fixture
def fake_server(fake_service: FakeService, request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    """``fake_service`` served on 127.0.0.1 on a free port; ``.url`` and ``.service``."""
    from fakeservice.testing.server import LiveServer

    timeout = float(request.config.getini(INI_TIMEOUT) or 10)
    with LiveServer(fake_service, timeout=timeout) as server:
        yield server


@pytest.fixture
def fake_requests(fake_service: FakeService) -> Iterator[requests.Session]:
    """A ``requests.Session`` whose requests go to ``fake_service`` in-process."""
    session = fake_service.requests_session()
    yield session
    session.close()


@pytest.fixture
def fake_gitlab(fake_service: FakeService, fake_requests: requests.Session) -> Any:
    """A python-gitlab client authenticated with the scenario's administrator token."""
    gitlab = pytest.importorskip("gitlab")
    token = fake_service.admin_token()
    if token is None:
        pytest.fail(
            "fakeservice: the scenario has no active administrator with an api token "
            "for fake_gitlab",
            pytrace=False,
        )
    return gitlab.Gitlab(fake_service.base_url, private_token=token, session=fake_requests)


@pytest.fixture
def fake_httpx(fake_service: FakeService) -> Iterator[httpx.Client]:
    """An ``httpx.Client`` (base URL set) dispatching to ``fake_service`` in-process."""
    client = fake_service.httpx_client()
    yield client
    client.close()


@pytest.fixture
def fake_respx(fake_service: FakeService) -> Iterator[Any]:
    """An active respx router: requests to the service's base URL reach ``fake_service``."""
    respx = pytest.importorskip("respx")
    from fakeservice.testing.respx_routes import route_to_service

    with respx.mock(assert_all_called=False) as router:
        route_to_service(router, fake_service)
        yield router
