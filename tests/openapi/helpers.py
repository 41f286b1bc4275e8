"""Shared pieces of the OpenAPI tests: the document, its operations, a service with some
CI history, and checking a response against what the document says of it."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import attrs
import jsonschema

from fakeservice import FakeService
from fakeservice.areas import compose
from fakeservice.service import ServiceTemplate
from fakeservice.web.http import Response
from fakeservice.web.openapi import openapi_document
from fakeservice.web.routing import Endpoint
from fakeservice.web.schemas import observed

METHODS = ("get", "head", "post", "put", "patch", "delete")


@attrs.frozen
class Operation:
    method: str
    path: str  # the document's path, with {names}
    spec: dict[str, Any]
    endpoint: Endpoint

    @property
    def id(self) -> str:
        return f"{self.method.upper()} {self.path}"

    @property
    def recorded(self) -> bool:
        """Whether ``observed.json`` knows this operation (an operation added since the
        last recording has only the statuses its declaration gives)."""
        endpoint = self.endpoint
        return bool(observed(endpoint.method, endpoint.prefix + endpoint.pattern))


@cache
def document() -> dict[str, Any]:
    return openapi_document(compose().router.endpoints)


@cache
def _endpoints() -> dict[tuple[str, str], Endpoint]:
    from fakeservice.web.openapi import openapi_path

    compose()
    return {(e.method, openapi_path(e)): e for e in compose().router.endpoints}


def operations() -> list[Operation]:
    found = []
    for path, item in document()["paths"].items():
        for method in METHODS:
            if method in item:
                endpoint = _endpoints()[(method.upper(), path)]
                found.append(Operation(method, path, item[method], endpoint))
    return found


@cache
def template() -> ServiceTemplate:
    """The default scenario plus a finished pipeline of ``acme/website`` (jobs, traces)."""
    service = FakeService()
    service.runner.set_mode("instant")
    created = service.request(
        "POST", "/projects/acme%2Fwebsite/pipeline", json_body={"ref": "main"}, token="root-token"
    )
    assert created.status == 201, created.body
    service.mark_initial()
    return service.template()


@cache
def _validator(schema_text: str) -> jsonschema.Draft202012Validator:
    root = {**json.loads(schema_text), "components": document()["components"]}
    return jsonschema.Draft202012Validator(root)


def problems(operation: Operation, response: Response) -> list[str]:
    """What the response does that the document does not say (empty: it conforms).
    Of an operation not recorded yet, only a 5xx is a problem."""
    if response.status >= 500:
        return [f"answered {response.status}: {response.body[:300]!r}"]
    if not operation.recorded:
        return []
    documented = operation.spec["responses"].get(str(response.status))
    if documented is None:
        return [f"status {response.status} is not documented: {response.body[:300]!r}"]
    if "$ref" in documented:
        name = documented["$ref"].rsplit("/", 1)[1]
        documented = document()["components"]["responses"][name]
    content_type = (response.header("content-type") or "").split(";")[0]
    if content_type != "application/json" or not response.body:
        return []
    schema = documented.get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        return [f"{response.status} answered JSON, which is not documented"]
    errors = sorted(
        _validator(json.dumps(schema, sort_keys=True)).iter_errors(json.loads(response.body)),
        key=lambda e: list(e.path),
    )
    return [f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors[:5]]
