"""Epics through python-gitlab (``group.epics.*``, the to-do through ``http_post``) over a live server,
and the epic machine as a hypothesis state machine."""

from __future__ import annotations

import gitlab
import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from support.calls import ROOT, body, call
from support.machines import MACHINE_SETTINGS
from support.services import stamp

from fakeservice import FakeService
from fakeservice.web.http import Response

from .conftest import ALICE, EPICS


def test_python_gitlab_group_epics(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ALICE)
        group = gl.groups.get("acme")
        epic = group.epics.create(
            {"title": "Launch", "labels": ["web", "launch"], "description": "d"}
        )
        assert (epic.iid, epic.group_id, epic.labels) == (1, group.id, ["launch", "web"])
        epic.title = "Launch v2"
        epic.labels = ["web"]
        epic.save()
        fetched = group.epics.get(1)
        assert (fetched.title, fetched.labels) == ("Launch v2", ["web"])
        group.epics.update(1, {"state_event": "close"})
        assert group.epics.get(1).state == "closed"
        group.epics.create({"title": "Second"})
        listed = group.epics.list(get_all=True, order_by="title", sort="asc")
        assert [e.title for e in listed] == ["Launch v2", "Second"]
        assert [e.title for e in group.epics.list(search="second")] == ["Second"]
        todo_path = f"/groups/{group.id}/epics/1/todo"  # GroupEpic has no todo() helper
        assert gl.http_post(todo_path)["target_type"] == "Epic"
        with pytest.raises(gitlab.GitlabHttpError) as again:
            gl.http_post(todo_path)
        assert again.value.response_code == 304
        fetched.delete()
        with pytest.raises(gitlab.GitlabGetError) as gone:
            group.epics.get(1)
        assert gone.value.response_code == 404
        free = gitlab.Gitlab(url, private_token=ROOT)
        assert free.groups.get("acme").epics.list(get_all=True)[0].title == "Second"


class EpicMachine(RuleBasedStateMachine):
    """Creates, closes, reopens, nests and deletes epics in any order."""

    def __init__(self) -> None:
        super().__init__()
        self.svc = stamp("default", "default")
        self.iids: list[int] = []

    @rule(confidential=st.booleans(), parent=st.integers(0, 6))
    def create(self, confidential: bool, parent: int) -> None:
        payload: dict[str, object] = {"title": "e", "confidential": confidential}
        if parent:
            payload["parent_id"] = parent
        answer = call(self.svc, "POST", EPICS, ALICE, json_body=payload)
        assert answer.status in (201, 400)
        if answer.status == 201:
            self.iids.append(body(answer)["iid"])

    def _edit(self, index: int, **payload: object) -> Response | None:
        if index >= len(self.iids):
            return None
        return call(self.svc, "PUT", f"{EPICS}/{self.iids[index]}", ALICE, json_body=payload)

    @rule(index=st.integers(0, 5), event=st.sampled_from(["close", "reopen"]))
    def change_state(self, index: int, event: str) -> None:
        answer = self._edit(index, state_event=event)
        if answer is not None:
            assert answer.status == 200
            assert body(answer)["state"] == ("closed" if event == "close" else "opened")

    @rule(index=st.integers(0, 5), parent=st.integers(1, 6))
    def nest(self, index: int, parent: int) -> None:
        answer = self._edit(index, parent_id=parent)
        assert answer is None or answer.status in (200, 400)

    @rule(index=st.integers(0, 5))
    def delete(self, index: int) -> None:
        if index < len(self.iids):
            assert call(self.svc, "DELETE", f"{EPICS}/{self.iids.pop(index)}", ALICE).status == 204

    @invariant()
    def consistent(self) -> None:
        every = body(call(self.svc, "GET", EPICS, ALICE, query={"per_page": 100}))
        opened = body(
            call(self.svc, "GET", EPICS, ALICE, query={"per_page": 100, "state": "opened"})
        )
        closed = body(
            call(self.svc, "GET", EPICS, ALICE, query={"per_page": 100, "state": "closed"})
        )
        assert len(every) == len(opened) + len(closed) == len(self.iids)
        ids = {e["id"] for e in every}
        for epic in every:
            assert (epic["closed_at"] is not None) == (epic["state"] == "closed")
            assert epic["parent_id"] is None or epic["parent_id"] in ids
            assert epic["parent_id"] != epic["id"]
        assert not self.svc.server_errors


EpicMachine.TestCase.settings = MACHINE_SETTINGS
TestEpicMachine = EpicMachine.TestCase
