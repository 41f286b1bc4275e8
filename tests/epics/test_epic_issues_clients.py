"""Epic issues through python-gitlab's ``epic.issues`` manager over a live server: assign
(create), list, reorder (save) and remove (delete), and the errors it raises; and the
epics' order as a hypothesis state machine."""

from __future__ import annotations

import gitlab
import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from support.calls import body, call
from support.machines import MACHINE_SETTINGS
from support.services import stamp

from fakeservice import FakeService

from .conftest import ALICE, EPICS

WEBSITE = "/projects/acme%2Fwebsite/issues"


def test_python_gitlab_epic_issues(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ALICE)
        group = gl.groups.get("acme")
        project = gl.projects.get("acme/website")
        epic = group.epics.create({"title": "Launch"})
        made = [project.issues.create({"title": f"Issue {n}"}) for n in range(3)]

        links = [epic.issues.create({"issue_id": issue.id}) for issue in made]
        assert [link.epic_issue_id for link in links] == [1, 2, 3]
        assert links[0].issue["id"] == made[0].id
        assert links[0].epic["iid"] == epic.iid

        listed = epic.issues.list()
        assert [(i.id, i.epic_issue_id) for i in listed] == [
            (made[2].id, 3),
            (made[1].id, 2),
            (made[0].id, 1),
        ]
        assert project.issues.get(made[0].iid).epic_iid == epic.iid

        last = listed[2]
        last.move_after_id = 3  # association 1 placed before association 3
        last.save()
        assert [i.epic_issue_id for i in epic.issues.list()] == [1, 3, 2]

        with pytest.raises(gitlab.GitlabCreateError) as twice:
            epic.issues.create({"issue_id": made[0].id})
        assert twice.value.response_code == 409

        epic.issues.delete(2)
        assert [i.epic_issue_id for i in epic.issues.list()] == [1, 3]
        assert project.issues.get(made[1].iid).epic is None

        other = group.epics.create({"title": "Other"})
        moved = other.issues.create({"issue_id": made[0].id})
        assert moved.epic_issue_id == 1
        assert [i.epic_issue_id for i in epic.issues.list()] == [3]

        with pytest.raises(gitlab.GitlabDeleteError) as gone:
            epic.issues.delete(2)
        assert gone.value.response_code == 404


class EpicOrderMachine(RuleBasedStateMachine):
    """Assigns, moves and removes issues of two epics in any order; each epic's listed
    order always matches a plain list model, and nothing answers 500."""

    def __init__(self) -> None:
        super().__init__()
        self.svc = stamp("default", "default")
        for title in ("One", "Two"):
            assert call(self.svc, "POST", EPICS, ALICE, json_body={"title": title}).status == 201
        self.issue_ids: list[int] = []
        for _ in range(5):
            made = call(self.svc, "POST", WEBSITE, ALICE, json_body={"title": "i"})
            self.issue_ids.append(body(made)["id"])
        self.model: dict[int, list[int]] = {1: [], 2: []}  # epic iid -> issue ids in order
        self.link_of: dict[int, int] = {}  # issue id -> association id

    def _epic_of(self, issue_id: int) -> int | None:
        return next((iid for iid, ids in self.model.items() if issue_id in ids), None)

    @rule(issue=st.integers(0, 4), epic=st.sampled_from([1, 2]))
    def assign(self, issue: int, epic: int) -> None:
        issue_id = self.issue_ids[issue]
        answer = call(self.svc, "POST", f"{EPICS}/{epic}/issues/{issue_id}", ALICE)
        if self._epic_of(issue_id) == epic:
            assert answer.status == 409
            return
        assert answer.status == 201, answer.body
        previous = self._epic_of(issue_id)
        if previous is not None:
            self.model[previous].remove(issue_id)
        self.model[epic].insert(0, issue_id)
        self.link_of[issue_id] = body(answer)["id"]

    @rule(issue=st.integers(0, 4), other=st.integers(0, 4), after=st.booleans())
    def move(self, issue: int, other: int, after: bool) -> None:
        issue_id, other_id = self.issue_ids[issue], self.issue_ids[other]
        epic = self._epic_of(issue_id)
        if epic is None or issue_id == other_id or self._epic_of(other_id) != epic:
            return
        key = "move_before_id" if after else "move_after_id"
        answer = call(
            self.svc,
            "PUT",
            f"{EPICS}/{epic}/issues/{self.link_of[issue_id]}",
            ALICE,
            json_body={key: self.link_of[other_id]},
        )
        assert answer.status == 200, answer.body
        ids = self.model[epic]
        ids.remove(issue_id)
        at = ids.index(other_id)
        ids.insert(at + 1 if after else at, issue_id)

    @rule(issue=st.integers(0, 4))
    def remove(self, issue: int) -> None:
        issue_id = self.issue_ids[issue]
        epic = self._epic_of(issue_id)
        if epic is None:
            return
        path = f"{EPICS}/{epic}/issues/{self.link_of[issue_id]}"
        assert call(self.svc, "DELETE", path, ALICE).status == 200
        self.model[epic].remove(issue_id)

    @invariant()
    def listed_in_model_order(self) -> None:
        for epic, ids in self.model.items():
            listed = body(call(self.svc, "GET", f"{EPICS}/{epic}/issues", ALICE))
            assert [item["id"] for item in listed] == ids
            assert all(item["epic_iid"] == epic for item in listed)
        assert not self.svc.server_errors


EpicOrderMachine.TestCase.settings = MACHINE_SETTINGS
TestEpicOrderMachine = EpicOrderMachine.TestCase
