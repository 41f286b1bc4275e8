"""The export and import machines as hypothesis state machines (any interleaving of
requests, control-plane events, background modes and clock moves keeps the documented
statuses consistent and never answers 500), and the ``exports``/``imports`` scenario
sections."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import invariant, rule
from support.calls import ROOT, body, call
from support.machines import MACHINE_SETTINGS, BackgroundMachine
from support.services import stamp

from fakeservice import FakeService
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.transfer.machines import EXPORT_MACHINE, IMPORT_MACHINE

from .conftest import exported, import_archive

STATUSES = {"none", "queued", "started", "finished", "failed", "regeneration_in_progress"}


class ExportMachine(BackgroundMachine):
    def __init__(self) -> None:
        super().__init__()
        self.svc = stamp("default", "default")
        self.had_file = False

    @rule()
    def request_export(self) -> None:
        assert call(self.svc, "POST", "/projects/1/export").status == 202

    @rule(event=st.sampled_from(EXPORT_MACHINE.events()))
    def fire(self, event: str) -> None:
        answer = call(self.svc, "POST", "/_fake/exports/1/fire", None, json_body={"event": event})
        assert answer.status in (200, 404, 409)

    @invariant()
    def consistent(self) -> None:
        status = body(call(self.svc, "GET", "/projects/1/export"))
        download = call(self.svc, "GET", "/projects/1/export/download")
        assert status["export_status"] in STATUSES
        assert ("_links" in status) == (status["export_status"] == "finished")
        if status["export_status"] in ("finished", "regeneration_in_progress"):
            assert download.status == 200
            self.had_file = True
        if download.status == 200:
            assert download.body[:2] == b"\x1f\x8b"
        elif self.had_file:
            pytest.fail("an export file disappeared")
        assert not self.svc.server_errors


class ImportMachine(BackgroundMachine):
    def __init__(self) -> None:
        super().__init__()
        self.svc = stamp("default", "default")
        self.archive = exported(self.svc)
        self.ids: list[int] = []

    @rule(broken=st.booleans())
    def request_import(self, broken: bool) -> None:
        data = self.archive[: len(self.archive) // 2] if broken else self.archive
        answer = import_archive(self.svc, data, path=f"copy-{len(self.ids)}", token=ROOT)
        assert answer.status == 201
        self.ids.append(body(answer)["id"])

    @rule(index=st.integers(0, 4), event=st.sampled_from(IMPORT_MACHINE.events()))
    def fire(self, index: int, event: str) -> None:
        if index < len(self.ids):
            path = f"/_fake/imports/{self.ids[index]}/fire"
            assert call(self.svc, "POST", path, None, json_body={"event": event}).status in (
                200,
                409,
            )

    @invariant()
    def consistent(self) -> None:
        for project_id in self.ids:
            status = body(call(self.svc, "GET", f"/projects/{project_id}/import"))
            assert status["import_status"] in IMPORT_MACHINE.states
            assert ("import_error" in status) == (status["import_status"] == "failed")
            project = body(call(self.svc, "GET", f"/projects/{project_id}"))
            assert project["import_status"] == status["import_status"]
            assert len(status["failed_relations"]) <= 100
        assert not self.svc.server_errors


ExportMachine.TestCase.settings = MACHINE_SETTINGS
ImportMachine.TestCase.settings = MACHINE_SETTINGS
TestExportMachine = ExportMachine.TestCase
TestImportMachine = ImportMachine.TestCase

BASE: dict[str, Any] = {
    "users": [{"username": "root", "admin": True, "tokens": [{"token": ROOT}]}],
    "groups": [{"path": "g"}],
    "projects": [{"path": "g/p", "files": {"a.txt": "a\n"}}, {"path": "g/q"}],
}


def test_scenario_exports_and_imports() -> None:
    svc = FakeService({
        **BASE,
        "exports": [{"project": "g/p", "description": "Nightly"}, {"project": "g/q", "state": "started"}],
        "imports": [{"project": "g/q", "state": "failed", "import_error": "Broken"}],
    })  # fmt: skip
    finished = body(call(svc, "GET", "/projects/g%2Fp/export"))
    assert (finished["export_status"], finished["description"]) == ("finished", "Nightly")
    assert call(svc, "GET", "/projects/g%2Fp/export/download").body[:2] == b"\x1f\x8b"
    assert body(call(svc, "GET", "/projects/g%2Fq/export"))["export_status"] == "started"
    failed = body(call(svc, "GET", "/projects/g%2Fq/import"))
    assert (failed["import_status"], failed["import_error"]) == ("failed", "Broken")
    assert body(call(svc, "GET", "/projects/g%2Fp/import"))["import_status"] == "none"


@pytest.mark.parametrize(
    "extra",
    [
        {"exports": [{"project": "g/nope"}]},
        {"exports": [{"project": "g/p", "state": "done"}]},
        {"imports": [{"project": "g/p"}, {"project": "g/p"}]},
        {"geo_nodes": [{"name": "n", "url": "nope"}]},
    ],
)
def test_scenario_refuses_bad_records(extra: dict[str, Any]) -> None:
    with pytest.raises(ScenarioError):
        FakeService({**BASE, **extra})
