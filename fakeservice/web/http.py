"""Plain request and response values, and decoding of query strings and bodies.

Query strings and form bodies are decoded the way the real service's framework does:
``name[]=v`` (repeated) makes an array, ``name[key]=v`` a hash, ``a[][k]=v`` an array
of hashes. JSON bodies are taken as they are; multipart bodies keep uploaded files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode

import attrs

from fakeservice.core.errors import MalformedString

MAX_BODY_BYTES = 64 * 1024 * 1024


class BodyError(ValueError):
    """A body that cannot be decoded (malformed JSON, multipart...)."""


@attrs.frozen(slots=True)
class UploadedFile:
    """A file part of a multipart body."""

    filename: str
    content_type: str
    data: bytes


@attrs.define(slots=True)
class Request:
    method: str
    raw_path: str
    query_string: str = ""
    headers: dict[str, str] = attrs.field(factory=dict)  # lower-cased names
    body: bytes = b""
    scheme: str = "http"
    host: str = "localhost"
    client: str = "127.0.0.1"
    root_path: str = ""  # where the app is mounted inside another one (raw, no trailing /)

    @property
    def path(self) -> str:
        return unquote(self.raw_path)

    @classmethod
    def build(
        cls,
        method: str,
        raw_path: str,
        *,
        query_string: str = "",
        headers: Mapping[str, str] | None = None,
        json_body: Any = None,
        form: Mapping[str, Any] | None = None,
        body: bytes = b"",
        scheme: str = "http",
        host: str = "localhost",
    ) -> Request:
        """A request as a client sends it: header names lower-cased; a JSON body or a form
        (each with its ``Content-Type`` unless one is given), else ``body`` as it is."""
        hdrs = {k.lower(): v for k, v in (headers or {}).items()}
        if json_body is not None:
            body = json.dumps(json_body).encode()
            hdrs.setdefault("content-type", "application/json")
        elif form is not None:
            body = urlencode(form, doseq=True).encode()
            hdrs.setdefault("content-type", "application/x-www-form-urlencoded")
        return cls(
            method=method.upper(),
            raw_path=raw_path,
            query_string=query_string,
            headers=hdrs,
            body=body,
            scheme=scheme,
            host=host,
        )

    def header(self, name: str, default: str | None = None) -> str | None:
        return self.headers.get(name.lower(), default)

    @property
    def base_url(self) -> str:
        return f"{self.scheme}://{self.host}{self.root_path}"

    def cookies(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for part in (self.header("cookie") or "").split(";"):
            name, sep, value = part.strip().partition("=")
            if sep:
                out[name.strip()] = value.strip()
        return out


@attrs.define(slots=True)
class Response:
    status: int = 200
    headers: list[tuple[str, str]] = attrs.field(factory=list)
    body: bytes = b""
    # Set by fault injection: the transport drops the connection instead of answering,
    # or waits ``delay`` seconds before answering.
    drop: bool = False
    delay: float = 0.0
    # For HEAD: the length the GET body would have had (sent as Content-Length).
    head_length: int | None = None
    # The request journal's entry for this answer (set by the control plane).
    recorded: Any = attrs.field(default=None, eq=False, repr=False)

    def header(self, name: str) -> str | None:
        lname = name.lower()
        for key, value in self.headers:
            if key.lower() == lname:
                return value
        return None

    def set_header(self, name: str, value: str) -> None:
        lname = name.lower()
        self.headers = [(k, v) for k, v in self.headers if k.lower() != lname]
        self.headers.append((name, value))

    def json(self) -> Any:
        return json.loads(self.body)


# One encoder for every answer (``json.dumps`` with options builds a new one per call).
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def dumps(data: Any) -> bytes:
    """Compact, deterministic JSON as the service writes it."""
    return _encode(data).encode()


def json_response(
    data: Any, status: int = 200, headers: Iterable[tuple[str, str]] = ()
) -> Response:
    return Response(
        status=status,
        headers=[("Content-Type", "application/json"), *headers],
        body=dumps(data),
    )


def _split_key(key: str) -> tuple[str, list[str]]:
    """``a[b][]`` -> ("a", ["b", ""])."""
    if "[" not in key or not key.endswith("]") or key.startswith("["):
        return key, []
    head, _, rest = key.partition("[")
    parts = rest[:-1].split("][")
    return head, parts


def _assign(target: dict[str, Any], name: str, parts: list[str], value: Any) -> None:
    if not parts:
        target[name] = value
        return
    first, rest = parts[0], parts[1:]
    if first == "":
        items = target.get(name)
        if not isinstance(items, list):
            items = target[name] = []
        if not rest:
            items.append(value)
            return
        # array of hashes: start a new hash when the key is already set in the last one
        sub_name, sub_parts = rest[0], rest[1:]
        last = items[-1] if items and isinstance(items[-1], dict) else None
        if last is None or (sub_name in last and not sub_parts):
            last = {}
            items.append(last)
        _assign(last, sub_name, sub_parts, value)
        return
    child = target.get(name)
    if not isinstance(child, dict):
        child = target[name] = {}
    _assign(child, first, rest, value)


def nest_pairs(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """Turn flat ``(key, value)`` pairs into nested params (arrays and hashes)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        name, parts = _split_key(key)
        if not name:
            continue
        _assign(out, name, parts, value)
    return out


def _pairs(text: str, strict: bool = True) -> list[tuple[str, str]]:
    """``key=value`` pairs; a percent-escape that is not UTF-8 is refused (``strict``) or
    replaced (for records of what was sent, such as the journal)."""
    try:
        return parse_qsl(text, keep_blank_values=True, errors="strict" if strict else "replace")
    except UnicodeDecodeError as error:
        raise MalformedString() from error


def parse_query(query_string: str, *, strict: bool = True) -> dict[str, Any]:
    if not query_string:
        return {}
    return nest_pairs(_pairs(query_string, strict))


def parse_body(request: Request) -> dict[str, Any]:
    """Decode a JSON, urlencoded or multipart body into params. Empty bodies give {}."""
    body = request.body
    if not body or not body.strip():
        return {}
    ctype = (request.header("content-type") or "").lower()
    if "application/json" in ctype or (not ctype and body.lstrip()[:1] in (b"{", b"[")):
        try:
            data = json.loads(body)
            # a lone surrogate ("\ud800") parses but can never be written back as UTF-8
            json.dumps(data, ensure_ascii=False).encode()
        except (ValueError, UnicodeError, RecursionError) as exc:
            raise BodyError("The request body is not valid JSON") from exc
        if isinstance(data, dict):
            return data
        raise BodyError("The request body must be a JSON object")
    if "multipart/form-data" in ctype:
        return _parse_multipart(request, ctype)
    if "application/x-www-form-urlencoded" in ctype or not ctype:
        try:
            text = body.decode()
        except UnicodeDecodeError as exc:
            raise BodyError("The request body is not valid UTF-8") from exc
        return nest_pairs(_pairs(text))
    return {}


def _parse_multipart(request: Request, ctype: str) -> dict[str, Any]:
    from python_multipart import MultipartParser
    from python_multipart.multipart import parse_options_header

    _, options = parse_options_header(request.header("content-type") or "")
    boundary = options.get(b"boundary")
    if not boundary:
        raise BodyError("The multipart body has no boundary")
    pairs: list[tuple[str, Any]] = []
    current: dict[str, Any] = {}

    def on_part_begin() -> None:
        current.clear()
        current["headers"] = {}
        current["data"] = bytearray()
        current["hname"] = b""

    def on_header_field(data: bytes, start: int, end: int) -> None:
        current["hname"] += data[start:end]

    def on_header_value(data: bytes, start: int, end: int) -> None:
        name = current["hname"].decode("latin-1").lower()
        current["headers"][name] = current["headers"].get(name, b"") + data[start:end]

    def on_header_end() -> None:
        current["hname"] = b""

    def on_part_data(data: bytes, start: int, end: int) -> None:
        current["data"] += data[start:end]

    def on_part_end() -> None:
        disposition = current["headers"].get("content-disposition", b"")
        _, opts = parse_options_header(disposition)
        name = opts.get(b"name", b"").decode()
        if not name:
            return
        data = bytes(current["data"])
        if b"filename" in opts:
            ptype = current["headers"].get("content-type", b"application/octet-stream")
            value: Any = UploadedFile(opts[b"filename"].decode(), ptype.decode(), data)
        else:
            try:
                value = data.decode()
            except UnicodeDecodeError as exc:
                raise BodyError(f"The multipart field {name} is not valid UTF-8") from exc
        pairs.append((name, value))

    callbacks = {
        "on_part_begin": on_part_begin,
        "on_header_field": on_header_field,
        "on_header_value": on_header_value,
        "on_header_end": on_header_end,
        "on_part_data": on_part_data,
        "on_part_end": on_part_end,
    }
    parser = MultipartParser(boundary, callbacks)  # type: ignore[arg-type]
    try:
        parser.write(request.body)
        parser.finalize()
    except BodyError:
        raise
    except Exception as exc:
        raise BodyError("The multipart body is malformed") from exc
    return nest_pairs(pairs)
