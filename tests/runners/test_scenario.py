"""The ``runners`` scenario key: it replaces the built-in instance runner, declares
instance, group and project runners with tags, pause and contact times, and is checked
by ``fakeservice check`` with lines and plain messages."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from support.calls import call
from support.services import track

from fakeservice import FakeService
from fakeservice.runners.models import runners
from fakeservice.scenarios.check import check
from fakeservice.scenarios.problems import ScenarioError

WORLD = """\
users:
  - {username: root, admin: true, tokens: [{token: root-token}]}
groups:
  - path: acme
projects:
  - path: acme/app
    files:
      .gitlab-ci.yml: |
        build: {script: [make], tags: [docker]}
  - path: acme/other
runners:
  - {description: shared, paused: true}
  - {type: group, group: acme, description: acme docker, tags: [docker], run_untagged: false}
  - {type: project, project: acme/app, projects: [acme/other], token: app-runner,
     access_level: ref_protected, maximum_timeout: 3600, contacted_at: null,
     maintenance_note: spare, version: 16.11.0, name: gitlab-runner, locked: true}
"""


def test_declared_runners_replace_the_builtin_one() -> None:
    svc = track(FakeService(yaml.safe_load(WORLD)))
    listed = call(svc, "GET", "/runners/all").json()
    assert [
        (r["id"], r["description"], r["runner_type"], r["paused"], r["status"]) for r in listed
    ] == [
        (1, "shared", "instance_type", True, "online"),
        (2, "acme docker", "group_type", False, "online"),
        (3, "", "project_type", False, "never_contacted"),
    ]
    third = call(svc, "GET", "/runners/3").json()
    assert [p["path_with_namespace"] for p in third["projects"]] == ["acme/app", "acme/other"]
    assert (third["access_level"], third["maximum_timeout"], third["locked"]) == (
        "ref_protected", 3600, True,
    )  # fmt: skip
    assert (third["version"], third["name"], third["maintenance_note"]) == (
        "16.11.0", "gitlab-runner", "spare",
    )  # fmt: skip
    verified = call(svc, "POST", "/runners/verify", token=None, json_body={"token": "app-runner"})
    assert verified.json()["id"] == 3
    svc.runner.set_mode("instant")
    made = call(svc, "POST", "/projects/acme%2Fapp/pipeline", json_body={"ref": "main"}).json()
    jobs = call(svc, "GET", f"/projects/acme%2Fapp/pipelines/{made['id']}/jobs").json()
    assert [(j["status"], j["runner"]["id"]) for j in jobs] == [("success", 2)]


def test_contact_times_in_every_yaml_form() -> None:
    world = yaml.safe_load(
        WORLD.split("runners:")[0]
        + """runners:
  - {contacted_at: 2026-01-01T08:00:00Z}
  - {contacted_at: '2026-01-01T08:00:00+01:00'}
  - {contacted_at: 2026-01-01 08:30:00}
  - {contacted_at: 2025-12-01}
"""
    )
    svc = track(FakeService(world))
    listed = call(svc, "GET", "/runners/all").json()
    assert [r["status"] for r in listed] == ["online", "online", "online", "offline"]
    assert [call(svc, "GET", f"/runners/{r['id']}").json()["contacted_at"] for r in listed] == [
        "2026-01-01T08:00:00Z",
        "2026-01-01T07:00:00Z",
        "2026-01-01T08:30:00Z",
        "2025-12-01T00:00:00Z",
    ]


def test_a_scenario_without_runners_keeps_the_builtin_runner() -> None:
    svc = track(FakeService(None))
    assert [(r.id, r.description) for r in runners(svc.store)] == [(1, "fakeservice runner")]
    empty = track(FakeService({"runners": [], **yaml.safe_load(WORLD.split("runners:")[0])}))
    assert call(empty, "GET", "/runners/all").json() == []


@pytest.mark.parametrize(
    ("replace", "by", "message"),
    [
        ("group: acme,", "group: nowhere,", "a group runner needs a known group"),
        ("projects: [acme/other]", "projects: [acme/gone]", "unknown project 'acme/gone'"),
        ("maximum_timeout: 3600", "maximum_timeout: 60", "needs to be at least 10 minutes"),
        ("{description: shared, paused: true}", "{token: app-runner}", "used twice"),
    ],
)
def test_bad_runners_are_scenario_errors(replace: str, by: str, message: str) -> None:
    assert replace in WORLD
    with pytest.raises(ScenarioError, match=message):
        FakeService(yaml.safe_load(WORLD.replace(replace, by)))


def test_check_reports_lines(tmp_path: Path) -> None:
    text = WORLD.replace("type: group,", "type: grup,").replace(
        "description: shared", "projects: [a]"
    )
    path = tmp_path / "runners.yaml"
    path.write_text(text, encoding="utf-8")
    found = [(p.line, p.where, p.message) for p in check(path)]
    assert found == [
        (12, "runners[0].projects", "only used with project"),
        (
            13,
            "runners[1].type",
            "must be one of instance, group, project (got 'grup') (did you mean 'group'?)",
        ),
    ]
