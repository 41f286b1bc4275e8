"""Issue boards over raw HTTP and python-gitlab: project and group boards, their label
lists (create from labels, move, delete), the settings round trip, and the 4xx answers."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from support.calls import ROOT, body, call
from support.services import no_server_errors  # noqa: F401  (autouse: no 500s)

from fakeservice import FakeService

BOARDS = "/projects/1/boards"


@pytest.fixture
def svc() -> FakeService:
    return FakeService()


def post(svc: FakeService, path: str, **fields: Any) -> dict[str, Any]:
    answer = call(svc, "POST", path, json_body=fields)
    assert answer.status == 201, answer.body
    return body(answer)


def test_project_board_and_lists(svc: FakeService) -> None:
    labels = [post(svc, "/projects/1/labels", name=n, color="#00ff00")["id"] for n in "abc"]
    board = post(svc, BOARDS, name="Dev")
    assert (board["name"], board["project"]["id"], board["lists"]) == ("Dev", 1, [])
    assert (board["hide_backlog_list"], board["hide_closed_list"]) == (False, False)
    lists = f"{BOARDS}/{board['id']}/lists"
    made = [post(svc, lists, label_id=label) for label in labels]
    assert [(m["label"]["name"], m["position"]) for m in made] == [("a", 0), ("b", 1), ("c", 2)]
    again = call(svc, "POST", lists, json_body={"label_id": labels[0]})
    assert (again.status, body(again)) == (
        400,
        {"message": {"label_id": ["has already been taken"]}},
    )
    moved = call(svc, "PUT", f"{lists}/{made[2]['id']}", json_body={"position": 0})
    assert (moved.status, body(moved)["position"]) == (200, 0)
    order = [(item["label"]["name"], item["position"]) for item in body(call(svc, "GET", lists))]
    assert order == [("c", 0), ("a", 1), ("b", 2)]
    assert call(svc, "DELETE", f"{lists}/{made[0]['id']}").status == 204
    got = body(call(svc, "GET", f"{BOARDS}/{board['id']}"))
    assert [(i["label"]["name"], i["position"]) for i in got["lists"]] == [("c", 0), ("b", 1)]
    changes = {"name": "Ops", "hide_backlog_list": True, "hide_closed_list": True}
    updated = body(call(svc, "PUT", f"{BOARDS}/{board['id']}", json_body=changes))
    listed = body(call(svc, "GET", BOARDS))
    for shown in (updated, listed[0]):
        assert {k: shown[k] for k in changes} == changes
    assert call(svc, "DELETE", f"{BOARDS}/{board['id']}").status == 204
    assert body(call(svc, "GET", BOARDS)) == []
    assert call(svc, "GET", f"{lists}/{made[1]['id']}").status == 404


def test_group_boards_use_group_labels(svc: FakeService) -> None:
    label = post(svc, "/groups/acme/labels", name="team", color="#0000ff")
    board = post(svc, "/groups/acme/boards", name="Team")
    assert board["group"]["name"] == "ACME" and "project" not in board
    item = post(svc, f"/groups/acme/boards/{board['id']}/lists", label_id=label["id"])
    assert item["label"]["name"] == "team"
    # a project under acme sees the group label too
    project_board = post(svc, BOARDS, name="Dev")
    post(svc, f"{BOARDS}/{project_board['id']}/lists", label_id=label["id"])


def test_bad_input(svc: FakeService) -> None:
    other = post(svc, "/projects/2/labels", name="elsewhere", color="#000000")
    board = post(svc, BOARDS, name="Dev")
    lists = f"{BOARDS}/{board['id']}/lists"
    cases = [
        ("POST", BOARDS, {}, 400),
        ("POST", BOARDS, {"name": ""}, 400),
        ("POST", lists, {"label_id": other["id"]}, 404),
        ("POST", lists, {"label_id": 999}, 404),
        ("POST", lists, {"label_id": "x"}, 400),
        ("PUT", f"{lists}/999", {"position": 1}, 404),
        ("GET", f"{BOARDS}/999", None, 404),
        ("GET", "/projects/2/boards/" + str(board["id"]), None, 404),
    ]
    for method, path, payload, status in cases:
        answer = call(svc, method, path, json_body=payload)
        assert answer.status == status, (method, path, payload, answer.body)
    assert call(svc, "POST", BOARDS, None, json_body={"name": "x"}).status == 401
    assert [b["name"] for b in body(call(svc, "GET", BOARDS))] == ["Dev"]
    assert body(call(svc, "GET", lists)) == []


def test_python_gitlab_boards(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ROOT)
        project = gl.projects.get(1)
        first = project.labels.create({"name": "todo", "color": "#ff0000"})
        second = project.labels.create({"name": "doing", "color": "#00ff00"})
        board = project.boards.create({"name": "Flow"})
        board.lists.create({"label_id": first.id})
        doing = board.lists.create({"label_id": second.id})
        doing.position = 0
        doing.save()
        names = [item.label["name"] for item in board.lists.list(get_all=True)]
        assert names == ["doing", "todo"]
        board.name = "Flow v2"
        board.save()
        assert project.boards.get(board.id).name == "Flow v2"
        board.lists.delete(doing.id)
        fetched = project.boards.get(board.id)
        assert [item.label["name"] for item in fetched.lists.list()] == ["todo"]
        project.boards.delete(board.id)
        assert project.boards.list(get_all=True) == []
        group = gl.groups.get("acme")
        assert group.boards.create({"name": "G"}).name == "G"


def test_scenario_boards() -> None:
    from fakeservice.scenarios.loader import ScenarioError

    spec = {
        "users": [{"username": "ann", "tokens": [{"token": "ann-token"}]}],
        "groups": [{"path": "g", "members": [{"user": "ann", "role": "owner"}]}],
        "projects": [
            {
                "path": "g/p",
                "labels": [{"name": "todo"}, {"name": "doing"}],
                "boards": [{"name": "Dev", "lists": ["doing", "todo"]}],
            }
        ],
    }
    svc = FakeService(scenario=spec)
    (board,) = body(call(svc, "GET", "/projects/g%2Fp/boards", "ann-token"))
    assert [(i["label"]["name"], i["position"]) for i in board["lists"]] == [
        ("doing", 0),
        ("todo", 1),
    ]
    spec["projects"][0]["boards"] = [{"name": "Dev", "lists": ["nope"]}]
    with pytest.raises(ScenarioError):
        FakeService(scenario=spec)


def test_deleted_projects_and_groups_take_their_boards(svc: FakeService) -> None:
    from fakeservice.boards.models import boards
    from fakeservice.groups.models import delete_group, find_group

    post(svc, "/groups/acme%2Fplatform/boards", name="Team")
    post(svc, "/projects/1/boards", name="Dev")
    kept = post(svc, "/groups/acme/boards", name="Kept")
    group = find_group(svc.store, "acme/platform")
    assert group is not None
    delete_group(svc.store, group)
    assert call(svc, "DELETE", "/projects/1").status in (202, 204)
    remaining = [b.name for b in boards(svc.store).select()]
    assert "Team" not in remaining and kept["name"] in remaining
