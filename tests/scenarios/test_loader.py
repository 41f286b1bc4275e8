"""The loader: what it builds, ``extends``, generated records, area sections, and that a
bad scenario never half-loads."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from fakeservice import FakeService
from fakeservice.scenarios import schema
from fakeservice.scenarios.loader import (
    ScenarioError,
    read_scenario,
    register_action,
    register_group_section,
    register_project_section,
    register_section,
)
from fakeservice.scenarios.replay import replay


def test_default_scenario_still_loads_as_before() -> None:
    service = FakeService()
    me = service.request("GET", "/user", token="root-token").json()
    assert (me["username"], me["is_admin"]) == ("root", True)
    assert service.request("GET", "/users", token="root-token").header("X-Total") == "45"
    assert service.admin_tokens() == [("root", "root-token")]
    assert read_scenario("default")["clock"]["mode"] == "manual"


def test_scenario_error_keeps_where_message_pairs() -> None:
    with pytest.raises(ScenarioError) as caught:
        FakeService({"users": [{"username": "a"}, {"username": "a"}]})
    assert caught.value.problems == [
        ("users[1]", "username has already been taken; email has already been taken")
    ]
    assert caught.value.as_json()[0]["where"] == "users[1]"


def state(service: FakeService) -> Any:
    """The service's records, sequences and clock as comparable values."""
    store_bytes, clock = pickle.loads(service.snapshot())
    store = pickle.loads(store_bytes)
    rows = {name: table["rows"] for name, table in store["tables"].items() if table["rows"]}
    return rows, store["sequences"], store["iids"], store["extras"], clock


def test_failure_late_in_a_scenario_restores_everything() -> None:
    service = FakeService()
    before = state(service)
    faults_before = service.control.config()
    with pytest.raises(ScenarioError):
        service.load_scenario(
            {
                "users": [{"username": "new-one"}],
                "faults": [{"path": "/x", "status": 500}],
                "projects": [{"path": "new-one/p"}, {"path": "missing/p"}],
            }
        )
    assert state(service) == before
    assert service.control.config() == faults_before


def test_extends_loads_the_base_first(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("extends: default\nusers: [{username: basey}]\n")
    (tmp_path / "child.yaml").write_text(
        "extends: base.yaml\nprojects: [{path: basey/proj, visibility: public}]\n"
    )
    service = FakeService(tmp_path / "child.yaml")
    assert service.request("GET", "/projects/basey%2Fproj").status == 200
    assert service.request("GET", "/user", token="root-token").status == 200


def test_generated_users_groups_and_projects() -> None:
    service = FakeService(
        {
            "users": [
                {"username": "root", "admin": True, "tokens": [{"token": "t"}]},
                {"generate": 3, "username": "u{n}", "start": 7},
            ],
            "groups": [
                {"generate": 2, "path": "g{n}", "subgroups": [{"generate": 2, "path": "c{n}"}]}
            ],
            "projects": [{"generate": 2, "path": "g1/p{n}", "name": "Project {n}"}],
        }
    )
    names = [
        u["username"]
        for u in service.request("GET", "/users", token="t", query={"sort": "asc"}).json()
    ]
    assert names == ["root", "u7", "u8", "u9"]
    assert service.request("GET", "/groups/g2%2Fc2", token="t").status == 200
    assert service.request("GET", "/projects/g1%2Fp2", token="t").json()["name"] == "Project 2"


def test_clock_section() -> None:
    service = FakeService({"clock": {"mode": "frozen", "start": "2030-05-01T12:00:00Z"}})
    assert service.clock.mode == "frozen"
    assert service.now().year == 2030


def test_faults_and_rate_limits_sections() -> None:
    service = FakeService(
        {
            "extends": "default",
            "faults": [{"path": "/version", "status": 502}],
            "rate_limits": [{"limit": 5, "period": 10}],
        }
    )
    assert service.request("GET", "/version", token="root-token").status == 502
    assert [r.limit for r in service.rate_limits.rules] == [5]


def test_area_sections_plug_in(isolated_sections: None, tmp_path: Path) -> None:
    calls: list[Any] = []
    register_section(
        "widgets",
        lambda service, data: calls.append(("top", data["widgets"])),
        schema=schema.ListOf(schema.STR),
    )
    register_project_section(
        "memos",
        lambda service, project, value, where: calls.append(
            ("project", project.path, value, where)
        ),
    )
    register_group_section(
        "stickers",
        lambda service, group, value, where: calls.append(("group", group.path, value, where)),
    )
    (tmp_path / "s.yaml").write_text(
        """\
users: [{username: o}]
groups: [{path: g, stickers: [bug]}]
projects:
  - {path: g/a, memos: first}
  - {path: g/b, memos: second}
widgets: [w1]
"""
    )
    FakeService(tmp_path / "s.yaml")
    assert calls == [
        ("top", ["w1"]),
        ("group", "g", ["bug"], "groups[0].stickers"),
        ("project", "a", "first", "projects[0].memos"),
        ("project", "b", "second", "projects[1].memos"),
    ]
    (tmp_path / "bad.yaml").write_text("widgets: [[nested]]\n")
    with pytest.raises(ScenarioError) as caught:
        FakeService(tmp_path / "bad.yaml")
    assert caught.value.details[0].line == 1
    assert caught.value.details[0].where == "widgets[0]"


def test_section_loader_errors_name_the_record(isolated_sections: None, tmp_path: Path) -> None:
    def explode(service: Any, project: Any, value: Any, where: str) -> None:
        raise ScenarioError([(where, "no good")])

    register_project_section("boom", explode)
    (tmp_path / "s.yaml").write_text(
        "users: [{username: o}]\nprojects:\n  - {path: o/p, boom: 1}\n"
    )
    with pytest.raises(ScenarioError) as caught:
        FakeService(tmp_path / "s.yaml")
    (problem,) = caught.value.details
    assert (problem.line, problem.where, problem.message) == (3, "projects[0].boom", "no good")


def test_declared_only_section_is_accepted(isolated_sections: None) -> None:
    register_project_section("extra", None, schema=schema.INT)
    FakeService({"users": [{"username": "o"}], "projects": [{"path": "o/p", "extra": 3}]})
    with pytest.raises(ScenarioError):
        FakeService({"users": [{"username": "o"}], "projects": [{"path": "o/p", "extra": "x"}]})


def test_builtin_keys_cannot_be_redefined(isolated_sections: None) -> None:
    with pytest.raises(ValueError, match="built-in"):
        register_project_section("members", None)
    register_section("projects", lambda service, data: None)


def test_registered_actions_run_in_replays(isolated_sections: None, tmp_path: Path) -> None:
    seen: list[Any] = []

    def ping(service: Any, value: Any, variables: dict[str, Any]) -> None:
        seen.append((value, dict(variables)))
        if value == "fail":
            raise AssertionError("ping failed on purpose")

    register_action("ping", ping, schema=schema.STR)
    (tmp_path / "s.yaml").write_text(
        """\
extends: default
steps:
  - request: {path: /user, as: root}
    save: {me: json.username}
  - ping: "hello ${me}"
  - ping: fail
"""
    )
    result = replay(tmp_path / "s.yaml")
    assert seen[0] == ("hello root", {"me": "root"})
    assert [o.failures for o in result.outcomes] == [[], [], ["ping failed on purpose"]]
