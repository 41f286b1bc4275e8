"""Request helpers shared by the groups tests."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlsplit

from support.calls import call_as as call

from fakeservice import FakeService
from fakeservice.web.http import Response

BASE = "http://fakeservice.test"


def get(svc: FakeService, path: str, who: str | None = None, **query: Any) -> Response:
    return call(svc, "GET", path, who, **query)


def full_paths(response: Response) -> list[str]:
    assert response.status == 200, response.body
    return [
        item["full_path"] if "full_path" in item else item["path_with_namespace"]
        for item in response.json()
    ]


def links(response: Response) -> dict[str, str]:
    """``rel -> url`` of the ``Link`` header."""
    out: dict[str, str] = {}
    for part in (response.header("Link") or "").split(", "):
        if part:
            url, rel = part.split("; ")
            out[rel.removeprefix('rel="').removesuffix('"')] = url.strip("<>")
    return out


def query_of(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


def group_id(svc: FakeService, full_path: str) -> int:
    from fakeservice.groups.models import find_group

    found = find_group(svc.store, full_path)
    assert found is not None
    return found.id


def project_id(svc: FakeService, full_path: str) -> int:
    from fakeservice.projects.models import find_project

    found = find_project(svc.store, full_path)
    assert found is not None
    return found.id


def user_id(svc: FakeService, username: str) -> int:
    from fakeservice.users.models import find_by_username

    found = find_by_username(svc.store, username)
    assert found is not None
    return found.id
