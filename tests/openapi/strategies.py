"""Hypothesis strategies for requests to one documented operation.

Values come from each parameter's schema in the document (enums, types, arrays,
hashes), mixed with names and ids that exist in the default scenario (so requests reach
real records) and with values of the wrong type (so validation is exercised too).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from hypothesis import strategies as st

from .helpers import Operation

TOKENS = ("root-token", "alice-token", "bob-read-token", "carol-token", None, "no-such-token")
KNOWN_TEXT = (
    "main",
    "feature",
    "v1.0",
    "acme",
    "acme/website",
    "acme/platform/api",
    "alice",
    "root",
    "README.md",
    ".gitlab-ci.yml",
    "build",
    "test",
    "deploy",
    "production",
    "developer",
    "name",
    "2026-01-01T09:00:00Z",
    "",
    " ",
    "../../etc/passwd",
    "a" * 300,
)
KNOWN_INTS = (0, 1, 2, 3, 5, 10, 20, 30, 40, 50, 100, -1, 2**40)
PATH_VALUES = {
    "id": ("1", "2", "3", "acme/website", "acme", "alice", "oss/lib-01", "999"),
    "user_id": ("1", "2", "3", "5", "999", "alice"),
    "id_or_username": ("alice", "1", "dave", "nobody"),
    "job_id": ("1", "2", "3", "4", "999"),
    "pipeline_id": ("1", "2", "999"),
    "branch": ("main", "feature", "nope"),
    "tag_name": ("v1.0", "nope"),
    "name": ("main", "production", "*"),
    "sha": ("main", "HEAD", "0" * 40),
    "file_path": ("README.md", ".gitlab-ci.yml", "index.html", "nope.txt", "dir/x"),
    "ref_name": ("main", "feature"),
    "artifact_path": ("out.txt", "nope"),
    "repo_path": ("acme/website", "alice/dotfiles", "nope/nope"),
}
HEADERS = (
    {},
    {},
    {"Sudo": "alice"},
    {"Sudo": "nobody"},
    {"If-Unmodified-Since": "Thu, 01 Jan 2015 00:00:00 GMT"},
    {"If-Unmodified-Since": "Sat, 01 Jan 2033 00:00:00 GMT"},
)
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([2**63, -(2**63), 1e300, 0.5, "\x00", "%2F", "é/..", {"a": {"b": [1]}}]),
    st.text(max_size=5),
    st.just([]),
    st.just([{}]),
)


def _text() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(KNOWN_TEXT), st.text(max_size=12))


def value(schema: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """A value for ``schema``, mostly fitting, sometimes not."""
    options: list[st.SearchStrategy[Any]] = []
    if "enum" in schema:
        options.append(st.sampled_from(schema["enum"]))
    kind = schema.get("type")
    if kind == "integer":
        options.append(st.one_of(st.sampled_from(KNOWN_INTS), st.integers(-5, 120)))
    elif kind == "number":
        options.append(st.floats(-10, 1000, allow_nan=False))
    elif kind == "boolean":
        options.append(st.one_of(st.booleans(), st.sampled_from(["true", "false", "maybe"])))
    elif kind == "array" and depth < 2:
        options.append(st.lists(value(schema.get("items", {}), depth + 1), max_size=3))
    elif kind == "object" and depth < 2:
        inner = schema.get("properties") or {}
        if inner:
            options.append(
                st.fixed_dictionaries(
                    {}, optional={k: value(v, depth + 1) for k, v in inner.items()}
                )
            )
        options.append(st.dictionaries(st.sampled_from(["a", "key", "name"]), _text(), max_size=2))
    else:
        options.append(_text())
    return (
        st.one_of(*options, JUNK)
        if "enum" not in schema
        else st.one_of(options[0], *options[1:], JUNK)
    )


def _path_value(name: str) -> st.SearchStrategy[str]:
    known = PATH_VALUES.get(name, ("1", "main", "nope"))
    raw = st.one_of(st.sampled_from(known), st.text(min_size=1, max_size=8))
    return raw.map(lambda text: quote(text, safe=""))


def _params(spec: dict[str, Any], where: str) -> list[dict[str, Any]]:
    return [p for p in spec.get("parameters", []) if p["in"] == where]


def _optional(
    params: dict[str, st.SearchStrategy[Any]], required: set[str]
) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {k: v for k, v in params.items() if k in required},
        optional={k: v for k, v in params.items() if k not in required},
    )


@st.composite
def requests(draw: st.DrawFn, operation: Operation) -> dict[str, Any]:
    """Keyword arguments of :meth:`FakeService.request` for one call of ``operation``."""
    spec = operation.spec
    path = operation.path
    for param in _params(spec, "path"):
        path = path.replace("{" + param["name"] + "}", draw(_path_value(param["name"])))
    query_params = _params(spec, "query")
    query = draw(
        _optional(
            {p["name"]: value(p["schema"]) for p in query_params},
            {p["name"] for p in query_params if p.get("required")},
        )
    )
    out: dict[str, Any] = {
        "path": path,
        "query": _flatten(query),
        "token": draw(st.sampled_from(TOKENS)),
        "headers": draw(st.sampled_from(HEADERS)),
    }
    body = spec.get("requestBody")
    if body is not None:
        schema = next(iter(body["content"].values()))["schema"]
        out["json_body"] = draw(
            _optional(
                {k: value(v) for k, v in schema.get("properties", {}).items()},
                set(schema.get("required", [])),
            )
        )
    return out


def _flatten(query: dict[str, Any]) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for name, item in query.items():
        if isinstance(item, list):
            pairs.extend((name, _text_of(v)) for v in item)
        elif isinstance(item, dict):
            base = name.removesuffix("[]")
            pairs.extend((f"{base}[{k}]", _text_of(v)) for k, v in item.items())
        elif item is not None:
            pairs.append((name, _text_of(item)))
    return pairs


def _text_of(item: Any) -> str:
    if isinstance(item, bool):
        return "true" if item else "false"
    return str(item)
