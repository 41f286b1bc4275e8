"""The reference client (python-gitlab) against a live server: ``project.triggers`` CRUD
and ``project.trigger_pipeline`` (a ``trigger`` pipeline with the variables; a bad token
raises the client's create error with the service's 404)."""

from __future__ import annotations

from collections.abc import Iterator

import gitlab
import pytest

from fakeservice import FakeService

from .ci_support import new_service


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[FakeService, str]]:
    svc = new_service()
    with svc.serve() as url:
        yield svc, url


@pytest.fixture
def live(server: tuple[FakeService, str]) -> Iterator[tuple[FakeService, str]]:
    svc, url = server
    svc.reset()
    yield svc, url
    assert svc.server_errors == []


def test_trigger_token_lifecycle(live: tuple[FakeService, str]) -> None:
    _svc, url = live
    alice = gitlab.Gitlab(url, private_token="alice-token").projects.get("acme/pipes")
    root = gitlab.Gitlab(url, private_token="root-token").projects.get("acme/pipes")
    trigger = alice.triggers.create({"description": "deploy bot"})
    assert trigger.token.startswith("glptt-") and trigger.owner["username"] == "alice"
    assert trigger.last_used is None and trigger.expires_at is None

    trigger.description = "release bot"
    trigger.save()
    fetched = alice.triggers.get(trigger.id)
    assert fetched.description == "release bot" and fetched.token == trigger.token
    assert [t.description for t in root.triggers.list(get_all=True)] == ["release bot"]
    assert root.triggers.get(trigger.id).token == trigger.token[6:10]

    fetched.delete()
    assert alice.triggers.list(get_all=True) == []
    with pytest.raises(gitlab.GitlabGetError) as caught:
        alice.triggers.get(trigger.id)
    assert caught.value.response_code == 404


def test_trigger_pipeline(live: tuple[FakeService, str]) -> None:
    _svc, url = live
    project = gitlab.Gitlab(url, private_token="root-token").projects.get("acme/pipes")
    trigger = project.triggers.create({"description": "ci bot"})
    pipeline = project.trigger_pipeline("main", trigger.token, variables={"MODE": "fast"})
    assert (pipeline.source, pipeline.ref) == ("trigger", "main")
    assert [(v.key, v.value) for v in pipeline.variables.list(get_all=True)] == [("MODE", "fast")]
    assert project.triggers.get(trigger.id).last_used is not None
    with pytest.raises(gitlab.GitlabCreateError) as caught:
        project.trigger_pipeline("main", "glptt-wrong")
    assert caught.value.response_code == 404
    with pytest.raises(gitlab.GitlabCreateError) as missing:
        project.trigger_pipeline("no-such-branch", trigger.token)
    assert missing.value.response_code == 400
    assert "Reference not found" in str(missing.value.error_message)
