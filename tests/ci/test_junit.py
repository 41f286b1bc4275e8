"""Tests for JUnit parsing and the test report / summary shapes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fakeservice.ci.artifacts import junit
from fakeservice.ci.artifacts.junit import (
    JUnitError,
    TestCase,
    build_report,
    build_summary,
    parse_junit,
)

SUITES = b"""<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="all">
  <testsuite name="math" tests="4">
    <testcase classname="MathTest" name="test_add" time="0.5"/>
    <testcase classname="MathTest" name="test_div" time="1.25">
      <failure message="ZeroDivisionError" type="error">Traceback: division by zero</failure>
      <system-out>printed [[ATTACHMENT|screens/div.png]]</system-out>
    </testcase>
    <testcase classname="MathTest" name="test_big" time="2.0s">
      <error message="MemoryError"/>
    </testcase>
    <testcase classname="MathTest" name="test_later">
      <skipped message="not yet"/>
    </testcase>
  </testsuite>
  <testsuite name="outer">
    <testsuite name="inner">
      <testcase classname="Nested" name="test_deep" time="abc"/>
    </testsuite>
  </testsuite>
</testsuites>
"""


def test_parse_testsuites() -> None:
    cases = parse_junit(SUITES)
    assert [(c.name, c.status, c.execution_time) for c in cases] == [
        ("test_add", "success", 0.5),
        ("test_div", "failed", 1.25),
        ("test_big", "error", 2.0),
        ("test_later", "skipped", 0.0),
        ("test_deep", "success", 0.0),
    ]
    div = cases[1]
    assert div.system_output == (
        "Traceback: division by zero\n\nSystem Out:\n\nprinted [[ATTACHMENT|screens/div.png]]"
    )
    assert div.attachment == "screens/div.png"
    assert div.stack_trace is None
    assert cases[2].system_output == "MemoryError"
    assert cases[3].system_output == "not yet"
    assert cases[0].system_output is None
    assert cases[4].suite_name == "inner"


def test_parse_a_lone_testsuite_and_strings() -> None:
    cases = parse_junit(
        '<testsuite name="s"><testcase classname="A" name="b" time="3"/></testsuite>'
    )
    assert cases == [TestCase("success", "b", "A", 3.0, suite_name="s")]
    assert parse_junit("<other><testcase name='x'/></other>") == []


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<testsuite name="&lol4;"><testcase name="x"/></testsuite>
"""

EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<testsuite><testcase name="&secret;"/></testsuite>
"""


@pytest.mark.parametrize("payload", [BILLION_LAUGHS, EXTERNAL_ENTITY])
def test_entity_attacks_are_refused(payload: bytes) -> None:
    with pytest.raises(JUnitError) as caught:
        parse_junit(payload)
    assert str(caught.value).startswith("JUnit XML parsing failed: ")
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("payload", [b"", b"<testsuite>", b"not xml at all", b"<a></b>"])
def test_malformed_xml_is_refused(payload: bytes) -> None:
    with pytest.raises(JUnitError, match=r"^JUnit XML parsing failed: "):
        parse_junit(payload)


def test_case_limit() -> None:
    xml = "<testsuite>" + "<testcase name='t'/>" * 3 + "</testsuite>"
    with pytest.raises(JUnitError, match="exceeded the limit of 2"):
        parse_junit(xml, max_cases=2)


def test_report_groups_by_job_and_sorts_cases() -> None:
    cases = parse_junit(SUITES)
    report = build_report(
        [
            ("rspec", 11, cases),
            ("rspec", 12, [TestCase("success", "extra", "X", 0.25)]),
            junit.load_job_tests("lint", 13, [b"<broken"]),
        ]
    )
    assert list(report) == [
        "total_time",
        "total_count",
        "success_count",
        "failed_count",
        "skipped_count",
        "error_count",
        "test_suites",
    ]
    assert report["total_time"] == 4.0
    assert (report["total_count"], report["success_count"], report["failed_count"]) == (6, 3, 1)
    assert (report["skipped_count"], report["error_count"]) == (1, 1)
    rspec, lint = report["test_suites"]
    assert rspec["name"] == "rspec"
    assert [c["name"] for c in rspec["test_cases"]] == [
        "test_big",
        "test_div",
        "test_add",
        "extra",
        "test_deep",
        "test_later",
    ]
    assert rspec["test_cases"][1] == {
        "status": "failed",
        "name": "test_div",
        "classname": "MathTest",
        "execution_time": 1.25,
        "system_output": (
            "Traceback: division by zero\n\nSystem Out:\n\nprinted [[ATTACHMENT|screens/div.png]]"
        ),
        "stack_trace": None,
    }
    assert lint["test_cases"] == []
    assert lint["suite_error"].startswith("JUnit XML parsing failed: ")
    assert lint["total_count"] == 0


def test_summary_shape() -> None:
    summary = build_summary(
        [
            ("rspec", 11, parse_junit(SUITES)),
            ("rspec", 12, []),
            junit.load_job_tests("lint", 13, [b"<broken"]),
        ]
    )
    assert summary["total"] == {
        "time": 3.75,
        "count": 5,
        "success": 2,
        "failed": 1,
        "skipped": 1,
        "error": 1,
        "suite_error": summary["test_suites"][1]["suite_error"],
    }
    assert summary["test_suites"][0] == {
        "name": "rspec",
        "total_time": 3.75,
        "total_count": 5,
        "success_count": 2,
        "failed_count": 1,
        "skipped_count": 1,
        "error_count": 1,
        "build_ids": [11, 12],
        "suite_error": None,
    }
    assert summary["test_suites"][1]["build_ids"] == [13]


def test_empty_report() -> None:
    assert build_report([]) == {
        "total_time": 0,
        "total_count": 0,
        "success_count": 0,
        "failed_count": 0,
        "skipped_count": 0,
        "error_count": 0,
        "test_suites": [],
    }


statuses = st.sampled_from(["success", "failed", "skipped", "error"])
times = st.floats(min_value=0, max_value=1000, allow_nan=False).map(lambda t: round(t, 3))


@given(st.lists(st.tuples(statuses, times), max_size=20))
def test_report_counts_add_up(specs: list[tuple[str, float]]) -> None:
    cases = [TestCase(status, f"t{i}", "C", time) for i, (status, time) in enumerate(specs)]
    suite = build_report([("job", 1, cases)])
    assert suite["total_count"] == len(cases)
    assert suite["success_count"] + suite["failed_count"] + suite["skipped_count"] + suite[
        "error_count"
    ] == len(cases)
    assert suite["total_time"] == pytest.approx(sum(t for _, t in specs), abs=0.01)
    if cases:
        ordered = [c["status"] for c in suite["test_suites"][0]["test_cases"]]
        assert ordered == sorted(ordered, key=junit.STATUS_ORDER.index)
