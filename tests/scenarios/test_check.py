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
        "expected an integer or a list of integers, got a string",
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
