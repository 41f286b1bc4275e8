"""Members through python-gitlab over a live loopback server."""

from __future__ import annotations

import gitlab
import pytest

from fakeservice import FakeService

from .helpers import client, uid


def test_group_members_create_update_delete(served: tuple[FakeService, str]) -> None:
    service, url = served
    group = client(url, "olga").groups.get("alpha")
    member = group.members.create({"user_id": uid(service, "otto"), "access_level": 30})
    assert (member.username, member.access_level, member.created_by["username"]) == (
        "otto",
        30,
        "olga",
    )
    member.access_level = 40
    member.expires_at = "2026-12-31"
    member.save()
    fetched = group.members.get(uid(service, "otto"))
    assert (fetched.access_level, fetched.expires_at) == (40, "2026-12-31")
    assert [m.username for m in group.members.list(get_all=True)] == ["olga", "dan", "otto"]
    group.members.delete(uid(service, "otto"))
    assert [m.username for m in group.members.list(get_all=True)] == ["olga", "dan"]
    with pytest.raises(gitlab.GitlabGetError) as missing:
        group.members.get(uid(service, "otto"))
    assert (missing.value.response_code, missing.value.error_message) == (404, "404 Not found")


def test_errors_reach_the_client(served: tuple[FakeService, str]) -> None:
    service, url = served
    group = client(url, "olga").groups.get("alpha")
    with pytest.raises(gitlab.GitlabCreateError) as exists:
        group.members.create({"user_id": uid(service, "dan"), "access_level": 30})
    assert (exists.value.response_code, exists.value.error_message) == (
        409,
        "Member already exists",
    )
    with pytest.raises(gitlab.GitlabDeleteError) as last_owner:
        group.members.delete(uid(service, "olga"))
    assert last_owner.value.response_code == 403
    denied = client(url, "dan").groups.get("alpha")
    with pytest.raises(gitlab.GitlabCreateError) as forbidden:
        denied.members.create({"username": "otto", "access_level": 10})
    assert forbidden.value.response_code == 403


def test_project_members_all(served: tuple[FakeService, str]) -> None:
    _, url = served
    project = client(url, "pat").projects.get("alpha/site")
    everyone = project.members_all.list(get_all=True)
    assert [(m.username, m.access_level) for m in everyone] == [
        ("olga", 50),
        ("carl", 20),
        ("pat", 30),
        ("dan", 40),
    ]
    assert [m.username for m in project.members.list(get_all=True)] == ["pat", "dan"]
    assert project.members_all.get(everyone[1].id).access_level == 20
