"""Fixtures for the end-to-end workflows: a fresh default-scenario service served on a
loopback port, driven by python-gitlab, requests and the git CLI like a real server."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import gitlab
import pytest
import requests

from fakeservice import FakeService


@dataclass
class Live:
    """A served service: its URL, the service object, and the /_fake/ control plane."""

    service: FakeService
    url: str
    http: requests.Session

    def control(self, method: str, path: str, **body: Any) -> Any:
        """Call the control plane over HTTP, as a test of a standalone server would."""
        response = self.http.request(method, f"{self.url}/_fake/{path}", json=body or None)
        assert response.status_code == 200, (path, response.status_code, response.text)
        return response.json()

    def advance(self, seconds: float) -> str:
        """Move the service clock; answers the new time."""
        return self.control("POST", "clock", seconds=seconds)["now"]

    def gitlab(self, token: str | None = None, **kwargs: Any) -> gitlab.Gitlab:
        return gitlab.Gitlab(self.url, private_token=token, retry_transient_errors=False, **kwargs)


@pytest.fixture
def live() -> Iterator[Live]:
    service = FakeService()
    with service.serve() as url, requests.Session() as http:
        yield Live(service=service, url=url, http=http)
