"""Issue 12, item 1: answers that used to differ from the real service (empty-repository
branches, block/unblock, anonymous user lists, token expiry, Ruby-symbol CI keys, repeated
slashes, ``If-Unmodified-Since`` on deletes), through raw HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
import pytest
from support.calls import ROOT, call
from support.services import stamp

from fakeservice import FakeService
from fakeservice.web.routing import AreaRouter, Router

GONE_BY = "Thu, 01 Jan 2026 08:00:00 GMT"  # before the default scenario's clock


@pytest.fixture
def svc() -> FakeService:
    return stamp("default", "default")


def client(svc: FakeService, token: str = ROOT) -> gitlab.Gitlab:
    return gitlab.Gitlab(svc.url, private_token=token, session=svc.requests_session())


# -- branches in an empty repository ---------------------------------------------------------


def test_a_branch_in_an_empty_repository_first_creates_the_default_branch(svc: FakeService) -> None:
    api = "/projects/acme%2Fplatform%2Fapi"
    assert call(svc, "GET", api).json()["empty_repo"] is True
    created = call(svc, "POST", f"{api}/repository/branches?branch=topic&ref=main")
    assert created.status == 201
    assert created.json()["name"] == "topic"
    assert created.json()["commit"]["title"] == "Add README.md"
    names = [b["name"] for b in call(svc, "GET", f"{api}/repository/branches").json()]
    assert names == ["main", "topic"]
    readme = call(svc, "GET", f"{api}/repository/files/README.md/raw?ref=main")
    assert (readme.status, readme.body) == (200, b"")
    project = call(svc, "GET", api).json()
    assert (project["empty_repo"], project["default_branch"]) == (False, "main")


def test_an_invalid_branch_name_in_an_empty_repository_changes_nothing(svc: FakeService) -> None:
    api = "/projects/acme%2Fplatform%2Fapi"
    bad = call(svc, "POST", f"{api}/repository/branches?branch=a..b&ref=main")
    assert bad.status == 400
    assert call(svc, "GET", api).json()["empty_repo"] is True


def test_python_gitlab_creates_a_branch_in_an_empty_repository(svc: FakeService) -> None:
    project = client(svc).projects.get("acme/platform/api")
    branch = project.branches.create({"branch": "feature", "ref": "main"})
    assert branch.commit["message"] == "Add README.md"
    assert project.files.raw("README.md", ref="feature") == b""


# -- block and unblock -------------------------------------------------------------------------


def test_block_twice_unblock_an_active_user_and_block_oneself(svc: FakeService) -> None:
    alice = call(svc, "GET", "/users?username=alice").json()[0]["id"]
    first = call(svc, "POST", f"/users/{alice}/block")
    assert (first.status, first.body) == (201, b"true")
    again = call(svc, "POST", f"/users/{alice}/block")
    assert (again.status, again.body) == (201, b"null")
    assert call(svc, "POST", f"/users/{alice}/unblock").body == b"true"
    active = call(svc, "POST", f"/users/{alice}/unblock")
    assert (active.status, active.body) == (201, b"false")
    own = call(svc, "POST", "/users/1/block")
    assert (own.status, own.json()) == (
        403,
        {"message": "403 Forbidden - The API initiating user cannot be blocked by the API"},
    )
    assert call(svc, "GET", "/users/1").json()["state"] == "active"


def test_python_gitlab_block_and_unblock(svc: FakeService) -> None:
    gl = client(svc)
    bob = gl.users.list(username="bob")[0]
    assert bob.block() is True
    assert bob.block() is None
    assert bob.unblock() is True
    assert bob.unblock() is False
    with pytest.raises(gitlab.GitlabBlockError) as own:
        gl.users.get(1, lazy=True).block()
    assert own.value.response_code == 403


# -- anonymous user lists ----------------------------------------------------------------------


def test_anonymous_user_lists_need_a_username(svc: FakeService) -> None:
    refused = call(svc, "GET", "/users", token=None)
    assert (refused.status, refused.json()) == (
        403,
        {"message": "403 Forbidden - Not authorized to access /api/v4/users"},
    )
    found = call(svc, "GET", "/users?username=alice", token=None)
    assert [u["username"] for u in found.json()] == ["alice"]
    assert call(svc, "GET", "/users", token="alice-token").status == 200
    with pytest.raises(gitlab.GitlabListError) as error:
        gitlab.Gitlab(svc.url, session=svc.requests_session()).users.list()
    assert error.value.response_code == 403


# -- token expiry ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["impersonation_tokens", "personal_access_tokens"])
def test_a_token_expiring_today_is_accepted(svc: FakeService, kind: str) -> None:
    today = svc.clock.now().date().isoformat()
    body = {"name": "today", "scopes": ["api"], "expires_at": today}
    created = call(svc, "POST", f"/users/2/{kind}", json_body=body)
    assert (created.status, created.json()["expires_at"]) == (201, today)


# -- Ruby symbol keys in CI YAML ---------------------------------------------------------------


def test_ruby_symbol_job_keys_are_job_names(svc: FakeService) -> None:
    content = ":test_job:\n  script: echo hi\n':quoted:':\n  script: echo\n"
    lint = call(svc, "POST", "/projects/1/ci/lint", json_body={"content": content})
    assert lint.json()["valid"] is True
    assert "test_job:" in lint.json()["merged_yaml"]
    assert "':quoted:':" in lint.json()["merged_yaml"]


# -- routing ------------------------------------------------------------------------------------


def test_repeated_slashes_route_as_one(svc: FakeService) -> None:
    assert call(svc, "GET", "/api/v4//projects//1").json()["id"] == 1
    branches = call(svc, "GET", "/projects/1//repository///branches")
    assert branches.status == 200


def test_literal_segments_win_over_parameters() -> None:
    registry = AreaRouter("test")
    for method, pattern in [
        ("GET", "/projects/:id"),
        ("PUT", "/projects/:id"),
        ("POST", "/projects/import"),
        ("GET", "/things/:id/latest/:x"),
        ("GET", "/things/:id/:kind/now"),
        ("GET", "/projects/:id/pipelines/:pipeline_id"),
        ("GET", "/projects/:id/pipelines/latest"),
    ]:
        registry.route(method, pattern)(lambda ctx, p=pattern: p)
    router = Router(registry.endpoints)

    def pattern(method: str, path: str) -> str:
        found = router.resolve(method, "/api/v4" + path)
        assert not isinstance(found, list) and found is not None
        return found.endpoint.pattern

    assert pattern("POST", "/projects/import") == "/projects/import"
    assert pattern("GET", "/projects/import") == "/projects/:id"
    assert pattern("GET", "/projects/1/pipelines/latest") == "/projects/:id/pipelines/latest"
    assert pattern("GET", "/projects/1/pipelines/7") == "/projects/:id/pipelines/:pipeline_id"
    assert pattern("GET", "/things/1/latest/now") == "/things/:id/latest/:x"


# -- If-Unmodified-Since on deletes -------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "check"),
    [
        ("/users/5", "/users/5"),
        ("/projects/alice%2Fdotfiles", "/projects/alice%2Fdotfiles"),
        ("/groups/oss", "/groups/oss"),
    ],
)
def test_deletes_answer_412_when_changed_since(svc: FakeService, path: str, check: str) -> None:
    stale = call(svc, "DELETE", path, headers={"If-Unmodified-Since": GONE_BY})
    assert (stale.status, stale.json()) == (412, {"message": "412 Precondition Failed"})
    assert call(svc, "GET", check).status == 200
    fresh = "Fri, 01 Jan 2100 00:00:00 GMT"
    assert call(svc, "DELETE", path, headers={"If-Unmodified-Since": fresh}).status in (202, 204)


def test_a_pipeline_delete_answers_412_when_changed_since(svc: FakeService) -> None:
    created = call(svc, "POST", "/projects/acme%2Fwebsite/pipeline", json_body={"ref": "main"})
    path = f"/projects/acme%2Fwebsite/pipelines/{created.json()['id']}"
    stale = call(svc, "DELETE", path, headers={"If-Unmodified-Since": GONE_BY})
    assert stale.status == 412
    assert call(svc, "GET", path).status == 200
    assert call(svc, "DELETE", path).status == 204
