"""Forks: ``POST /projects/:id/fork`` (a real copy of the repository), the forks list, the
fork relation endpoints, their errors, and the ``forked_from`` scenario key."""

from __future__ import annotations

import gitlab
import pytest
from support.calls import call_as

from fakeservice import FakeService
from lifecycle.helpers import user_id

APP = "/projects/studio%2Fapp"


def _fork(svc: FakeService, who: str, project: str = APP, **body: object) -> dict:
    found = call_as(svc, "POST", f"{project}/fork", who, body)
    assert found.status == 201, found.json()
    return found.json()


def test_a_fork_copies_the_repository_and_names_its_upstream(svc: FakeService) -> None:
    upstream = call_as(svc, "GET", APP, "frank").json()
    fork = _fork(svc, "frank")
    assert fork["path_with_namespace"] == "frank/app"
    assert fork["name"] == "App"
    assert fork["import_status"] == "finished"
    assert fork["forked_from_project"]["id"] == upstream["id"]
    assert fork["forked_from_project"]["path_with_namespace"] == "studio/app"
    assert fork["mr_default_target_self"] is False
    assert fork["empty_repo"] is False
    assert fork["default_branch"] == "main"
    mine = call_as(svc, "GET", f"/projects/{fork['id']}/repository/branches/main", "frank").json()
    theirs = call_as(svc, "GET", f"{APP}/repository/branches/main", "frank").json()
    assert mine["commit"]["id"] == theirs["commit"]["id"]
    assert mine["protected"] is True
    assert call_as(svc, "GET", APP, "frank").json()["forks_count"] == 1
    raw = call_as(
        svc, "GET", f"/projects/{fork['id']}/repository/files/app.py/raw", "frank", ref="main"
    )
    assert raw.body == b"print('app')\n"
    assert "forked_from_project" not in call_as(svc, "GET", APP, "frank").json()


def test_a_commit_in_the_fork_leaves_the_upstream_alone(svc: FakeService) -> None:
    fork = _fork(svc, "frank")
    commit = {
        "branch": "main",
        "commit_message": "fork only",
        "actions": [{"action": "create", "file_path": "fork.txt", "content": "x"}],
    }
    assert (
        call_as(svc, "POST", f"/projects/{fork['id']}/repository/commits", "frank", commit).status
        == 201
    )
    tree = call_as(svc, "GET", f"{APP}/repository/tree", "frank").json()
    assert "fork.txt" not in [entry["name"] for entry in tree]


def test_fork_parameters_name_path_description_visibility_branches(svc: FakeService) -> None:
    call_as(svc, "POST", f"{APP}/repository/branches", "root", branch="extra", ref="main")
    fork = _fork(
        svc,
        "gina",
        namespace_path="studio",
        path="app-copy",
        name="App copy",
        description="mine",
        visibility="internal",
        branches="extra",
        mr_default_target_self=True,
    )
    assert fork["path_with_namespace"] == "studio/app-copy"
    assert (fork["name"], fork["description"], fork["visibility"]) == (
        "App copy",
        "mine",
        "internal",
    )
    assert fork["default_branch"] == "extra"
    assert fork["mr_default_target_self"] is True
    names = [
        b["name"]
        for b in call_as(svc, "GET", f"/projects/{fork['id']}/repository/branches", "gina").json()
    ]
    assert names == ["extra"]
    by_id = _fork(svc, "gina", namespace_id=fork["namespace"]["id"], path="third", name="Third")
    assert by_id["namespace"]["full_path"] == "studio"


def test_name_or_path_taken_is_409_with_the_model_messages(svc: FakeService) -> None:
    _fork(svc, "frank")
    again = call_as(svc, "POST", f"{APP}/fork", "frank", {})
    assert again.status == 409
    assert again.json() == {
        "message": {"path": ["has already been taken"], "name": ["has already been taken"]}
    }
    assert call_as(svc, "GET", APP, "frank").json()["forks_count"] == 1


def test_a_fork_is_no_more_visible_than_its_upstream(svc: FakeService) -> None:
    found = call_as(
        svc, "POST", "/projects/acme%2Fplatform%2Fapi/fork", "alice", {"visibility": "public"}
    )
    assert found.status == 409
    assert found.json() == {
        "message": {
            "visibility_level": [
                "public is not allowed since the fork source project has lower visibility."
            ]
        }
    }
    assert _fork(svc, "alice", "/projects/acme%2Fplatform%2Fapi")["visibility"] == "internal"


@pytest.mark.parametrize(
    ("who", "path", "body", "status", "message"),
    [
        ("frank", "/projects/studio%2Fclosed", {}, 404, "404 Not Found"),
        ("frank", "/projects/studio%2Fmembers-only", {}, 404, "404 Not Found"),
        ("frank", "/projects/acme%2Fsecret-ops%2Fvault", {}, 404, "404 Project Not Found"),
        ("frank", APP, {"namespace_path": "nowhere"}, 404, "404 Namespace Not Found"),
        ("frank", APP, {"namespace_path": "guests"}, 404, "404 Namespace Not Found"),
        ("frank", APP, {"namespace_path": "studio"}, 404, "404 Target Namespace Not Found"),
        ("frank", APP, {"namespace_path": "alice"}, 404, "404 Namespace Not Found"),
        (None, APP, {}, 401, "401 Unauthorized"),
    ],
)
def test_who_may_fork_where(
    svc: FakeService, who: str | None, path: str, body: dict, status: int, message: str
) -> None:
    before = dict(call_as(svc, "GET", "/projects", "root", per_page=1).headers)["X-Total"]
    found = call_as(svc, "POST", f"{path}/fork", who, body)
    assert (found.status, found.json()) == (status, {"message": message})
    assert dict(call_as(svc, "GET", "/projects", "root", per_page=1).headers)["X-Total"] == before


def test_members_may_fork_a_project_whose_forking_is_private(svc: FakeService) -> None:
    call_as(
        svc,
        "POST",
        "/projects/studio%2Fmembers-only/members",
        "root",
        {"user_id": user_id(svc, "frank"), "access_level": 20},
    )
    assert _fork(svc, "frank", "/projects/studio%2Fmembers-only")["path"] == "members-only"


def test_prevent_forking_outside_group_keeps_forks_inside(svc: FakeService) -> None:
    edit = call_as(svc, "PUT", "/groups/acme", "alice", {"prevent_forking_outside_group": True})
    assert edit.status == 200
    outside = call_as(svc, "POST", "/projects/acme%2Fwebsite/fork", "alice", {})
    assert (outside.status, outside.json()) == (404, {"message": "404 Target Namespace Not Found"})
    inside = _fork(svc, "alice", "/projects/acme%2Fwebsite", namespace_path="acme/platform")
    assert inside["path_with_namespace"] == "acme/platform/website"


def test_forks_list_filters_and_pages_from_the_index(svc: FakeService) -> None:
    for who in ("frank", "gina", "hugo"):
        _fork(svc, who)
    listed = call_as(svc, "GET", f"{APP}/forks", "frank", order_by="path", sort="asc", per_page=2)
    assert [p["path_with_namespace"] for p in listed.json()] == ["frank/app", "gina/app"]
    assert dict(listed.headers)["X-Total"] == "3"
    assert dict(listed.headers)["X-Next-Page"] == "2"
    owned = call_as(svc, "GET", f"{APP}/forks", "gina", owned="true")
    assert [p["path_with_namespace"] for p in owned.json()] == ["gina/app"]
    searched = call_as(svc, "GET", f"{APP}/forks", "gina", search="hugo", search_namespaces="true")
    assert [p["path_with_namespace"] for p in searched.json()] == ["hugo/app"]
    simple = call_as(svc, "GET", f"{APP}/forks", "gina", simple="true").json()[0]
    assert "forked_from_project" not in simple
    assert call_as(svc, "GET", "/projects/studio%2Fclosed/forks", "gina").json() == []


def test_private_forks_are_listed_to_those_who_may_see_them(svc: FakeService) -> None:
    _fork(svc, "frank", visibility="private")
    assert call_as(svc, "GET", f"{APP}/forks", "gina").json() == []
    assert [p["path"] for p in call_as(svc, "GET", f"{APP}/forks", "frank").json()] == ["app"]


def test_fork_relation_create_and_delete(svc: FakeService) -> None:
    own = call_as(
        svc, "POST", "/projects", "frank", {"name": "mine", "visibility": "public"}
    ).json()
    linked = call_as(svc, "POST", f"/projects/{own['id']}/fork/studio%2Fapp", "frank")
    assert linked.status == 201
    assert linked.json()["forked_from_project"]["path_with_namespace"] == "studio/app"
    again = call_as(
        svc,
        "POST",
        f"/projects/{own['id']}/fork/{linked.json()['forked_from_project']['id']}",
        "frank",
    )
    assert (again.status, again.json()) == (409, {"message": "Project already forked"})
    assert call_as(svc, "GET", APP, "frank").json()["forks_count"] == 1
    assert call_as(svc, "DELETE", f"/projects/{own['id']}/fork", "gina").status == 403
    gone = call_as(svc, "DELETE", f"/projects/{own['id']}/fork", "frank")
    assert (gone.status, gone.body) == (204, b"")
    assert (
        "forked_from_project" not in call_as(svc, "GET", f"/projects/{own['id']}", "frank").json()
    )
    assert call_as(svc, "GET", APP, "frank").json()["forks_count"] == 0
    assert call_as(svc, "DELETE", f"/projects/{own['id']}/fork", "frank").status == 304
    missing = call_as(svc, "POST", f"/projects/{own['id']}/fork/99999", "frank")
    assert (missing.status, missing.json()) == (404, {"message": "404 Project Not Found"})
    itself = call_as(svc, "POST", f"/projects/{own['id']}/fork/{own['id']}", "frank")
    assert (itself.status, itself.json()) == (
        400,
        {"message": "Target project cannot be equal to source project"},
    )


def test_deleting_a_fork_or_its_upstream(svc: FakeService) -> None:
    fork = _fork(svc, "frank")
    assert call_as(svc, "DELETE", f"/projects/{fork['id']}", "frank").status == 202
    assert call_as(svc, "GET", APP, "frank").json()["forks_count"] == 0
    again = _fork(svc, "gina")
    assert call_as(svc, "DELETE", APP, "root").status == 202
    assert (
        "forked_from_project" not in call_as(svc, "GET", f"/projects/{again['id']}", "gina").json()
    )


def test_python_gitlab_forks(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="frank-token", session=svc.requests_session())
    project = gl.projects.get("studio/app")
    fork = project.forks.create({"path": "app-fork", "name": "App fork"})
    assert fork.path_with_namespace == "frank/app-fork"
    assert fork.forked_from_project["id"] == project.id
    assert [f.path for f in project.forks.list(get_all=True)] == ["app-fork"]
    mine = gl.projects.get(fork.id)
    mine.delete_fork_relation()
    assert project.forks.list(get_all=True) == []
    mine.create_fork_relation(project.id)
    assert gl.projects.get(fork.id).forked_from_project["path_with_namespace"] == "studio/app"
    with pytest.raises(gitlab.GitlabCreateError) as caught:
        project.forks.create({"path": "app-fork", "name": "App fork"})
    assert caught.value.response_code == 409


def test_forked_from_scenario_key() -> None:
    svc = FakeService(
        {
            "extends": "default",
            "projects": [{"path": "alice/site", "forked_from": "acme/website"}],
        }
    )
    fork = call_as(svc, "GET", "/projects/alice%2Fsite", "alice").json()
    assert fork["forked_from_project"]["path_with_namespace"] == "acme/website"
    assert fork["empty_repo"] is False
    assert call_as(svc, "GET", "/projects/acme%2Fwebsite", "alice").json()["forks_count"] == 1
