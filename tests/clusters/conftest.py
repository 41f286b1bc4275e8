"""Fixtures and helpers of the instance clusters tests.

Services hold the built-in default scenario (root-token administrator with ``sudo``,
alice-token owner of ``acme``, bob-read-token ``read_api``); they are stamped from one
template per process, and after every test none of them may have answered 500.
"""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import ROOT, call
from support.services import (
    no_server_errors,  # noqa: F401  (autouse: no 500s)
    stamp,
)

from fakeservice import FakeService
from fakeservice.web.http import Response

ALICE = "alice-token"
BOB = "bob-read-token"
ADD = "/admin/clusters/add"
# A real self-signed certificate (a P-256 key, CN=kubernetes), generated for these tests.
CA_CERT = (
    "-----BEGIN CERTIFICATE-----\n"
    "MIIBgDCCASWgAwIBAgIUJ87S0t38W2tHmDHfzxl67rhcx/8wCgYIKoZIzj0EAwIw\n"
    "FTETMBEGA1UEAwwKa3ViZXJuZXRlczAeFw0yNjExMjIwMDQ5MjdaFw0zNjExMTkw\n"
    "MDQ5MjdaMBUxEzARBgNVBAMMCmt1YmVybmV0ZXMwWTATBgcqhkjOPQIBBggqhkjO\n"
    "PQMBBwNCAARSxwI7eRJSOzdnJjueyli40yAG1++0oVgs/inHZwmK6ufiETDP2ewc\n"
    "XfJQ4KXAN9YnYhqPHhbHBa32nGAfvCOOo1MwUTAdBgNVHQ4EFgQUHc+35pPoTVfX\n"
    "MrA6fYW8DhSHx48wHwYDVR0jBBgwFoAUHc+35pPoTVfXMrA6fYW8DhSHx48wDwYD\n"
    "VR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNJADBGAiEAz7XngUcI0VWzpg1dP0Jr\n"
    "FfrBtLPLhZ2FBAjIquYj6UoCIQC04s0Q15f62+VfrgqKFIiEpTbvWvDW69NfyBkK\n"
    "2JUl+g==\n"
    "-----END CERTIFICATE-----"
)


def new_service() -> FakeService:
    """A fresh, checked service holding the built-in default scenario."""
    return stamp("default", "default")


@pytest.fixture
def svc() -> FakeService:
    return new_service()


def kube(**extra: Any) -> dict[str, Any]:
    return {"api_url": "https://k8s.example.com:6443", "token": "secret-token", **extra}


def add(svc: FakeService, token: str = ROOT, **fields: Any) -> Response:
    payload: dict[str, Any] = {"name": "production", "platform_kubernetes_attributes": kube()}
    payload.update(fields)
    return call(svc, "POST", ADD, token, json_body=payload)
