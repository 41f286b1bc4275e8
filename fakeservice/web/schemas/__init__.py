"""Response shapes and answered statuses of the endpoints, for the OpenAPI document.

The shapes are JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of what the views
render, kept per operation (``"METHOD /prefix/pattern"``) in ``observed.json``: each
was inferred from the responses the views really gave (:mod:`.infer`), merged over the
whole test suite's requests (:mod:`.record`), together with the statuses each
operation answered there. The OpenAPI builder (:mod:`fakeservice.web.openapi`) reads
them through :func:`observed`. An answer that is not JSON (raw files, archives, git's
protocol, text) is described by its endpoint's declaration (``produces``), not
recorded; an operation missing from the file still gets the statuses derived from its
declaration, and the OpenAPI tests fail until it is recorded (``make openapi-record``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

OBSERVED_FILE = Path(__file__).with_name("observed.json")


def operation_key(method: str, path: str) -> str:
    """The key of one operation: ``"GET /api/v4/projects/:id"``."""
    return f"{method} {path}"


@cache
def _load() -> dict[str, dict[str, Any]]:
    if not OBSERVED_FILE.exists():
        return {}
    data: dict[str, dict[str, Any]] = json.loads(OBSERVED_FILE.read_text())
    return data


def observed(method: str, path: str) -> dict[str, Any]:
    """What is known of one operation: ``statuses`` (list of int), ``content_type`` of
    its success answer and ``schema`` of its JSON success body (either may be absent).
    A schema declared by hand (:mod:`.declared`) replaces the recorded one."""
    from fakeservice.web.schemas.declared import DECLARED

    key = operation_key(method, path)
    found = _load().get(key, {})
    if key in DECLARED:
        return {**found, "schema": DECLARED[key], "content_types": ["application/json"]}
    return found
