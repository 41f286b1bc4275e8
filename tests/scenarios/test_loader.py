"""The loader: what it builds, ``extends``, generated records, area sections, and that a
bad scenario never half-loads."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from fakeservice import FakeService
from fakeservice.areas import AREAS
from fakeservice.composition import Composition
from fakeservice.scenarios import schema
from fakeservice.scenarios.loader import ScenarioError, read_scenario
from fakeservice.scenarios.replay import replay


def with_area(register: Any) -> list[Any]:
    """The default areas plus a test's own (its ``register(setup)``)."""
    return [*AREAS, register]


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


def test_area_sections_plug_in(tmp_path: Path) -> None:
    calls: list[Any] = []

    def register(setup: Composition) -> None:
        setup.scenario_section(
            "widgets",
            lambda service, data: calls.append(("top", data["widgets"])),
            schema=schema.ListOf(schema.STR),
        )
        setup.project_section(
            "memos",
            lambda service, project, value, where: calls.append(
                ("project", project.path, value, where)
            ),
        )
        setup.group_section(
            "stickers",
            lambda service, group, value, where: calls.append(("group", group.path, value, where)),
        )

    areas = with_area(register)
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
    FakeService(tmp_path / "s.yaml", areas=areas)
    assert calls == [
        ("top", ["w1"]),
        ("group", "g", ["bug"], "groups[0].stickers"),
        ("project", "a", "first", "projects[0].memos"),
        ("project", "b", "second", "projects[1].memos"),
    ]
    (tmp_path / "bad.yaml").write_text("widgets: [[nested]]\n")
    with pytest.raises(ScenarioError) as caught:
        FakeService(tmp_path / "bad.yaml", areas=areas)
    assert caught.value.details[0].line == 1
    assert caught.value.details[0].where == "widgets[0]"
    with pytest.raises(ScenarioError, match="widgets"):  # not a key of the default areas
        FakeService(tmp_path / "s.yaml")


def test_section_loader_errors_name_the_record(tmp_path: Path) -> None:
    def explode(service: Any, project: Any, value: Any, where: str) -> None:
        raise ScenarioError([(where, "no good")])

    def register(setup: Composition) -> None:
        setup.project_section("boom", explode)

    (tmp_path / "s.yaml").write_text(
        "users: [{username: o}]\nprojects:\n  - {path: o/p, boom: 1}\n"
    )
    with pytest.raises(ScenarioError) as caught:
        FakeService(tmp_path / "s.yaml", areas=with_area(register))
    (problem,) = caught.value.details
    assert (problem.line, problem.where, problem.message) == (3, "projects[0].boom", "no good")


def test_declared_only_section_is_accepted() -> None:
    def register(setup: Composition) -> None:
        setup.project_section("extra", None, schema=schema.INT)

    areas = with_area(register)
    FakeService(
        {"users": [{"username": "o"}], "projects": [{"path": "o/p", "extra": 3}]}, areas=areas
    )
    with pytest.raises(ScenarioError):
        FakeService(
            {"users": [{"username": "o"}], "projects": [{"path": "o/p", "extra": "x"}]},
            areas=areas,
        )


def test_builtin_keys_cannot_be_redefined() -> None:
    setup = Composition()
    with pytest.raises(ValueError, match="built-in"):
        setup.project_section("members", None)
    setup.scenario_section("projects", lambda service, data: None)


def test_registered_actions_run_in_replays(tmp_path: Path) -> None:
    seen: list[Any] = []

    def ping(service: Any, value: Any, variables: dict[str, Any]) -> None:
        seen.append((value, dict(variables)))
        if value == "fail":
            raise AssertionError("ping failed on purpose")

    def register(setup: Composition) -> None:
        setup.replay_action("ping", ping, schema=schema.STR)

    areas = with_area(register)
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
    result = replay(tmp_path / "s.yaml", service_factory=lambda: FakeService(None, areas=areas))
    assert seen[0] == ("hello root", {"me": "root"})
    assert [o.failures for o in result.outcomes] == [[], [], ["ping failed on purpose"]]
