"""Issue 12, item 2: hostile input gets the service's 4xx and leaves state untouched:
integer bounds, huge ``per_page``, invalid UTF-8, file paths git refuses, header
injection, text limits, array ``sudo``, external users, the control plane's own input
and stray temporary state files."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import gitlab
import pytest
from support.calls import ROOT, call
from support.services import stamp

from fakeservice import FakeService
from fakeservice.control.statefile import write_atomic
from fakeservice.web.dispatch import dispatch
from fakeservice.web.http import Request

TIMEOUT_RANGE = {"message": {"build_timeout": ["needs to be between 10 minutes and 1 month"]}}


@pytest.fixture
def svc() -> FakeService:
    return stamp("default", "default")


def state(svc: FakeService) -> bytes:
    return pickle.dumps(
        [svc.store.tables[name].rows for name in ("projects", "namespaces", "users")]
    )


# -- integers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [2**70, -(2**70), str(2**70), 1e30])
def test_integers_beyond_the_database_are_invalid(svc: FakeService, value: object) -> None:
    before = state(svc)
    response = call(svc, "PUT", "/projects/1", json_body={"build_timeout": value})
    assert (response.status, response.json()) == (400, {"error": "build_timeout is invalid"})
    assert state(svc) == before


@pytest.mark.parametrize("value", [59, 2629746])  # 1.month in Rails: 2629746 s
def test_build_timeout_is_between_10_minutes_and_1_month(svc: FakeService, value: int) -> None:
    response = call(svc, "PUT", "/projects/1", json_body={"build_timeout": value})
    assert (response.status, response.json()) == (400, TIMEOUT_RANGE)
    assert call(svc, "PUT", "/projects/1", json_body={"build_timeout": 600}).status == 200
    assert call(svc, "GET", "/projects/1").json()["build_timeout"] == 600


@pytest.mark.parametrize("value", ["1000", "99999999999999999999999999", str(2**70)])
def test_a_huge_per_page_caps_to_100(svc: FakeService, value: str) -> None:
    response = call(svc, "GET", f"/projects?per_page={value}")
    assert response.status == 200
    assert response.header("X-Per-Page") == "100"


def test_an_id_beyond_the_database_is_invalid(svc: FakeService) -> None:
    response = call(svc, "GET", f"/users/{2**70}")
    assert (response.status, response.json()) == (400, {"error": "id is invalid"})


# -- UTF-8, paths, headers -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "query"),
    [
        ("GET", "/projects/acme%2F%FF", ""),
        ("GET", "/projects/1/repository/files/a%C3.txt?ref=main", ""),
        ("POST", "/groups", "name=%FFbad&path=bad"),
        ("GET", "/projects", "search=%ED%A0%80"),
    ],
)
def test_invalid_utf8_is_a_400(svc: FakeService, method: str, path: str, query: str) -> None:
    before = state(svc)
    request = Request.build(
        method, "/api/v4" + path.split("?")[0], query_string=query, headers={"private-token": ROOT}
    )
    response = dispatch(svc, request)
    assert (response.status, response.body) == (400, b"Bad Request")
    assert state(svc) == before


def test_an_invalid_utf8_form_body_is_a_400(svc: FakeService) -> None:
    response = call(
        svc,
        "POST",
        "/groups",
        body=b"name=%FFx&path=x",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status == 400
    assert call(svc, "GET", "/groups/x").status == 404


@pytest.mark.parametrize("path", ["/leading.txt", ".git/config", "src/.git/hooks/x", "a/.GIT/b"])
def test_file_paths_git_refuses(svc: FakeService, path: str) -> None:
    repo = svc.store.extras["repositories"][1]
    head = repo.branch("main").commit_id
    response = call(
        svc,
        "POST",
        "/projects/1/repository/commits",
        json_body={
            "branch": "main",
            "commit_message": "x",
            "actions": [{"action": "create", "file_path": path, "content": "x"}],
        },
    )
    assert (response.status, response.json()) == (400, {"message": f"invalid path: '{path}'"})
    assert repo.branch("main").commit_id == head


def test_python_gitlab_cannot_write_into_dot_git(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token=ROOT, session=svc.requests_session())
    project = gl.projects.get(1)
    with pytest.raises(gitlab.GitlabCreateError) as error:
        project.files.create(
            {"file_path": ".git/config", "branch": "main", "content": "x", "commit_message": "x"}
        )
    assert error.value.error_message == "invalid path: '.git/config'"


def test_cr_and_lf_never_reach_a_response_header(svc: FakeService) -> None:
    request = Request.build(
        "GET",
        "/api/v4/users",
        query_string="per_page=1&x=%0D%0ASet-Cookie:%20a=b",
        headers={"private-token": ROOT},
        host="evil\r\nX-Injected: 1",
    )
    response = dispatch(svc, request)
    assert response.status == 200
    for name, value in response.headers:
        assert "\r" not in value and "\n" not in value, name


# -- text limits -------------------------------------------------------------------------------


def test_oversized_descriptions_and_topics_are_refused(svc: FakeService) -> None:
    before = state(svc)
    long_project = call(svc, "PUT", "/projects/1", json_body={"description": "d" * 2001})
    assert long_project.json() == {
        "message": {"description": ["is too long (maximum is 2000 characters)"]}
    }
    topic = call(svc, "PUT", "/projects/1", json_body={"topics": ["t" * 256]})
    assert topic.json() == {"message": {"topics": ["is too long (maximum is 255 characters)"]}}
    group = call(svc, "PUT", "/groups/acme", json_body={"description": "d" * 501})
    assert group.json() == {"message": {"description": ["is too long (maximum is 500 characters)"]}}
    assert state(svc) == before
    assert call(svc, "PUT", "/projects/1", json_body={"description": "d" * 2000}).status == 200


# -- sudo ----------------------------------------------------------------------------------------


def test_sudo_as_an_array_is_refused(svc: FakeService) -> None:
    response = call(svc, "GET", "/user?sudo[]=alice")
    assert (response.status, response.json()) == (400, {"error": "sudo is invalid"})
    hashed = call(svc, "GET", "/user?sudo[x]=alice")
    assert hashed.status == 400
    assert call(svc, "GET", "/user?sudo=alice").json()["username"] == "alice"


# -- external users ------------------------------------------------------------------------------


def test_external_users_cannot_create_groups_or_personal_projects(svc: FakeService) -> None:
    carol = call(svc, "GET", "/users?username=carol").json()[0]["id"]
    admin_view = call(svc, "GET", f"/users/{carol}").json()
    assert (admin_view["can_create_group"], admin_view["projects_limit"]) == (False, 0)
    group = call(svc, "POST", "/groups", token="carol-token", json_body={"name": "c", "path": "c"})
    assert group.status == 403
    project = call(svc, "POST", "/projects", token="carol-token", json_body={"name": "mine"})
    assert (project.status, project.json()) == (
        400,
        {
            "message": {
                "limit_reached": [
                    "Personal project creation is not allowed. "
                    "Please contact your administrator with questions"
                ]
            }
        },
    )


def test_a_new_external_user_gets_the_external_defaults(svc: FakeService) -> None:
    created = call(
        svc,
        "POST",
        "/users",
        json_body={
            "email": "x@example.com",
            "name": "X",
            "username": "xx",
            "password": "long-enough-password",
            "external": True,
        },
    ).json()
    assert (created["can_create_group"], created["projects_limit"]) == (False, 0)
    chosen = call(
        svc,
        "POST",
        "/users",
        json_body={
            "email": "y@example.com",
            "name": "Y",
            "username": "yy",
            "password": "long-enough-password",
            "external": True,
            "projects_limit": 3,
        },
    ).json()
    assert chosen["projects_limit"] == 3


def test_the_personal_project_limit(svc: FakeService) -> None:
    call(svc, "PUT", "/users/2", json_body={"projects_limit": 1})
    owned = call(svc, "GET", "/users/2/projects").json()
    assert len(owned) >= 1
    refused = call(svc, "POST", "/projects", token="alice-token", json_body={"name": "more"})
    assert refused.json() == {
        "message": {
            "limit_reached": [
                "Your project limit is 1 projects! Please contact your administrator to increase it"
            ]
        }
    }
    in_group = call(
        svc,
        "POST",
        "/projects",
        token="alice-token",
        json_body={"name": "g", "namespace_id": "acme"},
    )
    assert in_group.status == 201


# -- the control plane ----------------------------------------------------------------------------


def deep(levels: int) -> dict[str, object]:
    root: dict[str, object] = {}
    node = root
    for _ in range(levels):
        child: dict[str, object] = {}
        node["a"] = child
        node = child
    return root


@pytest.mark.parametrize(
    "body",
    [
        {"users": [deep(500)]},
        {"scenario": {"users": [deep(500)]}},
        {"yaml": "users: " + "[" * 3000 + "]" * 3000},
    ],
)
def test_a_deeply_nested_scenario_is_a_400(svc: FakeService, body: dict[str, object]) -> None:
    response = call(svc, "POST", "/_fake/scenario", json_body=body)
    assert response.status == 400
    # the YAML parser may refuse the nesting before the scenario walk does
    assert "nest" in response.body.decode()


@pytest.mark.parametrize(
    ("path", "body", "error"),
    [
        ("/_fake/restore", {"id": None}, "id is empty"),
        (
            "/_fake/clock",
            {"seconds": 1e12},
            "the clock cannot move that far (the latest time is 9000-01-01T00:00:00Z)",
        ),
        (
            "/_fake/clock",
            {"to": "9999-01-01T00:00:00Z"},
            "the clock cannot move that far (the latest time is 9000-01-01T00:00:00Z)",
        ),
    ],
)
def test_control_plane_input_errors_are_400s(
    svc: FakeService, path: str, body: dict[str, object], error: str
) -> None:
    before = svc.clock.now()
    response = call(svc, "POST", path, json_body=body)
    assert (response.status, response.json()) == (400, {"error": error})
    assert svc.clock.now() == before


def test_a_killed_save_leaves_no_temporary_file_behind(tmp_path: Path) -> None:
    target = tmp_path / "state.bin"
    stray = tmp_path / ".state.bin.abc123.tmp"
    stray.write_bytes(b"half written")
    other = tmp_path / ".other.bin.x.tmp"
    other.write_bytes(b"not ours")
    write_atomic(target, b"whole")
    assert target.read_bytes() == b"whole"
    assert sorted(os.listdir(tmp_path)) == [".other.bin.x.tmp", "state.bin"]
