"""Safe JUnit XML parsing into the service's test report and test report summary shapes.

Parsing goes through defusedxml: entity declarations (billion laughs, external entities)
are refused, and malformed XML raises :class:`JUnitError` (a ``ValueError``) whose text is
the service's ``suite_error`` (``JUnit XML parsing failed: ...``).

Like the service, a ``<testsuites>`` root or a lone ``<testsuite>`` is accepted, nested
suites are walked, a case with ``<failure>`` is ``failed``, with ``<error>`` is ``error``,
with ``<skipped>`` is ``skipped``, otherwise ``success``. ``system_output`` of a failed or
errored case is the failure text (or its ``message``) followed by ``System Out:`` and
``System Err:`` sections; ``stack_trace`` is always null, as the service leaves it. Suites
of the report are grouped by job name (the caller passes it). Duplicate cases are kept
(the service collapses identical suite/class/name triples).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any
from xml.etree.ElementTree import Element, ParseError

import attrs
from defusedxml import ElementTree as SafeElementTree
from defusedxml.common import DefusedXmlException

STATUS_SUCCESS = "success"
STATUS_FAILED = "failed"
STATUS_SKIPPED = "skipped"
STATUS_ERROR = "error"
STATUS_ORDER: tuple[str, ...] = (STATUS_ERROR, STATUS_FAILED, STATUS_SUCCESS, STATUS_SKIPPED)
_COUNT_KEYS = ("total_count", "success_count", "failed_count", "skipped_count", "error_count")

_ATTACHMENT = re.compile(r"\[\[ATTACHMENT\|(?P<path>[^\[\]|]+?)\]\]")
_LEADING_FLOAT = re.compile(r"\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")


class JUnitError(ValueError):
    """A JUnit document that cannot be read; ``str()`` is the service's suite error."""


@attrs.frozen(slots=True)
class TestCase:
    """One ``<testcase>``."""

    __test__ = False  # not a pytest test class

    status: str
    name: str
    classname: str
    execution_time: float
    system_output: str | None = None
    stack_trace: str | None = None
    file: str | None = None
    suite_name: str | None = None
    attachment: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "name": self.name,
            "classname": self.classname,
            "execution_time": self.execution_time,
            "system_output": self.system_output,
            "stack_trace": self.stack_trace,
        }


@attrs.frozen(slots=True)
class JobTests:
    """The parsed JUnit reports of one job: its cases, or the error that stopped parsing."""

    suite_name: str
    job_id: int
    cases: tuple[TestCase, ...] = ()
    suite_error: str | None = None


def _ruby_float(text: str | None) -> float:
    """Ruby's ``String#to_f``: the leading number, 0.0 when there is none."""
    if not text:
        return 0.0
    match = _LEADING_FLOAT.match(text)
    return float(match.group(0)) if match else 0.0


def _text(element: Element | None) -> str | None:
    if element is None:
        return None
    text = "".join(element.itertext())
    if text.strip():
        return text
    return element.get("message")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child(element: Element, name: str) -> Element | None:
    for child in element:
        if _local(child.tag) == name:
            return child
    return None


def _case(element: Element, suite_name: str | None) -> TestCase:
    failure = _child(element, "failure")
    error = _child(element, "error")
    skipped = _child(element, "skipped")
    out = _child(element, "system-out")
    err = _child(element, "system-err")
    out_text = "".join(out.itertext()) if out is not None else None
    err_text = "".join(err.itertext()) if err is not None else None
    sections = [
        f"System Out:\n\n{out_text}" if out is not None else None,
        f"System Err:\n\n{err_text}" if err is not None else None,
    ]
    attachment = None
    if failure is not None or error is not None:
        status = STATUS_FAILED if failure is not None else STATUS_ERROR
        parts = [_text(failure if failure is not None else error), *sections]
        output: str | None = "\n\n".join(p for p in parts if p is not None)
        found = _ATTACHMENT.search(out_text or "")
        attachment = found.group("path") if found else None
    elif skipped is not None:
        status, output = STATUS_SKIPPED, _text(skipped)
    else:
        status, output = STATUS_SUCCESS, None
    return TestCase(
        status=status,
        name=element.get("name") or "",
        classname=element.get("classname") or "",
        execution_time=_ruby_float(element.get("time")),
        system_output=output,
        file=element.get("file"),
        suite_name=suite_name,
        attachment=attachment,
    )


def _walk(element: Element, cases: list[TestCase], limit: int) -> None:
    for child in element:
        tag = _local(child.tag)
        if tag == "testcase":
            cases.append(_case(child, element.get("name")))
            if limit and len(cases) > limit:
                raise JUnitError(
                    f"JUnit data parsing failed: number of test cases exceeded the limit of {limit}"
                )
        elif tag == "testsuite":
            _walk(child, cases, limit)


def parse_junit(xml: bytes | str, *, max_cases: int = 0) -> list[TestCase]:
    """The test cases of a JUnit document; raises :class:`JUnitError` on bad input."""
    try:
        root = SafeElementTree.fromstring(
            xml, forbid_dtd=False, forbid_entities=True, forbid_external=True
        )
    except DefusedXmlException as exc:
        raise JUnitError(f"JUnit XML parsing failed: {type(exc).__name__}: {exc}") from exc
    except (ParseError, ValueError) as exc:
        raise JUnitError(f"JUnit XML parsing failed: {exc}") from exc
    cases: list[TestCase] = []
    if _local(root.tag) in ("testsuites", "testsuite"):
        _walk(root, cases, max_cases)
    return cases


def load_job_tests(
    suite_name: str, job_id: int, documents: Iterable[bytes | str], *, max_cases: int = 0
) -> JobTests:
    """Parse every JUnit document of one job; the first failure becomes the suite error."""
    cases: list[TestCase] = []
    for document in documents:
        try:
            cases.extend(parse_junit(document, max_cases=max_cases))
        except JUnitError as exc:
            return JobTests(suite_name, job_id, (), str(exc))
    return JobTests(suite_name, job_id, tuple(cases))


@attrs.define(slots=True)
class _Suite:
    name: str
    cases: list[TestCase] = attrs.field(factory=list)
    build_ids: list[int] = attrs.field(factory=list)
    suite_error: str | None = None

    def count(self, status: str) -> int:
        return sum(1 for case in self.cases if case.status == status)

    @property
    def total_time(self) -> float:
        return round(sum(case.execution_time for case in self.cases), 2)

    def counts(self) -> dict[str, Any]:
        """``name``, ``total_time`` and the counts: how both shapes open a suite."""
        return {
            "name": self.name,
            "total_time": self.total_time,
            "total_count": len(self.cases),
            "success_count": self.count(STATUS_SUCCESS),
            "failed_count": self.count(STATUS_FAILED),
            "skipped_count": self.count(STATUS_SKIPPED),
            "error_count": self.count(STATUS_ERROR),
        }


def _group(jobs: Iterable[JobTests | tuple[str, int, Sequence[TestCase]]]) -> list[_Suite]:
    suites: dict[str, _Suite] = {}
    for item in jobs:
        tests = item if isinstance(item, JobTests) else JobTests(item[0], item[1], tuple(item[2]))
        suite = suites.setdefault(tests.suite_name, _Suite(tests.suite_name))
        suite.build_ids.append(tests.job_id)
        if tests.suite_error is not None:
            suite.suite_error = suite.suite_error or tests.suite_error
        else:
            suite.cases.extend(tests.cases)
    return list(suites.values())


def _totals(rendered: list[dict[str, Any]]) -> dict[str, Any]:
    """The suites' ``total_time`` and counts summed, under the suites' key names."""
    out: dict[str, Any] = {"total_time": round(sum(s["total_time"] for s in rendered), 2)}
    for key in _COUNT_KEYS:
        out[key] = sum(s[key] for s in rendered)
    return out


def _short(key: str) -> str:
    """A suite key as the summary's ``total`` names it (``success_count`` -> ``success``)."""
    return key.removeprefix("total_").removesuffix("_count")


def _sorted_cases(cases: Iterable[TestCase]) -> list[TestCase]:
    return sorted(cases, key=lambda c: (STATUS_ORDER.index(c.status), -c.execution_time))


def build_report(jobs: Iterable[JobTests | tuple[str, int, Sequence[TestCase]]]) -> dict[str, Any]:
    """``GET .../test_report``: totals and one suite per job name, cases error-first."""
    rendered = [
        {
            **suite.counts(),
            "suite_error": suite.suite_error,
            "test_cases": []
            if suite.suite_error
            else [case.to_json() for case in _sorted_cases(suite.cases)],
        }
        for suite in _group(jobs)
    ]
    return {**_totals(rendered), "test_suites": rendered}


def build_summary(jobs: Iterable[JobTests | tuple[str, int, Sequence[TestCase]]]) -> dict[str, Any]:
    """``GET .../test_report_summary``: ``total`` and one summary per job name."""
    rendered = [
        {**suite.counts(), "build_ids": list(suite.build_ids), "suite_error": suite.suite_error}
        for suite in _group(jobs)
    ]
    errors = [s["suite_error"] for s in rendered if s["suite_error"]]
    totals = {_short(key): value for key, value in _totals(rendered).items()}
    return {
        "total": {**totals, "suite_error": errors[0] if errors else None},
        "test_suites": rendered,
    }
