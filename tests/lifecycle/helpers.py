"""Lookups the life cycle tests share."""

from __future__ import annotations

from support.calls import call_as

from fakeservice import FakeService


def user_id(svc: FakeService, username: str) -> int:
    return call_as(svc, "GET", "/users", "root", username=username).json()[0]["id"]


def group_id(svc: FakeService, path: str) -> int:
    return call_as(svc, "GET", f"/groups/{path.replace('/', '%2F')}", "root").json()["id"]
