"""A downstream project's tests, written the way a user of the plugin writes them: only
the plugin's public fixtures and marker, and python-gitlab as the client under test."""

from __future__ import annotations

import gitlab
import gitlab.utils
import pytest


def test_auth_list_users_create_project(fake_service, fake_requests) -> None:  # type: ignore[no-untyped-def]
    gl = gitlab.Gitlab(fake_service.base_url, private_token="root-token", session=fake_requests)
    gl.auth()
    assert gl.user.username == "root"
    users = gl.users.list(get_all=True)
    assert len(users) == 45
    project = gl.projects.create({"name": "demo", "description": "made by a test"})
    assert project.path_with_namespace == "root/demo"
    assert gl.projects.get("root/demo").description == "made by a test"
    assert fake_service.journal.count(method="POST", path="/projects") == 1


def test_fresh_state_every_test(fake_gitlab) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(gitlab.exceptions.GitlabGetError) as caught:
        fake_gitlab.projects.get("root/demo")
    assert caught.value.response_code == 404


@pytest.mark.fakeservice_scenario("team.yaml")
def test_paging_follows_link_headers(fake_gitlab, fake_service) -> None:  # type: ignore[no-untyped-def]
    names = [user.username for user in fake_gitlab.users.list(iterator=True, per_page=50)]
    assert len(names) == 166
    assert fake_service.journal.count(path="/users") == 4


@pytest.mark.fakeservice_scenario("team.yaml")
def test_private_project_by_role(fake_service, fake_requests) -> None:  # type: ignore[no-untyped-def]
    def client(token: str | None) -> gitlab.Gitlab:
        return gitlab.Gitlab(fake_service.base_url, private_token=token, session=fake_requests)

    assert client("rita-token").projects.get("team/secret").visibility == "private"
    for outsider in (None, "alice-token"):
        with pytest.raises(gitlab.exceptions.GitlabGetError) as caught:
            client(outsider).projects.get("team/secret")
        assert caught.value.error_message == "404 Project Not Found"
    with pytest.raises(gitlab.exceptions.GitlabCreateError) as denied:
        client("bob-read-token").projects.create({"name": "nope"})
    assert denied.value.response_code == 403


def test_retries_after_429_on_the_fake_clock(fake_service, fake_gitlab, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(
        gitlab.utils.time, "sleep", lambda seconds: fake_service.advance_clock(seconds)
    )
    fake_service.rate_limits.add(limit=1, period=60)
    assert [fake_gitlab.users.get(1).username for _ in range(2)] == ["root", "root"]
    assert [e.status for e in fake_service.journal.entries(path="/users/1")] == [200, 429, 200]


def test_transient_errors_are_retried(fake_service, fake_requests, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(gitlab.utils.time, "sleep", lambda seconds: None)
    gl = gitlab.Gitlab(
        fake_service.base_url,
        private_token="root-token",
        session=fake_requests,
        retry_transient_errors=True,
    )
    fake_service.faults.add("/projects", method="POST", status=502, times=2)
    project = gl.projects.create({"name": "eventually"})
    assert project.name == "eventually"
    assert [e.status for e in fake_service.journal.entries(method="POST", path="/projects")] == [
        502,
        502,
        201,
    ]


def test_over_a_real_socket(fake_server) -> None:  # type: ignore[no-untyped-def]
    gl = gitlab.Gitlab(fake_server.url, private_token="alice-token")
    gl.auth()
    assert gl.user.web_url.startswith(fake_server.url)
    assert gl.projects.get("acme/website").name == "Website"
