"""The reference client, python-gitlab, against a live loopback server: authentication
methods, paging (offset and keyset), lookups by path, user administration, sudo, and the
errors it raises (FIDELITY "What the widely used clients need")."""

from __future__ import annotations

from collections.abc import Iterator

import gitlab
import pytest

from fakeservice import FakeService

from .helpers import raw_request


@pytest.fixture
def live(svc: FakeService) -> Iterator[tuple[FakeService, str]]:
    with svc.serve() as url:
        yield svc, url


def client(url: str, **kw: str) -> gitlab.Gitlab:
    return gitlab.Gitlab(url, retry_transient_errors=False, **kw)


def test_auth(live: tuple[FakeService, str]) -> None:
    _, url = live
    gl = client(url, private_token="root-token")
    gl.auth()
    assert gl.user is not None
    assert (gl.user.username, gl.user.is_admin) == ("root", True)
    assert gl.user.web_url.startswith(url)
    assert gl.version() == ("17.6.0-ee", "f4k3s3rv")


def test_users_list_follows_every_page(live: tuple[FakeService, str]) -> None:
    _, url = live
    gl = client(url, private_token="root-token")
    everyone = gl.users.list(get_all=True, per_page=7)
    assert len(everyone) == 45
    assert [u.id for u in everyone] == list(range(45, 0, -1))
    pages = gl.users.list(iterator=True, per_page=10)
    assert (pages.total, pages.total_pages, pages.per_page) == (45, 5, 10)
    assert len(list(pages)) == 45
    one_page = gl.users.list(per_page=10, page=2)
    assert [u.id for u in one_page] == list(range(35, 25, -1))


def test_keyset_projects_iterator(live: tuple[FakeService, str]) -> None:
    _, url = live
    gl = client(url)
    listed = gl.projects.list(
        iterator=True, pagination="keyset", order_by="id", sort="asc", per_page=5
    )
    ids = [p.id for p in listed]
    assert ids == [1, *range(4, 35)]
    offset = gl.projects.list(get_all=True, order_by="id", sort="asc", per_page=9)
    assert [p.id for p in offset] == ids


def test_project_by_path(live: tuple[FakeService, str]) -> None:
    _, url = live
    gl = client(url, private_token="alice-token")
    project = gl.projects.get("acme/website")
    assert (project.id, project.path_with_namespace, project.default_branch) == (
        1, "acme/website", "main"
    )  # fmt: skip
    nested = gl.projects.get("acme/platform/api")
    assert nested.id == 2
    project.description = "edited through python-gitlab"
    project.save()
    assert gl.projects.get(1).description == "edited through python-gitlab"


def test_user_create_update_delete(live: tuple[FakeService, str]) -> None:
    svc, url = live
    gl = client(url, private_token="root-token")
    user = gl.users.create(
        {"email": "zed@example.com", "username": "zed", "name": "Zed", "password": "long-enough-1"}
    )
    assert (user.username, user.state) == ("zed", "active")
    user.bio = "written by python-gitlab"
    user.save()
    assert gl.users.get(user.id).bio == "written by python-gitlab"
    assert [u.username for u in gl.users.list(username="zed")] == ["zed"]
    user.block()
    assert gl.users.get(user.id).state == "blocked"
    user.unblock()
    assert gl.users.get(user.id).state == "active"
    user.delete()
    with pytest.raises(gitlab.GitlabGetError) as raised:
        gl.users.get(user.id)
    assert (raised.value.response_code, raised.value.error_message) == (404, "404 User Not Found")
    assert svc.request("GET", "/users?username=zed", token="root-token").json() == []


def test_user_conflict_and_validation_errors(live: tuple[FakeService, str]) -> None:
    _, url = live
    gl = client(url, private_token="root-token")
    with pytest.raises(gitlab.GitlabCreateError) as conflict:
        gl.users.create(
            {
                "email": "x@example.com",
                "username": "alice",
                "name": "A",
                "password": "long-enough-1",
            }
        )
    assert (conflict.value.response_code, conflict.value.error_message) == (
        409, "Username has already been taken"
    )  # fmt: skip
    with pytest.raises(gitlab.GitlabCreateError) as missing:
        gl.users.create({"email": "x@example.com", "username": "x", "name": "X"})
    assert missing.value.response_code == 400
    assert missing.value.error_message == (
        "password, reset_password, force_random_password are missing, at least one parameter "
        "must be provided"
    )
    with pytest.raises(gitlab.GitlabUpdateError) as update:
        gl.users.update(2, {"email": "bob@example.com"})
    assert update.value.response_code == 404


def test_sudo(live: tuple[FakeService, str]) -> None:
    _, url = live
    gl = client(url, private_token="root-token")
    assert gl.http_get("/user", sudo="alice")["username"] == "alice"
    assert gl.http_get("/user", sudo=3)["username"] == "bob"
    hidden = [p.path_with_namespace for p in gl.projects.list(get_all=True, sudo="carol")]
    assert "acme/secret-ops/vault" not in hidden
    assert "acme/platform/api" in hidden
    with pytest.raises(gitlab.GitlabHttpError) as unknown:
        gl.http_get("/user", sudo="ghost")
    assert (unknown.value.response_code, unknown.value.error_message) == (
        404, "404 User with ID or username 'ghost' Not Found"
    )  # fmt: skip
    alice = client(url, private_token="alice-token")
    with pytest.raises(gitlab.GitlabHttpError) as refused:
        alice.http_get("/user", sudo="bob")
    assert (refused.value.response_code, refused.value.error_message) == (
        403, "403 Forbidden - Must be admin to use sudo"
    )  # fmt: skip


def test_oauth_token(live: tuple[FakeService, str]) -> None:
    svc, url = live
    grant = raw_request(
        svc,
        "POST",
        "/oauth/token",
        json_body={
            "grant_type": "password",
            "username": "root",
            "password": "correct-horse-battery",
        },
    ).json()
    gl = client(url, oauth_token=grant["access_token"])
    gl.auth()
    assert gl.user is not None and gl.user.username == "root"
    svc.clock.advance(seconds=7200)
    with pytest.raises(gitlab.GitlabAuthenticationError) as expired:
        client(url, oauth_token=grant["access_token"]).auth()
    assert expired.value.response_code == 401
    assert expired.value.error_message == "invalid_token"


@pytest.mark.parametrize(
    "kw",
    [
        {"private_token": "not-a-token"},
        {"oauth_token": "not-a-token"},
        {"job_token": "not-a-job-token"},
        {},
    ],
)
def test_refused_credentials(live: tuple[FakeService, str], kw: dict[str, str]) -> None:
    _, url = live
    with pytest.raises(gitlab.GitlabAuthenticationError) as raised:
        client(url, **kw).auth()
    assert (raised.value.response_code, raised.value.error_message) == (401, "401 Unauthorized")


def test_a_job_token_is_not_read_outside_job_endpoints(live: tuple[FakeService, str]) -> None:
    _, url = live
    gl = client(url, job_token="not-a-job-token")
    assert gl.projects.get("acme/website").id == 1
    with pytest.raises(gitlab.GitlabGetError) as raised:
        gl.projects.get("acme/secret-ops/vault")
    assert raised.value.response_code == 404


def test_errors_carry_status_and_message(live: tuple[FakeService, str]) -> None:
    _, url = live
    gl = client(url, private_token="alice-token")
    with pytest.raises(gitlab.GitlabGetError) as project:
        gl.projects.get("acme/nope")
    assert (project.value.response_code, project.value.error_message) == (
        404, "404 Project Not Found"
    )  # fmt: skip
    with pytest.raises(gitlab.GitlabGetError) as user:
        gl.users.get(999)
    assert (user.value.response_code, user.value.error_message) == (404, "404 User Not Found")
    with pytest.raises(gitlab.GitlabCreateError) as forbidden:
        gl.users.create({"email": "a@b.c", "username": "ab", "name": "Ab", "password": "12345678"})
    assert (forbidden.value.response_code, forbidden.value.error_message) == (403, "403 Forbidden")
    with pytest.raises(gitlab.GitlabHttpError) as invalid:
        gl.http_get("/users", query_data={"per_page": "abc"})
    assert (invalid.value.response_code, invalid.value.error_message) == (
        400,
        "per_page is invalid",
    )
    with pytest.raises(gitlab.GitlabListError) as keyset:
        gl.users.list(pagination="keyset", get_all=False)
    assert keyset.value.response_code == 405
    assert keyset.value.error_message == (
        "Keyset pagination is not yet available for this type of request"
    )


def test_insufficient_scope(live: tuple[FakeService, str]) -> None:
    _, url = live
    gl = client(url, private_token="bob-read-token")
    assert gl.projects.get(1).id == 1
    with pytest.raises(gitlab.GitlabCreateError) as raised:
        gl.projects.create({"name": "nope"})
    assert (raised.value.response_code, raised.value.error_message) == (403, "insufficient_scope")


def test_project_lifecycle(live: tuple[FakeService, str]) -> None:
    _, url = live
    gl = client(url, private_token="alice-token")
    project = gl.projects.create(
        {"name": "Lifecycle", "namespace_id": "acme", "visibility": "public"}
    )
    assert project.path_with_namespace == "acme/lifecycle"
    project.star()
    assert gl.projects.get(project.id).star_count == 1
    project.archive()
    assert gl.projects.get("acme/lifecycle").archived is True
    project.unarchive()
    project.delete()
    with pytest.raises(gitlab.GitlabGetError):
        gl.projects.get("acme/lifecycle")


def test_links_point_at_the_live_server(live: tuple[FakeService, str]) -> None:
    _, url = live
    gl = client(url, private_token="root-token")
    response = gl.http_get("/users", query_data={"per_page": 10}, raw=True)
    links = response.links
    assert set(links) == {"next", "first", "last"}
    assert links["next"]["url"].startswith(f"{url}/api/v4/users?")
    assert response.headers["X-Total"] == "45"
    assert response.headers["Content-Type"] == "application/json"
