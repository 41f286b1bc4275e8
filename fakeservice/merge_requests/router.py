"""The merge requests area's router: its routes modules (``routes``, ``actions``) declare
their endpoints on ``api``."""

from __future__ import annotations

from fakeservice.web.routing import AreaRouter

api = AreaRouter("merge_requests")
