"""The owner-only namespace counters are stored, not computed on read: a state machine
creates, deletes and moves groups and projects, adds and removes group and project
members, changes repository sizes, undoes everything (the per-test reset) and restores
snapshots, and checks after every step that every namespace's stored totals equal a
recount from the records, and that ``GET /namespaces/:id`` shows them."""

from __future__ import annotations

from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from support.calls import body, call_as

from fakeservice import FakeService
from fakeservice.groups.models import create_group, delete_group, descendants, namespaces
from fakeservice.members.models import NAMESPACE, PROJECT, add_member, find_member, members
from fakeservice.namespaces.totals import recount, stored
from fakeservice.projects.models import create_project, delete_project, projects

from .conftest import WORLD

PICK = st.integers(min_value=0, max_value=1_000)
LEVELS = st.sampled_from([10, 30, 50])


def _nth(records: list[Any], pick: int) -> Any:
    return records[pick % len(records)]


class TotalsMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.svc = FakeService(WORLD)
        self.store = self.svc.store
        self.made = 0
        self.saved: bytes | None = None

    # -- what there is ----------------------------------------------------------------------
    def groups(self) -> list[Any]:
        return [ns for ns in namespaces(self.store) if ns.is_group]

    def spaces(self) -> list[Any]:
        return list(namespaces(self.store))

    def projects(self) -> list[Any]:
        return list(projects(self.store))

    def user_ids(self) -> list[int]:
        return sorted(self.store.tables["users"].rows)

    def _name(self) -> str:
        self.made += 1
        return f"n{self.made}"

    # -- groups -----------------------------------------------------------------------------
    @rule(pick=PICK, top=st.booleans())
    def create_group(self, pick: int, top: bool) -> None:
        parent = None if top or not self.groups() else _nth(self.groups(), pick)
        name = self._name()
        create_group(self.store, self.svc.now(), name=name, path=name, parent=parent)

    @precondition(lambda self: len(self.groups()) > 0)
    @rule(pick=PICK)
    def delete_group(self, pick: int) -> None:
        delete_group(self.store, _nth(self.groups(), pick))

    @precondition(lambda self: len(self.groups()) > 0)
    @rule(pick=PICK, to=PICK)
    def move_group(self, pick: int, to: int) -> None:
        group = _nth(self.groups(), pick)
        below = {group.id, *(d.id for d in descendants(self.store, group))}
        targets = [g for g in self.groups() if g.id not in below]
        parent = _nth(targets, to).id if targets and to % 4 else None
        namespaces(self.store).update(group, parent_id=parent)

    # -- projects ---------------------------------------------------------------------------
    @rule(pick=PICK)
    def create_project(self, pick: int) -> None:
        space = _nth(self.spaces(), pick)
        create_project(self.store, self.svc.now(), namespace=space, creator_id=1, path=self._name())

    @precondition(lambda self: len(projects(self.store)) > 0)
    @rule(pick=PICK)
    def delete_project(self, pick: int) -> None:
        delete_project(self.store, _nth(self.projects(), pick))

    @precondition(lambda self: len(projects(self.store)) > 0)
    @rule(pick=PICK, to=PICK)
    def move_project(self, pick: int, to: int) -> None:
        projects(self.store).update(
            _nth(self.projects(), pick), namespace_id=_nth(self.spaces(), to).id
        )

    @precondition(lambda self: len(projects(self.store)) > 0)
    @rule(pick=PICK, size=st.integers(min_value=0, max_value=10**9))
    def resize(self, pick: int, size: int) -> None:
        project = _nth(self.projects(), pick)
        project.statistics["repository_size"] = size
        projects(self.store).reindex(project)

    # -- members ----------------------------------------------------------------------------
    @rule(pick=PICK, user=PICK, level=LEVELS, in_project=st.booleans())
    def add_member(self, pick: int, user: int, level: int, in_project: bool) -> None:
        if (in_project or not self.groups()) and len(projects(self.store)):
            kind, source = PROJECT, _nth(self.projects(), pick).id
        elif not self.groups():
            return
        else:
            kind, source = NAMESPACE, _nth(self.groups(), pick).id
        user_id = _nth(self.user_ids(), user)
        found = find_member(self.store, kind, source, user_id)
        if found is not None:
            members(self.store).update(found, access_level=level)
            return
        add_member(
            self.store, self.svc.now(), kind=kind, source_id=source, user_id=user_id,
            access_level=level,
        )  # fmt: skip

    @precondition(lambda self: len(members(self.store)) > 0)
    @rule(pick=PICK)
    def remove_member(self, pick: int) -> None:
        members(self.store).delete(_nth(list(members(self.store)), pick))

    # -- undo and snapshots -----------------------------------------------------------------
    @rule()
    def reset(self) -> None:
        self.svc.reset()
        self.saved = None

    @rule()
    def save(self) -> None:
        self.saved = self.svc.snapshot()

    @precondition(lambda self: self.saved is not None)
    @rule()
    def restore(self) -> None:
        assert self.saved is not None
        self.svc.restore(self.saved)

    # -- the property -----------------------------------------------------------------------
    @invariant()
    def stored_equals_recount(self) -> None:
        for ns in namespaces(self.store):
            assert stored(self.store, ns) == recount(self.store, ns), ns.full_path

    @invariant()
    def shown_as_stored(self) -> None:
        if not self.groups():
            return
        top = self.groups()[0]
        answer = body(call_as(self.svc, "GET", f"/namespaces/{top.id}", "root"))
        totals = recount(self.store, top)
        assert answer["projects_count"] == totals.projects
        assert answer["root_repository_size"] == totals.repository_size
        assert answer["members_count_with_descendants"] == len(totals.group_users)
        assert answer["billable_members_count"] == len(totals.billable)


TestTotals = TotalsMachine.TestCase
TestTotals.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)


def test_totals_follow_an_http_session() -> None:
    """Creating a subgroup, a project and members through the API shows in the owner's
    counters at once; deleting the project takes it back out; the reset restores them."""
    svc = FakeService(WORLD)
    before = body(call_as(svc, "GET", "/namespaces/infra", "root"))
    made = call_as(svc, "POST", "/groups", "root", body={"path": "deep", "name": "Deep", "parent_id": before["id"]})  # fmt: skip
    assert made.status == 201, made.body
    deep = body(made)["id"]
    project = call_as(svc, "POST", "/projects", "root", body={"path": "tool", "namespace_id": deep})  # fmt: skip
    assert project.status == 201, project.body
    pid = body(project)["id"]
    otto = body(call_as(svc, "GET", "/users?username=otto", "root"))[0]["id"]
    added = call_as(svc, "POST", f"/projects/{pid}/members", "root", body={"user_id": otto, "access_level": 30})  # fmt: skip
    assert added.status == 201, added.body
    after = body(call_as(svc, "GET", "/namespaces/infra", "root"))
    assert after["projects_count"] == before["projects_count"] + 1
    assert after["billable_members_count"] == before["billable_members_count"] + 2  # otto, root
    assert after["members_count_with_descendants"] == before["members_count_with_descendants"] + 1
    gone = call_as(svc, "DELETE", f"/projects/{pid}", "root")
    assert gone.status == 202, gone.body
    svc.reset()
    assert body(call_as(svc, "GET", "/namespaces/infra", "root")) == before


def test_a_state_without_totals_gets_them_on_first_read() -> None:
    from fakeservice.namespaces.totals import MEMBER_SHARES, PARENTS, PROJECT_SHARES, TOTALS

    svc = FakeService(WORLD)
    before = body(call_as(svc, "GET", "/namespaces/infra", "root"))
    for key in (TOTALS, PROJECT_SHARES, MEMBER_SHARES, PARENTS):
        del svc.store.extras[key]
    assert body(call_as(svc, "GET", "/namespaces/infra", "root")) == before
    for ns in namespaces(svc.store):
        assert stored(svc.store, ns) == recount(svc.store, ns)
