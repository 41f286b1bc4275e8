"""The CI area's service extension (registered by ``fakeservice/ci/area.py``).

``extend(service)`` attaches the simulated runner as ``service.runner``, makes it listen
to the service clock (timed mode), and catches it up before every request (so timed
jobs also move under a real clock).
"""

from __future__ import annotations

from typing import Any

from fakeservice.ci.runner.runner import Runner


def extend(service: Any) -> None:
    """Attach ``service.runner`` and its clock listener and request hook."""
    runner = Runner(service)
    service.runner = runner
    runner.attach_clock()

    service.add_hooks(catch_up=runner.catch_up)
