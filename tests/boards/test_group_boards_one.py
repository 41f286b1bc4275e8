"""One group board and its label lists: get, update, list, get, move and delete a list
(and one list of a project board), over raw HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
import pytest
from support.calls import ROOT, body, call
from support.services import no_server_errors  # noqa: F401  (autouse: no 500s)

from fakeservice import FakeService

from .test_boards import post

GROUP = "/groups/acme/boards"


@pytest.fixture
def svc() -> FakeService:
    return FakeService()


def test_group_board_and_its_lists(svc: FakeService) -> None:
    labels = [post(svc, "/groups/acme/labels", name=n, color="#0000ff")["id"] for n in "xy"]
    board = post(svc, GROUP, name="Team")
    one = f"{GROUP}/{board['id']}"
    lists = f"{one}/lists"
    made = [post(svc, lists, label_id=label) for label in labels]
    got = call(svc, "GET", one)
    assert got.status == 200
    shown = body(got)
    assert (shown["id"], shown["name"], shown["group"]) == (
        board["id"],
        "Team",
        {"id": 46, "name": "ACME", "web_url": "http://fakeservice.test/groups/acme"},
    )
    assert [(i["label"]["name"], i["position"]) for i in shown["lists"]] == [("x", 0), ("y", 1)]
    changes = {"name": "Ops", "hide_backlog_list": True, "hide_closed_list": True}
    updated = call(svc, "PUT", one, json_body=changes)
    assert updated.status == 200
    for seen in (body(updated), body(call(svc, "GET", one))):
        assert {k: seen[k] for k in changes} == changes
    listed = call(svc, "GET", lists)
    assert listed.status == 200
    assert [(i["id"], i["label"]["name"]) for i in body(listed)] == [
        (m["id"], n) for m, n in zip(made, "xy", strict=True)
    ]
    item = call(svc, "GET", f"{lists}/{made[1]['id']}")
    assert (item.status, body(item)) == (200, body(listed)[1])
    assert (body(item)["label"]["id"], body(item)["position"]) == (labels[1], 1)
    moved = call(svc, "PUT", f"{lists}/{made[1]['id']}", json_body={"position": 0})
    assert (moved.status, body(moved)["position"]) == (200, 0)
    order = [(i["label"]["name"], i["position"]) for i in body(call(svc, "GET", lists))]
    assert order == [("y", 0), ("x", 1)]
    assert call(svc, "DELETE", f"{lists}/{made[0]['id']}").status == 204
    assert [i["label"]["name"] for i in body(call(svc, "GET", lists))] == ["y"]
    assert call(svc, "DELETE", one).status == 204
    assert call(svc, "GET", one).status == 404


def test_one_list_of_a_project_board(svc: FakeService) -> None:
    label = post(svc, "/projects/1/labels", name="todo", color="#00ff00")
    board = post(svc, "/projects/1/boards", name="Dev")
    made = post(svc, f"/projects/1/boards/{board['id']}/lists", label_id=label["id"])
    got = call(svc, "GET", f"/projects/1/boards/{board['id']}/lists/{made['id']}")
    assert (got.status, body(got)) == (200, made)
    assert (body(got)["label"]["name"], body(got)["position"]) == ("todo", 0)


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token=ROOT, session=svc.requests_session()
    )
    group = gl.groups.get("acme")
    label = group.labels.create({"name": "g", "color": "#123456"})
    board = group.boards.create({"name": "G"})
    fetched = group.boards.get(board.id)
    assert (fetched.name, fetched.hide_backlog_list) == ("G", False)
    fetched.name = "G2"
    fetched.save()
    assert group.boards.get(board.id).name == "G2"
    made = fetched.lists.create({"label_id": label.id})
    item = fetched.lists.get(made.id)
    assert item.label["name"] == "g"
    item.position = 0
    item.save()
    assert [i.id for i in fetched.lists.list(get_all=True)] == [made.id]
    fetched.lists.delete(made.id)
    group.boards.delete(board.id)
    assert group.boards.list(get_all=True) == []
