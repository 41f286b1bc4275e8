"""Replays: requests and expectations, diffs, variables, actions, CI jobs, reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from fakeservice.scenarios import expect
from fakeservice.scenarios.replay import replay
from fakeservice.scenarios.variables import VariableError, extract, links, substitute
from fakeservice.web.http import Response, json_response


def run(tmp_path: Path, text: str, **kw: object):  # type: ignore[no-untyped-def]
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return replay(path, **kw)  # type: ignore[arg-type]


# -- expectations --------------------------------------------------------------------------
def test_subset_rules() -> None:
    actual = {"id": 1, "name": "x", "tags": ["a", "b"], "owner": {"id": 2, "name": "o"}}
    assert expect.subset_mismatches({"name": "x", "owner": {"id": 2}}, actual) == []
    assert expect.subset_mismatches({"tags": ["a"]}, actual) == ["$.tags: expected 1 items, got 2"]
    assert expect.subset_mismatches({"owner": {"id": 3}, "gone": None}, actual) == [
        "$.owner.id: expected 3, got 2",
        "$.gone: missing (expected null)",
    ]
    assert expect.subset_mismatches({"id": True}, actual) == ["$.id: expected true, got 1"]
    assert expect.subset_mismatches([{"id": 1}], actual) == [
        '$: expected a list, got {"id": 1, "name": "x", "owner": {"id": 2, "name": "o"}, "tags": ["a", "b"]}'
    ]


def test_check_reports_every_failure() -> None:
    response = json_response({"message": "404 Project Not Found"}, 404, [("X-Total", "3")])
    failures = expect.check(
        {
            "status": [200, 201],
            "headers": {
                "X-Total": "4",
                "X-Page": {"present": True},
                "Content-Type": {"contains": "json"},
            },
            "body": {"message": "404 Group Not Found"},
        },
        response,
    )
    assert (
        failures[0]
        == 'status: expected 200 or 201, got 404; body: {"message":"404 Project Not Found"}'
    )
    assert failures[1] == "header X-Total: expected '4', got '3'"
    assert failures[2] == "header X-Page: expected present, got None"
    assert failures[3:] == [
        "body differs:",
        "  --- expected",
        "  +++ actual",
        "  @@ -1,3 +1,3 @@",
        "   {",
        '  -  "message": "404 Group Not Found"',
        '  +  "message": "404 Project Not Found"',
        "   }",
    ]


def test_text_length_values_and_dropped() -> None:
    text = Response(429, [("Content-Type", "text/plain")], b"Retry later\n")
    assert expect.check({"text": "Retry later\n"}, text) == []
    assert (
        expect.check({"text": "Retry"}, text)[0]
        == "text differs: expected 'Retry', got 'Retry later\\n'"
    )
    assert expect.check({"length": 1}, text) == ["body: expected JSON, got 'Retry later\\n'"]
    listed = json_response([{"name": "a"}, {"name": "b"}])
    assert expect.check({"length": 2, "values": {"json[1].name": "b"}}, listed) == []
    assert expect.check({"values": {"json[5].name": "b"}}, listed) == [
        "json[5].name: nothing at '[5]'"
    ]
    dropped = Response(0, drop=True)
    assert expect.check({"dropped": True}, dropped) == []
    assert expect.check({"status": 200}, dropped) == [
        "dropped: expected False, got the connection was dropped (a fault)"
    ]
    assert expect.check({"dropped": True}, listed) == ["dropped: expected True, got status 200"]


def test_header_matches_and_absence() -> None:
    response = json_response([], headers=[("Link", '<http://x/a?page=2>; rel="next"')])
    assert (
        expect.check({"headers": {"Link": {"matches": r"page=\d"}, "X-Total": None}}, response)
        == []
    )
    assert expect.check({"headers": {"Link": None}}, response)[0].startswith(
        "header Link: expected no header"
    )


# -- variables -----------------------------------------------------------------------------
def test_substitute_keeps_types_for_whole_strings() -> None:
    variables = {"id": 7, "name": "x"}
    assert substitute({"a": "${id}", "b": "/p/${id}/${name}", "c": ["${name}"]}, variables) == {
        "a": 7,
        "b": "/p/7/x",
        "c": ["x"],
    }
    with pytest.raises(VariableError, match=r"\$\{nope\} is not set"):
        substitute("${nope}", variables)


def test_extract_expressions() -> None:
    response = json_response(
        {"items": [{"id": 1}, {"id": 2}]},
        headers=[
            ("X-Total", "2"),
            ("Link", '<http://h/a?page=2>; rel="next", <http://h/a?page=1>; rel="first"'),
        ],
    )
    assert extract("json.items[-1].id", response) == 2
    assert extract("json", response) == {"items": [{"id": 1}, {"id": 2}]}
    assert extract("headers.x-total", response) == "2"
    assert extract("link.next", response) == "http://h/a?page=2"
    assert extract("status", response) == 200
    assert links(response.header("Link")) == {
        "next": "http://h/a?page=2",
        "first": "http://h/a?page=1",
    }
    for bad in ("json.items[9]", "headers.Nope", "link.prev", "body"):
        with pytest.raises(VariableError):
            extract(bad, response)


# -- whole replays -------------------------------------------------------------------------
def test_requests_auth_variables_and_report(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        """\
name: demo
extends: default
users:
  - username: olga
    oauth_tokens: [{token: olga-oauth}]
step_defaults: {as: alice}
steps:
  - request: {path: /user}
    expect: {json: {username: alice}}
  - request: {path: /user, as: olga}
    expect: {json: {username: olga}}
  - request: {path: /user, as: null}
    expect: {status: 401}
  - request: {path: /user, token: bob-read-token}
    expect: {json: {username: bob}}
  - request: {path: /user, as: root, sudo: carol}
    expect: {json: {username: carol}}
  - request: {method: POST, path: /projects, form: {name: formed}}
    expect: {status: 201}
    save: {pid: json.id}
  - request: {path: "http://fakeservice.test/api/v4/projects/${pid}?statistics=true"}
    expect: {json: {id: "${pid}", name: formed}}
  - request: {path: /user, as: ghost}
  - request: {path: "/projects/${missing}"}
  - name: wrong on purpose
    request: {path: /version}
    expect: {status: 201, json: {version: "1.0"}}
""",
    )
    assert [o.ok for o in result.outcomes] == [True] * 7 + [False] * 3
    assert result.outcomes[7].failures == ["as: unknown user 'ghost'"]
    assert result.outcomes[8].failures == [
        "variable ${missing} is not set (no earlier step saved it)"
    ]
    report = result.report()
    assert report.splitlines()[0] == f"FAIL {tmp_path / 's.yaml'} (3 of 10 steps failed)"
    assert "  FAIL step 10 'wrong on purpose' (line 25)" in report
    assert '      $.version: expected "1.0", got "17.6.0-ee"' in report
    assert result.name == "demo"


def test_fail_fast_stops_at_the_first_failure(tmp_path: Path) -> None:
    text = "extends: default\nsteps:\n  - request: {path: /version}\n    expect: {status: 500}\n  - reset: true\n"
    assert len(run(tmp_path, text).outcomes) == 2
    assert len(run(tmp_path, text, fail_fast=True).outcomes) == 1


def test_repeat_checks_every_request(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        """\
extends: default
rate_limits: [{limit: 2}]
steps:
  - request: {path: /version, as: root}
    repeat: 3
    expect: {status: 200}
""",
    )
    assert (
        result.outcomes[0].failures[0].startswith("request 3 of 3: status: expected 200, got 429")
    )


def test_actions(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        """\
extends: default
step_defaults: {as: root}
steps:
  - advance_clock: 30
  - advance_clock: {minutes: 1}
  - request: {path: /_fake/clock}
    expect: {json: {now: "2026-01-01T09:01:30Z"}}
  - set_clock: "2026-03-01T00:00:00Z"
  - clock_mode: frozen
  - request: {path: /_fake/clock}
    expect: {json: {now: "2026-03-01T00:00:00Z", mode: frozen}}
  - advance_clock: 1
  - snapshot: s1
  - request: {method: POST, path: /projects, body: {name: gone-soon}}
    expect: {status: 201}
  - restore: s1
  - request: {path: /projects/root%2Fgone-soon}
    expect: {status: 404}
  - restore: s2
  - fault: {path: /version, status: 500}
  - request: {path: /version}
    expect: {status: 500}
  - clear_faults: true
  - rate_limit: {limit: 0}
  - request: {path: /version}
    expect: {status: 429}
  - clear_rate_limits: true
  - journal: {path: /version, count: 2}
  - clear_journal: true
  - journal: {count: 0}
  - reset: true
  - request: {path: /_fake/clock}
    expect: {json: {now: "2026-01-01T09:00:00Z", mode: manual}}
""",
    )
    failures = {o.index: o.failures for o in result.outcomes if not o.ok}
    assert failures == {
        6: ["a frozen clock cannot be moved; use mode 'manual'"],
        11: ["unknown snapshot 's2'"],
    }


def test_finish_job_through_the_runner(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        """\
extends: default
projects:
  - path: alice/app
    default_branch: main
    files:
      .gitlab-ci.yml: "build:\\n  script: [make]\\n"
    ci:
      runner: {mode: manual}
      pipelines: [{ref: main}]
steps:
  - request: {path: /projects/alice%2Fapp/pipelines, as: alice}
    save: {pipeline: "json[0].id"}
  - finish_job: {project: alice/app, name: build, status: failed}
  - request: {path: "/projects/alice%2Fapp/pipelines/${pipeline}", as: alice}
    expect: {json: {status: failed}}
  - finish_job: {job: 999999}
""",
    )
    assert [o.ok for o in result.outcomes] == [True, True, True, False]


def test_finish_job_without_a_runner_says_so(tmp_path: Path) -> None:
    from fakeservice import FakeService

    def no_runner() -> FakeService:
        service = FakeService(None)
        service.runner = None  # type: ignore[assignment]
        return service

    path = tmp_path / "s.yaml"
    path.write_text("steps:\n  - finish_job: {job: 1, status: failed}\n")
    result = replay(path, service_factory=no_runner)
    assert result.outcomes[0].failures == [
        "finishing a job needs the CI area's runner (service.runner), "
        "which this build of fakeservice does not have"
    ]


def test_scenario_that_does_not_load(tmp_path: Path) -> None:
    result = run(tmp_path, "users: [{usernme: x}]\n")
    assert not result.ok
    assert result.report().splitlines()[0].startswith("ERROR ")
    assert "unknown key 'usernme'" in result.report()
    missing = replay(tmp_path / "nope.yaml")
    assert missing.error is not None and not missing.ok


def test_replays_are_deterministic(tmp_path: Path) -> None:
    text = """\
extends: default
faults: [{path: /version, status: 503, probability: 0.5, seed: 3}]
steps:
  - request: {path: /version, as: root}
    repeat: 8
    expect: {status: 200}
"""
    assert run(tmp_path, text).report() == run(tmp_path, text).report()
