"""Helpers of the repository API tests: requests in-process, and the state a failed write
must leave untouched."""

from __future__ import annotations

import pickle
from typing import Any

from fakeservice import FakeService
from fakeservice.web.http import Response


def call(svc: FakeService, method: str, path: str, token: str | None = None, **kw: Any) -> Response:
    return svc.request(method, path, token=token, **kw)


def repository_state(svc: FakeService) -> bytes:
    """What a failed write must not change: repositories, protected branches, projects."""
    store = svc.store
    tables = (store.tables["protected_branches"].rows, store.tables["projects"].rows)
    return pickle.dumps((store.extras.get("repositories"), tables))
