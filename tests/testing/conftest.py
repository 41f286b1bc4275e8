"""Fixtures of the plugin tests: pytester runs pytest inside pytest.

The service's modules are imported here, once, so that pytester's in-process runs (which
forget the modules a run imports) do not import every area again for each run.
"""

from __future__ import annotations

import gitlab  # noqa: F401
import respx  # noqa: F401

from fakeservice import FakeService
from fakeservice.testing import plugin, respx_routes, server, templates  # noqa: F401

pytest_plugins = ["pytester"]

FakeService(None)
