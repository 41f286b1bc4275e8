"""Invitations through python-gitlab (``project.invitations``, ``group.invitations``)
over a live loopback server."""

from __future__ import annotations

import gitlab
import pytest

from fakeservice import FakeService

from .helpers import client, uid


def test_project_invitations_create_list_save_delete(served: tuple[FakeService, str]) -> None:
    _, url = served
    project = client(url, "dan").projects.get("alpha/site")
    created = project.invitations.create({"email": "new@example.org", "access_level": 20})
    assert created.status == "success"
    [listed] = project.invitations.list(get_all=True)
    assert (listed.invite_email, listed.access_level) == ("new@example.org", 20)
    lazy = project.invitations.get("new@example.org", lazy=True)
    lazy.access_level = 40
    lazy.expires_at = "2026-12-31"
    lazy.save()
    [again] = project.invitations.list(get_all=True)
    assert (again.access_level, again.expires_at) == (40, "2026-12-31")
    project.invitations.delete("new@example.org")
    assert project.invitations.list(get_all=True) == []


def test_group_invitations_users_and_errors(served: tuple[FakeService, str]) -> None:
    service, url = served
    group = client(url, "olga").groups.get("alpha")
    group.invitations.create({"user_id": [uid(service, "otto")], "access_level": 30})
    assert group.members.get(uid(service, "otto")).access_level == 30
    group.invitations.create({"email": ["x@example.org", "y@example.org"], "access_level": 10})
    assert [i.invite_email for i in group.invitations.list(query="x@")] == ["x@example.org"]
    with pytest.raises(gitlab.GitlabInvitationError) as failed:
        group.invitations.create({"email": "x@example.org", "access_level": 10})
    assert "Invite email has already been taken" in str(failed.value)
    group.invitations.delete("y@example.org")
    assert [i.invite_email for i in group.invitations.list(get_all=True)] == ["x@example.org"]
    with pytest.raises(gitlab.GitlabUpdateError) as missing:
        group.invitations.update("ghost@example.org", {"access_level": 30})
    assert missing.value.response_code == 404
