"""``check``: every structural problem with its line and a plain message; then a trial
load; then the steps' references."""

from __future__ import annotations

from pathlib import Path

import pytest

from fakeservice.scenarios.check import check
from fakeservice.scenarios.problems import Problem


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def lines(problems: list[Problem]) -> list[tuple[int | None, str, str]]:
    return [(p.line, p.where, p.message) for p in problems]


def test_structural_problems_have_lines_and_hints(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
clock: {mode: fast}
users:
  - username: zed
    tokens:
      - {token: t, scopes: [api, writ_api]}
  - generate: 0
  - name: no username
groups:
  - path: g
    members:
      - {user: zed, role: devloper}
projects:
  - path: g/p
    visibilty: public
    topics: web
""",
    )
    assert lines(check(path)) == [
        (1, "clock.mode", "must be one of frozen, manual, real (got 'fast')"),
        (
            5,
            "users[0].tokens[0].scopes[1]",
            "must be one of api, read_api, read_user, read_repository, write_repository, read_registry, write_registry, sudo, admin_mode, create_runner, ai_features, k8s_proxy (got 'writ_api')",
        ),
        (6, "users[1].generate", "must be an integer, 1 or more (got 0)"),
        (7, "users[2]", "username is required"),
        (
            11,
            "groups[0].members[0].role",
            "must be one of guest, planner, reporter, developer, maintainer, owner (got 'devloper') (did you mean 'developer'?)",
        ),
        (14, "projects[0].visibilty", "unknown key 'visibilty' (did you mean 'visibility'?)"),
        (15, "projects[0].topics", "expected a list of strings, got a string"),
    ]
    assert (
        str(check(path)[0])
        == f"{path}:1: clock.mode: must be one of frozen, manual, real (got 'fast')"
    )


def test_yaml_syntax_error_has_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "users:\n  - username: a\n  - [unclosed\n")
    (problem,) = check(path)
    assert problem.line == 4 and problem.message.startswith("not valid YAML")


def test_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    (problem,) = check(write(tmp_path, "- a\n- b\n"))
    assert problem.message == "a scenario must be a mapping at the top level"


def test_trial_load_reports_reference_problems_with_lines(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
users:
  - username: a
groups:
  - path: g
    members:
      - {user: nobody}
""",
    )
    assert lines(check(path)) == [(6, "groups[0].members[0]", "unknown user 'nobody'")]


def test_model_validation_reaches_the_record(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
groups:
  - path: g
    visibility: internal
projects:
  - path: g/ok
  - path: g/loud
    visibility: public
""",
    )
    (problem,) = check(path)
    assert (problem.line, problem.where) == (6, "projects[1]")
    assert "public is not allowed in a internal group" in problem.message


def test_step_rules(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
steps:
  - request: {path: /users}
    advance_clock: 5
  - request: {path: /user, as: a, token: t}
    expect: {json: {}, text: x, status: "200"}
  - save: {x: json.id}
  - fault: {path: /x}
  - finish_job: {project: a/b}
""",
    )
    got = lines(check(path))
    assert (2, "steps[0]", "has more than one action: request, advance_clock") in got
    assert any(
        where == "steps[2]" and m.startswith("needs an action: one of request, advance_clock")
        for _, where, m in got
    )
    assert (4, "steps[1].request", "as, token cannot be used together") in got
    assert (
        5,
        "steps[1].expect.status",
        "expected an integer from 100 to 599 or a list of integers from 100 to 599, got a string",
    ) in got
    assert (5, "steps[1].expect", "json, text cannot be used together") in got
    assert (6, "steps[2].save", "only used with request") in got
    assert (7, "steps[3].fault", "needs at least one of status, delay, drop") in got
    assert (8, "steps[4].finish_job", "project, name go together") in got


def test_step_references(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
extends: default
step_defaults: {as: nobody}
steps:
  - request: {path: "/users/${uid}", as: root}
  - request: {path: /user}
    save: {uid: json.id}
  - request: {path: "/users/${uid}"}
  - restore: never-taken
  - snapshot: taken
  - restore: taken
""",
    )
    assert lines(check(path)) == [
        (2, "step_defaults.as", "no user 'nobody' in the scenario"),
        (4, "steps[0]", "${uid} is used before any step saves it"),
        (8, "steps[3].restore", "no earlier step takes a snapshot named 'never-taken'"),
    ]


def test_extends_chain_problems_point_at_the_right_file(tmp_path: Path) -> None:
    write(tmp_path, "users:\n  - username: x\n    admn: true\n", name="base.yaml")
    child = write(tmp_path, "extends: base.yaml\n", name="child.yaml")
    (problem,) = check(child)
    assert problem.file is not None and problem.file.endswith("base.yaml")
    assert (problem.line, problem.message) == (3, "unknown key 'admn' (did you mean 'admin'?)")
    missing = write(tmp_path, "extends: nowhere.yaml\n", name="lost.yaml")
    (lost,) = check(missing)
    assert (lost.line, lost.where) == (1, "extends")
    assert "no scenario file 'nowhere.yaml'" in lost.message
    cycle = write(tmp_path, "extends: loop.yaml\n", name="loop.yaml")
    assert "cycle" in check(cycle)[0].message


@pytest.mark.parametrize(
    "text",
    [
        "users: [{username: a, tokens: [{token: t, expires_at: soon}]}]",
        "clock: {start: tomorrow}",
        "faults: [{path: /x, status: 200}]",
        "rate_limits: [{limit: -1}]",
        "steps: [{advance_clock: {weeks: 1}}]",
    ],
)
def test_value_problems(tmp_path: Path, text: str) -> None:
    assert len(check(write(tmp_path, text + "\n"))) == 1


def test_mappings_are_checked_without_lines() -> None:
    (problem,) = check({"users": [{"username": "a", "admin": "yes"}]})
    assert (problem.line, problem.where, problem.message) == (
        None,
        "users[0].admin",
        "expected true or false, got a string",
    )


def test_step_values_are_checked_before_any_replay(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
steps:
  - advance_clock: -5
  - advance_clock: 0
  - advance_clock: {minutes: 0, seconds: 0}
  - advance_clock: {minutes: -1}
  - advance_clock: {}
  - advance_clock: {hours: 0.5}
  - advance_clock: 1.5
  - request: {path: projects}
    expect: {status: 2000}
  - finish_job: {job: 0}
  - finish_job: {job: twelve}
  - finish_job: {project: a/b, name: build, pipeline: 0}
  - snapshot: before push
  - journal: {count: 1, status: 99}
  - start_job: -1
""",
    )
    assert lines(check(path)) == [
        (2, "steps[0].advance_clock", "must be a number above 0 (got -5)"),
        (3, "steps[1].advance_clock", "must be a number above 0 (got 0)"),
        (4, "steps[2].advance_clock", "must move the clock forward (a total above 0 seconds)"),
        (5, "steps[3].advance_clock.minutes", "must be a number, 0 or more (got -1)"),
        (6, "steps[4].advance_clock", "needs at least one of seconds, minutes, hours, days"),
        (
            9,
            "steps[7].request.path",
            "expected a path starting with `/`, or a full URL, got 'projects'",
        ),
        (10, "steps[7].expect.status", "must be an integer from 100 to 599 (got 2000)"),
        (11, "steps[8].finish_job.job", "must be an id or a ${variable} (got '0')"),
        (12, "steps[9].finish_job.job", "must be an id or a ${variable} (got 'twelve')"),
        (13, "steps[10].finish_job.pipeline", "must be an integer, 1 or more (got 0)"),
        (
            14,
            "steps[11].snapshot",
            "expected a snapshot name (1 to 64 letters, digits, `.`, `_` or `-`), "
            "got 'before push'",
        ),
        (15, "steps[12].journal.status", "must be an integer from 100 to 599 (got 99)"),
        (16, "steps[13].start_job", "must be an id or a ${variable} (got '-1')"),
    ]


def test_a_clock_that_is_not_manual_cannot_be_moved(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
clock: {mode: frozen}
steps:
  - advance_clock: 5
  - clock_mode: manual
  - advance_clock: 5
  - snapshot: manual-here
  - clock_mode: real
  - set_clock: "2027-01-01T00:00:00Z"
  - restore: manual-here
  - advance_clock: 1
  - reset: true
  - advance_clock: {minutes: 1}
  - request: {method: POST, path: /_fake/clock, body: {mode: manual}}
  - advance_clock: 1
""",
    )
    message = (
        "the clock is {} at this step and only a manual clock moves; "
        "add a `clock_mode: manual` step before it"
    )
    assert lines(check(path)) == [
        (3, "steps[0].advance_clock", message.format("frozen")),
        (8, "steps[5].set_clock", message.format("real")),
        (12, "steps[9].advance_clock", message.format("frozen")),
    ]


@pytest.mark.parametrize(
    ("text", "line", "where", "message"),
    [
        (
            "extends: default\nprojects:\n  - path: acme/x\n    pipelines: [{ref: main}]\n",
            4,
            "projects[0].pipelines",
            "unknown key 'pipelines' (did you mean 'ci.pipelines'?)",
        ),
        (
            "projects:\n  - path: x/y\n    outcomes: {}\n",
            3,
            "projects[0].outcomes",
            "unknown key 'outcomes' (did you mean 'ci.outcomes'?)",
        ),
        (
            "projects:\n  - path: x/y\n    pipelines_on_push: true\n",
            3,
            "projects[0].pipelines_on_push",
            "unknown key 'pipelines_on_push' (did you mean 'ci.runner.pipelines_on_push'?)",
        ),
        (
            "mode: timed\n",
            1,
            "mode",
            "unknown key 'mode' (did you mean 'clock.mode' or 'runner.mode'?)",
        ),
        (
            "steps:\n  - request: {path: /user}\n    status: 200\n",
            3,
            "steps[0].status",
            "unknown key 'status' (did you mean 'expect.status', 'fault.status' or "
            "'finish_job.status'?)",
        ),
        (
            "projects:\n  - path: x/y\n    visibilty: public\n",
            3,
            "projects[0].visibilty",
            "unknown key 'visibilty' (did you mean 'visibility'?)",
        ),
    ],
)
def test_unknown_keys_suggest_nested_paths(
    tmp_path: Path, text: str, line: int, where: str, message: str
) -> None:
    (problem,) = check(write(tmp_path, text))
    assert (problem.line, problem.where, problem.message) == (line, where, message)
