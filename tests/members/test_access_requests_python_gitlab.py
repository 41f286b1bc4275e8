"""Access requests through python-gitlab (``project.accessrequests``,
``group.accessrequests``) over a live loopback server."""

from __future__ import annotations

import gitlab
import pytest

from fakeservice import FakeService

from .helpers import client, uid


def test_project_request_list_approve(served: tuple[FakeService, str]) -> None:
    service, url = served
    asked = client(url, "otto").projects.get("alpha/site", lazy=True).accessrequests.create({})
    assert (asked.username, asked.requested_at) == ("otto", "2026-03-01T12:00:00Z")
    project = client(url, "dan").projects.get("alpha/site")
    pending = project.accessrequests.list(get_all=True)
    assert [r.id for r in pending] == [uid(service, "otto")]
    pending[0].approve(access_level=gitlab.const.REPORTER_ACCESS)
    assert (pending[0].access_level, pending[0].username) == (20, "otto")
    assert project.members.get(uid(service, "otto")).access_level == 20
    assert project.accessrequests.list(get_all=True) == []


def test_group_deny_withdraw_and_errors(served: tuple[FakeService, str]) -> None:
    service, url = served
    mine = client(url, "otto").groups.get("alpha", lazy=True).accessrequests
    mine.create({})
    with pytest.raises(gitlab.GitlabCreateError) as twice:
        mine.create({})
    assert twice.value.response_code == 400
    mine.delete(uid(service, "otto"))  # withdrawn
    client(url, "carl").groups.get("alpha", lazy=True).accessrequests.create({})
    group = client(url, "olga").groups.get("alpha")
    [carl] = group.accessrequests.list(get_all=True)
    carl.delete()  # denied
    assert group.accessrequests.list(get_all=True) == []
    with pytest.raises(gitlab.GitlabCreateError) as member:
        client(url, "dan").groups.get("alpha", lazy=True).accessrequests.create({})
    assert member.value.response_code == 403
    with pytest.raises(gitlab.GitlabDeleteError) as missing:
        group.accessrequests.delete(uid(service, "otto"))
    assert missing.value.response_code == 404
