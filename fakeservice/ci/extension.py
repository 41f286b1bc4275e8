"""The CI area's service extension (listed in ``SERVICE_EXTENSIONS``).

``extend(service)`` attaches the simulated runner as ``service.runner``, makes it listen
to the service clock (timed mode), and catches it up before every request (so timed
jobs also move under a real clock). Importing this module registers the job-token lookup
with the authentication layer and the CI scenario sections with the loader.
"""

from __future__ import annotations

from typing import Any

from fakeservice.ci import scenario as _scenario  # noqa: F401  (registers its sections)
from fakeservice.ci.jobs import token_lookup
from fakeservice.ci.runner import Runner
from fakeservice.web.auth import register_job_token_lookup
from fakeservice.web.http import Request, Response

register_job_token_lookup(token_lookup)


def extend(service: Any) -> None:
    """Attach ``service.runner`` and its clock listener and request hook."""
    runner = Runner(service)
    service.runner = runner
    runner.attach_clock()

    def before(_request: Request) -> Response | None:
        runner.catch_up()
        return None

    service.add_hooks(before=before)
