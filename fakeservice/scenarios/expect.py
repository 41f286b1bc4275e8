"""Expectations on an answer (status, headers, JSON subset, exact body, text, length),
each failure worded as a readable diff.

JSON subset rules: a mapping matches when every expected key is there and matches; a
list matches when it has the same length and each item matches; other values must be
equal. Mismatches are listed by JSON path (``$.items[0].name``). ``values`` checks single
values picked by the expressions ``save`` uses (``json[0].username``, ``headers.X-Total``).
"""

from __future__ import annotations

import difflib
import json
import re
from typing import Any

from fakeservice.scenarios.variables import VariableError, extract
from fakeservice.web.http import Response

MAX_SHOWN = 400
_MISSING = object()


def shown(value: Any) -> str:
    text = (
        json.dumps(value, ensure_ascii=False, sort_keys=True)
        if value is not _MISSING
        else "(missing)"
    )
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def body_text(response: Response) -> str:
    text = response.body.decode("utf-8", "replace")
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def json_of(response: Response) -> tuple[bool, Any]:
    try:
        return True, json.loads(response.body)
    except (ValueError, UnicodeDecodeError):
        return False, None


def subset_mismatches(expected: Any, actual: Any, path: str = "$") -> list[str]:
    """Where ``actual`` does not contain ``expected`` (see the module's rules)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected a mapping, got {shown(actual)}"]
        out: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing (expected {shown(value)})")
            else:
                out.extend(subset_mismatches(value, actual[key], f"{path}.{key}"))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{path}: expected a list, got {shown(actual)}"]
        if len(expected) != len(actual):
            return [f"{path}: expected {len(expected)} items, got {len(actual)}"]
        out = []
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            out.extend(subset_mismatches(want, got, f"{path}[{index}]"))
        return out
    if not _equal(expected, actual):
        return [f"{path}: expected {shown(expected)}, got {shown(actual)}"]
    return []


def _equal(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def exact_diff(expected: Any, actual: Any) -> list[str]:
    """A unified diff of two JSON values, pretty-printed with sorted keys."""
    want = json.dumps(expected, indent=2, sort_keys=True, ensure_ascii=False).splitlines()
    got = json.dumps(actual, indent=2, sort_keys=True, ensure_ascii=False).splitlines()
    if want == got:
        return []
    diff = difflib.unified_diff(want, got, "expected", "actual", lineterm="", n=2)
    return ["body differs:", *("  " + line for line in diff)]


def text_diff(expected: str, actual: str) -> list[str]:
    if expected == actual:
        return []
    diff = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        "expected",
        "actual",
        n=2,
    )
    lines = [line.rstrip("\n") for line in diff]
    return [
        f"text differs: expected {expected!r}, got {actual!r}",
        *("  " + line for line in lines),
    ]


def header_mismatch(name: str, want: Any, got: str | None) -> str | None:
    label = f"header {name}"
    if want is None:
        return None if got is None else f"{label}: expected no header, got {got!r}"
    if isinstance(want, dict):
        if "present" in want and bool(want["present"]) != (got is not None):
            return f"{label}: expected {'present' if want['present'] else 'absent'}, got {got!r}"
        if "contains" in want and (got is None or str(want["contains"]) not in got):
            return f"{label}: expected to contain {want['contains']!r}, got {got!r}"
        if "matches" in want and (got is None or not re.search(str(want["matches"]), got)):
            return f"{label}: expected to match /{want['matches']}/, got {got!r}"
        return None
    if got != str(want):
        return f"{label}: expected {str(want)!r}, got {got!r}"
    return None


def check(expect: dict[str, Any], response: Response) -> list[str]:
    """Every way ``response`` fails ``expect`` (empty when it holds)."""
    failures: list[str] = []
    if "dropped" in expect or response.drop:
        if bool(expect.get("dropped")) != response.drop:
            got = (
                "the connection was dropped (a fault)"
                if response.drop
                else f"status {response.status}"
            )
            failures.append(f"dropped: expected {bool(expect.get('dropped'))}, got {got}")
        if response.drop:
            return failures
    if "status" in expect:
        allowed = expect["status"] if isinstance(expect["status"], list) else [expect["status"]]
        if response.status not in allowed:
            want = " or ".join(str(s) for s in allowed)
            failures.append(
                f"status: expected {want}, got {response.status}; body: {body_text(response)}"
            )
    for name, want in (expect.get("headers") or {}).items():
        found = header_mismatch(str(name), want, response.header(str(name)))
        if found:
            failures.append(found)
    needs_json = any(key in expect for key in ("json", "body", "length"))
    parsed, data = json_of(response) if needs_json else (False, None)
    if needs_json and not parsed:
        failures.append(f"body: expected JSON, got {body_text(response)!r}")
        return failures
    if "json" in expect:
        failures.extend(subset_mismatches(expect["json"], data))
    if "body" in expect:
        failures.extend(exact_diff(expect["body"], data))
    if "length" in expect:
        if not isinstance(data, list):
            failures.append(f"length: expected a JSON list, got {shown(data)}")
        elif len(data) != expect["length"]:
            failures.append(f"length: expected {expect['length']} items, got {len(data)}")
    for expression, want in (expect.get("values") or {}).items():
        try:
            got = extract(str(expression), response)
        except VariableError as exc:
            failures.append(str(exc))
            continue
        failures.extend(subset_mismatches(want, got, str(expression)))
    if "text" in expect:
        failures.extend(text_diff(str(expect["text"]), response.body.decode("utf-8", "replace")))
    return failures
