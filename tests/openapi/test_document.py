"""The OpenAPI document: valid for a made-for-the-job validator, served at
``GET /api/v4/openapi.json`` (raw HTTP and python-gitlab) and by ``fakeservice openapi``,
with statuses, success schemas and parameter constraints derived from the declarations."""

from __future__ import annotations

import json
from typing import Any

import gitlab
import pytest
from openapi_spec_validator import validate

from fakeservice import FakeService
from fakeservice.areas import compose
from fakeservice.cli import main
from fakeservice.web.openapi import openapi_document
from fakeservice.web.schemas import observed

from .helpers import Operation, document, operations


def _op(path: str, method: str) -> dict[str, Any]:
    return document()["paths"][path][method]


def _param(op: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in op["parameters"] if p["name"] == name)


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    name = schema["$ref"].rsplit("/", 1)[1]
    found: dict[str, Any] = document()["components"]["schemas"][name]
    return found


def test_the_document_is_valid_openapi_3_1() -> None:
    assert document()["openapi"] == "3.1.0"
    validate(document())


def test_served_publicly_with_the_request_base_url() -> None:
    service = FakeService()
    response = service.request("GET", "/openapi.json")
    assert response.status == 200
    assert response.header("content-type") == "application/json"
    served = response.json()
    assert served == openapi_document(
        compose().router.endpoints, server_url="http://fakeservice.test"
    )
    assert served["servers"] == [{"url": "http://fakeservice.test"}]
    assert service.request("GET", "/openapi.json", token="no-such-token").status == 401
    assert "/api/v4/openapi.json" in served["paths"]


def test_served_to_python_gitlab() -> None:
    service = FakeService()
    gl = gitlab.Gitlab(service.base_url, session=service.requests_session())
    served = gl.http_get("/openapi.json")
    assert served["info"]["title"] == "fakeservice REST API v4"
    assert "/api/v4/projects/{id}" in served["paths"]


def test_the_command_prints_the_same_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["openapi", "--server-url", "http://h:1"]) == 0
    assert json.loads(capsys.readouterr().out) == openapi_document(
        compose().router.endpoints, server_url="http://h:1"
    )


def test_statuses_follow_the_declaration() -> None:
    create = _op("/api/v4/projects", "post")["responses"]
    assert {"201", "400", "401", "403", "413", "429"} <= set(create)
    assert "200" not in create
    control = _op("/_fake/clock", "get")["responses"]
    assert "401" not in control and "403" not in control and "429" not in control
    delete = _op("/api/v4/admin/clusters/{cluster_id}", "delete")["responses"]
    assert {"204", "401", "403", "404", "412"} <= set(delete)
    assert "content" not in delete["204"]
    star = _op("/api/v4/projects/{id}/star", "post")["responses"]
    assert "304" in star and "content" not in star["304"]
    assert _op("/api/v4/projects/{id}", "delete")["responses"]["202"]["content"]
    assert "429" not in _op("/_fake/reset", "post")["responses"]


def test_success_answers_carry_their_schema_and_headers() -> None:
    listing = _op("/api/v4/projects", "get")["responses"]["200"]
    assert set(listing["headers"]) >= {"X-Total", "X-Next-Page", "Link"}
    schema = listing["content"]["application/json"]["schema"]
    assert schema["type"] == "array"
    project = _resolve(schema["items"])
    assert project["properties"]["id"] == {"type": "integer"}
    assert "path_with_namespace" in project["required"]
    trace = _op("/api/v4/projects/{id}/jobs/{job_id}/trace", "get")["responses"]["200"]
    assert trace["content"] == {"text/plain": {"schema": {"type": "string"}}}


def _undescribed(operation: Operation) -> str | None:
    """What the operation's success answers leave unsaid (None: nothing)."""
    if not operation.recorded:
        return "not in observed.json"
    successes = {s: a for s, a in operation.spec["responses"].items() if s < "400"}
    if not successes:
        return "no success answer"
    for status, answer in successes.items():
        content = answer.get("content")
        if content is None:
            if status not in ("204", "304") and operation.method != "head":
                return f"{status} without content"
        elif not operation.endpoint.produces and content["application/json"]["schema"] == {}:
            return f"{status}: JSON without a schema"
    return None


def test_every_operation_describes_its_success() -> None:
    """A JSON success has the schema recorded from the views, a raw one the media types
    its declaration ``produces``, a 204 or a HEAD no content; an operation the test suite
    never drove (a new endpoint) fails here until recorded: ``make openapi-record``."""
    missing = {o.id: _undescribed(o) for o in operations()}
    assert {key: why for key, why in missing.items() if why} == {}


def test_raw_answers_are_declared() -> None:
    """The media types each operation was seen to answer are the ones it declares: JSON
    for an endpoint without ``produces``, one of its ``produces`` otherwise."""
    wrong = {}
    for operation in operations():
        endpoint = operation.endpoint
        seen = observed(endpoint.method, endpoint.prefix + endpoint.pattern)
        kinds = set(seen.get("content_types", []))
        allowed = set(endpoint.produces) or {"application/json"}
        if endpoint.produces:
            allowed.add("text/plain")  # git's own refusals, told as text
        if not kinds <= allowed:
            wrong[operation.id] = sorted(kinds - allowed)
    assert wrong == {}


def test_parameter_constraints() -> None:
    projects = _op("/api/v4/projects", "get")
    assert _param(projects, "per_page")["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 100,
        "default": 20,
    }
    assert "private" in _param(projects, "visibility")["schema"]["enum"]
    users = _op("/api/v4/users", "post")["requestBody"]["content"]["application/json"]
    assert users["schema"]["properties"]["username"]["maxLength"] == 255
    status = _op("/api/v4/user/status", "put")["requestBody"]["content"]["application/json"]
    assert status["schema"]["properties"]["message"]["maxLength"] == 100
    jobs = _op("/api/v4/projects/{id}/jobs", "get")
    scope = _param(jobs, "scope[]")["schema"]
    assert scope["type"] == "array" and "failed" in scope["items"]["enum"]
