"""The OpenAPI 3.1 document, generated from the endpoint declarations (the areas' routers).

Each declared endpoint becomes one operation: path parameters from its pattern, query
parameters (GET, HEAD, DELETE) or a request body (POST, PUT, PATCH) from its declared
parameters with types, defaults, allowed values and bounds (plus the models' length
limits, :mod:`.schemas.params`), pagination parameters and headers for paginated lists,
the authentication rule as ``security``, every status it answers (:mod:`.schemas.statuses`)
and the schema of its success answer, recorded from the views (:mod:`.schemas`) and
published as named components (:mod:`.schemas.book`). Control-plane endpoints
(``/_fake``) are tagged ``control``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from fakeservice.version import __version__
from fakeservice.web.params import FILE, Array, Param
from fakeservice.web.routing import NO_AUTH, PUBLIC, Endpoint
from fakeservice.web.schemas import observed, operation_key
from fakeservice.web.schemas.book import SchemaBook
from fakeservice.web.schemas.params import limits
from fakeservice.web.schemas.statuses import BODY_METHODS, answered

OPENAPI_VERSION = "3.1.0"
HTTP_WORDS = {
    200: "OK",
    201: "Created",
    202: "Accepted",
    204: "No Content",
    304: "Not Modified",
}
# The schema of a raw answer's body by media type (any other: a string of bytes). A raw
# file that happens to be JSON (a job artifact) is any JSON value, not a view's shape.
RAW_SCHEMAS: dict[str, dict[str, Any]] = {"application/json": {}}
# The keyword saying "not blank" for each type (a blank value answers ``is empty``).
NOT_BLANK = {"string": "minLength", "array": "minItems", "object": "minProperties"}
METHOD_ORDER = {m: i for i, m in enumerate(("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"))}
_SEGMENT = re.compile(r"[:*](\w+)")
PAGE_HEADERS = (
    "X-Per-Page",
    "X-Page",
    "X-Next-Page",
    "X-Prev-Page",
    "Link",
    "X-Total",
    "X-Total-Pages",
)
TOKEN_SECURITY = [{"privateToken": []}, {"bearer": []}, {"privateTokenQuery": []}]


def openapi_path(endpoint: Endpoint) -> str:
    return _SEGMENT.sub(r"{\1}", endpoint.prefix + endpoint.pattern)


def _json_value(value: Any) -> bool:
    if isinstance(value, str | int | float | bool) or value is None:
        return True
    if isinstance(value, list | tuple):
        return all(_json_value(v) for v in value)
    return False


def param_schema(param: Param) -> dict[str, Any]:
    schema = dict(param.type.schema())
    if param.items and isinstance(param.type, Array):
        schema["items"] = {
            "type": "object",
            "properties": {sub.name: param_schema(sub) for sub in param.items},
            "required": [sub.name for sub in param.items if sub.required] or None,
        }
        if schema["items"]["required"] is None:
            del schema["items"]["required"]
    if param.values is not None and _json_value(list(param.values)):
        values = sorted(param.values, key=str)
        if schema.get("type") == "array":
            schema["items"] = {**schema.get("items", {}), "enum": values}
        else:
            schema["enum"] = values
    if param.excluded is not None and _json_value(list(param.excluded)):
        schema["not"] = {"enum": sorted(param.excluded, key=str)}
    if param.has_default and param.default is not None and _json_value(param.default):
        default = param.default
        schema["default"] = list(default) if isinstance(default, tuple) else default
    if not param.allow_blank:
        schema[NOT_BLANK.get(schema.get("type"), "x-not-blank")] = 1
    return schema


def _parameter(
    param: Param, where: str, required: bool | None = None, key: str = ""
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": param.name + ("[]" if where == "query" and isinstance(param.type, Array) else ""),
        "in": where,
        "required": param.required if required is None else required,
        "schema": {**param_schema(param), **limits(key, param.name)},
    }
    if param.description:
        out["description"] = param.description
    return out


def _constraints_text(endpoint: Endpoint) -> str:
    texts = []
    for constraint in endpoint.constraints:
        kind = type(constraint).__name__
        words = {
            "MutuallyExclusive": "mutually exclusive",
            "AtLeastOne": "at least one is required",
            "ExactlyOne": "exactly one is required",
            "AllOrNone": "all or none",
        }.get(kind, kind)
        texts.append(f"{', '.join(constraint.names)}: {words}")
    return "; ".join(texts)


def _security(endpoint: Endpoint) -> list[dict[str, list[str]]]:
    if endpoint.auth == NO_AUTH:
        return []
    schemes = list(TOKEN_SECURITY)
    if endpoint.job_token:
        schemes.append({"jobToken": []})
    if endpoint.auth == PUBLIC:
        schemes.insert(0, {})
    return schemes


def _success(endpoint: Endpoint, status: int, book: SchemaBook, name: str) -> dict[str, Any]:
    out: dict[str, Any] = {"description": HTTP_WORDS.get(status, "success")}
    if endpoint.paginated and status == 200:
        out["headers"] = {name: {"schema": {"type": "string"}} for name in PAGE_HEADERS}
    if status in (204, 304) or endpoint.method == "HEAD":
        return out
    if endpoint.produces:  # raw bytes or text, as the declaration says
        out["content"] = {
            kind: {"schema": RAW_SCHEMAS.get(kind, {"type": "string"})}
            for kind in endpoint.produces
        }
        return out
    schema = observed(endpoint.method, endpoint.prefix + endpoint.pattern).get("schema")
    out["content"] = {"application/json": {"schema": book.use(schema, name) if schema else {}}}
    return out


def _responses(endpoint: Endpoint, book: SchemaBook, name: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for status in answered(endpoint):
        if status < 400:
            out[str(status)] = _success(endpoint, status, book, name)
        elif status == 429:
            out["429"] = {"$ref": "#/components/responses/RateLimited"}
        else:
            out[str(status)] = {"$ref": "#/components/responses/Error"}
    return out


def operation(
    endpoint: Endpoint, operation_id: str, book: SchemaBook | None = None
) -> dict[str, Any]:
    area = (
        endpoint.handler.__module__.split(".")[1] if "." in endpoint.handler.__module__ else "api"
    )
    op: dict[str, Any] = {
        "operationId": operation_id,
        "tags": [area],
        "summary": endpoint.summary or f"{endpoint.method} {endpoint.pattern}",
    }
    notes = _constraints_text(endpoint)
    if notes:
        op["description"] = f"Parameter rules: {notes}."
    key = operation_key(endpoint.method, endpoint.prefix + endpoint.pattern)
    declared = {p.name: p for p in endpoint.params}
    parameters = [
        _parameter(declared.get(name) or Param(name), "path", required=True)
        for name in endpoint.path_names
    ]
    others = [p for p in endpoint.params if p.name not in endpoint.path_names]
    if endpoint.method in BODY_METHODS and others:
        op["requestBody"] = _body(others, key)
    else:
        parameters += [_parameter(p, "query", key=key) for p in others]
    if endpoint.paginated:
        names = {p["name"] for p in parameters}
        for name, schema in (
            ("page", {"type": "integer", "minimum": 1, "default": 1}),
            ("per_page", {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}),
        ):
            if name not in names:
                parameters.append(
                    {"name": name, "in": "query", "required": False, "schema": schema}
                )
        if endpoint.keyset:
            parameters.append(
                {
                    "name": "pagination",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string", "enum": ["keyset"]},
                }
            )
    if parameters:
        op["parameters"] = parameters
    op["responses"] = _responses(endpoint, book or SchemaBook(), operation_id)
    op["security"] = _security(endpoint)
    if endpoint.auth != NO_AUTH:
        op["x-auth"] = endpoint.auth
    return op


def _body(params: list[Param], key: str = "") -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {p.name: {**param_schema(p), **limits(key, p.name)} for p in params},
    }
    required = [p.name for p in params if p.required]
    if required:
        schema["required"] = required
    ref = {"schema": schema}
    content: dict[str, Any] = {"application/json": ref, "application/x-www-form-urlencoded": ref}
    if any(p.type is FILE for p in params):
        content = {"multipart/form-data": ref}
    return {"required": bool(required), "content": content}


def _operation_ids(endpoints: list[Endpoint]) -> dict[int, str]:
    ids: dict[int, str] = {}
    used: dict[str, int] = {}
    for endpoint in endpoints:
        module = endpoint.handler.__module__.split(".")
        area = module[1] if len(module) > 1 else "api"
        base = f"{area}_{endpoint.handler.__name__}"
        count = used.get(base, 0)
        used[base] = count + 1
        ids[id(endpoint)] = base if count == 0 else f"{base}_{count + 1}"
    return ids


def openapi_document(
    endpoints: Iterable[Endpoint],
    *,
    title: str = "fakeservice REST API v4",
    version: str | None = None,
    server_url: str = "http://127.0.0.1:8080",
) -> dict[str, Any]:
    """The OpenAPI 3 document of ``endpoints`` (a service's: ``service.router.endpoints``)."""
    if version is None:
        version = __version__
    ordered = sorted(endpoints, key=lambda e: (openapi_path(e), METHOD_ORDER.get(e.method, 9)))
    ids = _operation_ids(ordered)
    book = SchemaBook()
    paths: dict[str, dict[str, Any]] = {}
    for endpoint in ordered:
        item = paths.setdefault(openapi_path(endpoint), {})
        method = endpoint.method.lower()
        if method not in item:
            item[method] = operation(endpoint, ids[id(endpoint)], book)
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": title,
            "version": version,
            "description": "Generated from fakeservice's endpoint declarations.",
        },
        "servers": [{"url": server_url}],
        "paths": paths,
        "components": {
            "securitySchemes": {
                "privateToken": {"type": "apiKey", "in": "header", "name": "PRIVATE-TOKEN"},
                "privateTokenQuery": {"type": "apiKey", "in": "query", "name": "private_token"},
                "bearer": {"type": "http", "scheme": "bearer"},
                "jobToken": {"type": "apiKey", "in": "header", "name": "JOB-TOKEN"},
            },
            "schemas": {
                **book.schemas,
                "Error": {
                    "type": "object",
                    "properties": {
                        "message": {"description": "a string, or field -> messages"},
                        "error": {"type": "string"},
                    },
                },
            },
            "responses": {
                "Error": {
                    "description": "an error, worded as the real service words it",
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                    },
                },
                "RateLimited": {
                    "description": "rate limited: `Retry later` with Retry-After",
                    "headers": {
                        name: {"schema": {"type": "string"}}
                        for name in (
                            "Retry-After",
                            "RateLimit-Name",
                            "RateLimit-Limit",
                            "RateLimit-Observed",
                            "RateLimit-Remaining",
                            "RateLimit-Reset",
                            "RateLimit-ResetTime",
                        )
                    },
                    "content": {"text/plain": {"schema": {"type": "string"}}},
                },
            },
        },
    }
