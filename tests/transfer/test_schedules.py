"""Pipeline schedules travel in exports (``tree/project/ci_pipeline_schedules.ndjson``)
and come back inactive, owned by the importing user, with their variables; a broken item
lands in ``failed_relations`` and leaves nothing half made."""

from __future__ import annotations

import json
from typing import Any

import gitlab
from support.calls import body, call

from fakeservice import FakeService
from fakeservice.transfer import archive

from .conftest import ALICE, exported, import_archive, import_status, make_archive

SCHEDULE = {"description": "nightly", "ref": "main", "cron": "0 2 * * *", "cron_timezone": "Europe/Berlin"}  # fmt: skip


def _schedule_with_variables(svc: FakeService) -> dict[str, Any]:
    made = call(svc, "POST", "/projects/1/pipeline_schedules", json_body=SCHEDULE)
    assert made.status == 201, made.body
    sid = body(made)["id"]
    for key, value, kind in (("TARGET", "prod", "env_var"), ("CONFIG", "a=1", "file")):
        answer = call(svc, "POST", f"/projects/1/pipeline_schedules/{sid}/variables",
                      json_body={"key": key, "value": value, "variable_type": kind})  # fmt: skip
        assert answer.status == 201, answer.body
    return body(call(svc, "GET", f"/projects/1/pipeline_schedules/{sid}"))


def test_schedules_are_in_the_archive(svc: FakeService) -> None:
    source = _schedule_with_variables(svc)
    contents = archive.read(exported(svc))
    lines = contents.relations["ci_pipeline_schedules"]
    assert len(lines) == 1
    item = json.loads(lines[0][1])
    assert {k: item[k] for k in SCHEDULE} == SCHEDULE
    assert item["active"] is True and item["created_at"] == source["created_at"]
    assert item["variables"] == [
        {"key": "TARGET", "value": "prod", "variable_type": "env_var"},
        {"key": "CONFIG", "value": "a=1", "variable_type": "file"},
    ]
    assert not {"id", "project_id", "owner_id", "next_run_at"} & set(item)


def test_imported_schedules_are_inactive_and_owned_by_the_importer(svc: FakeService) -> None:
    source = _schedule_with_variables(svc)
    answer = import_archive(svc, exported(svc), token=ALICE)
    assert (answer.status, body(answer)["failed_relations"]) == (201, [])
    alice = body(call(svc, "GET", "/user", token=ALICE))
    [copy] = body(call(svc, "GET", "/projects/acme%2Fcopy/pipeline_schedules"))
    detail = body(call(svc, "GET", f"/projects/acme%2Fcopy/pipeline_schedules/{copy['id']}"))
    for key in (*SCHEDULE, "created_at", "updated_at"):
        assert detail[key] == source[key], key
    assert (detail["active"], detail["next_run_at"]) == (False, None)
    assert detail["owner"]["username"] == alice["username"]
    assert [(v["key"], v["value"], v["variable_type"]) for v in detail["variables"]] == [
        ("TARGET", "prod", "env_var"), ("CONFIG", "a=1", "file")]  # fmt: skip
    turned_on = call(svc, "PUT", f"/projects/acme%2Fcopy/pipeline_schedules/{copy['id']}",
                     json_body={"active": True}, token=ALICE)  # fmt: skip
    assert turned_on.status == 200 and body(turned_on)["next_run_at"] is not None


def test_broken_items_fail_alone(svc: FakeService) -> None:
    good = {**SCHEDULE, "active": True, "variables": [{"key": "A", "value": "1"}]}
    broken = [
        {**SCHEDULE, "cron": "every day"},
        {**SCHEDULE, "cron_timezone": "Mars/Olympus"},
        {**SCHEDULE, "variables": [{"key": "A", "value": "1"}, {"key": "A", "value": "2"}]},
        {**SCHEDULE, "variables": [{"key": "A"}]},
        {**SCHEDULE, "variables": [{"key": "A", "value": "1", "variable_type": "secret"}]},
        {**SCHEDULE, "variables": "A=1"},
        {**SCHEDULE, "active": "yes"},
        {"description": "no ref or cron"},
    ]
    lines = [json.dumps(item).encode() for item in [good, *broken]]
    data = make_archive({"tree/project/ci_pipeline_schedules.ndjson": b"\n".join(lines) + b"\n"})
    import_archive(svc, data)
    status = import_status(svc)
    assert status["import_status"] == "finished"
    failed = [(f["relation_name"], f["line_number"]) for f in status["failed_relations"]]
    assert failed == [("ci_pipeline_schedules", n) for n in range(1, len(broken) + 1)]
    schedules = body(call(svc, "GET", "/projects/acme%2Fcopy/pipeline_schedules"))
    assert [s["description"] for s in schedules] == ["nightly"]
    variables = body(call(svc, "GET", f"/projects/acme%2Fcopy/pipeline_schedules/{schedules[0]['id']}"))["variables"]  # fmt: skip
    assert [v["key"] for v in variables] == ["A"]


def test_python_gitlab_sees_imported_schedules(svc: FakeService) -> None:
    _schedule_with_variables(svc)
    import_archive(svc, exported(svc), token=ALICE)
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ALICE)
        project = gl.projects.get("acme/copy")
        [schedule] = project.pipelineschedules.list(get_all=True)
        full = project.pipelineschedules.get(schedule.id)
        assert (full.description, full.cron, full.active) == ("nightly", "0 2 * * *", False)
        assert sorted(v["key"] for v in full.attributes["variables"]) == ["CONFIG", "TARGET"]
