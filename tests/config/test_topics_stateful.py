"""Topic counts are kept, not computed on read: a state machine writes project topics and
visibilities, deletes and merges topics through the API, and checks after every step that
each topic's counts equal a recount from the projects, that projects name topics exactly
as the topics spell themselves, and that the list is ordered by non-private projects."""

from __future__ import annotations

from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from support.calls import body, call_as

from fakeservice import FakeService
from fakeservice.projects.models import projects
from fakeservice.topics.models import topics

from .conftest import WORLD

PROJECTS = ("infra%2Fsite", "infra%2Fnet%2Frouter", "olga%2Fnotes")
NAMES = st.lists(st.sampled_from(["alpha", "Alpha", "beta", "gamma", "GAMMA"]), max_size=3)


class TopicMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.svc = FakeService(WORLD)

    def _ok(self, method: str, path: str, payload: Any = None, status: int = 200) -> Any:
        response = call_as(self.svc, method, path, "root", body=payload)
        assert response.status == status, response.body
        return response

    @rule(project=st.sampled_from(PROJECTS), names=NAMES)
    def set_topics(self, project: str, names: list[str]) -> None:
        self._ok("PUT", f"/projects/{project}", {"topics": names})

    @rule(
        project=st.sampled_from(PROJECTS[:2]), visibility=st.sampled_from(["private", "internal"])
    )
    def set_visibility(self, project: str, visibility: str) -> None:
        self._ok("PUT", f"/projects/{project}", {"visibility": visibility})

    @rule(data=st.data())
    def delete_topic(self, data: st.DataObject) -> None:
        ids = sorted(topics(self.svc.store).rows)
        if ids:
            self._ok("DELETE", f"/topics/{data.draw(st.sampled_from(ids))}", status=204)

    @rule(data=st.data())
    def merge_topics(self, data: st.DataObject) -> None:
        ids = sorted(topics(self.svc.store).rows)
        if len(ids) >= 2:
            source, target = data.draw(st.permutations(ids))[:2]
            payload = {"source_topic_id": source, "target_topic_id": target}
            self._ok("POST", "/topics/merge", payload, status=201)

    @invariant()
    def counts_match_projects(self) -> None:
        all_projects = list(projects(self.svc.store))
        spelled = {t.name for t in topics(self.svc.store)}
        for project in all_projects:
            assert set(project.topics) <= spelled
            assert len({t.lower() for t in project.topics}) == len(project.topics)
        for topic in topics(self.svc.store):
            tagged = [p for p in all_projects if topic.name in p.topics]
            assert topic.total_projects_count == len(tagged)
            public = [p for p in tagged if p.visibility != "private"]
            assert topic.non_private_projects_count == len(public)
        listed = body(call_as(self.svc, "GET", "/topics", None, per_page="100"))
        table = topics(self.svc.store).rows
        keys = [(-table[t["id"]].non_private_projects_count, t["id"]) for t in listed]
        assert keys == sorted(keys) and len(listed) == len(table)


TopicMachine.TestCase.settings = settings(max_examples=25, stateful_step_count=15, deadline=None)
test_topic_counts = TopicMachine.TestCase
