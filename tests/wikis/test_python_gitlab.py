"""Wikis through python-gitlab: project.wikis and group.wikis (list, get, create, save,
delete, upload) and the client's errors."""

from __future__ import annotations

import gitlab
import pytest

from fakeservice import FakeService


def _client(svc: FakeService, who: str) -> gitlab.Gitlab:
    return gitlab.Gitlab(
        "http://fakeservice.test", private_token=f"{who}-token", session=svc.requests_session()
    )


def test_project_wikis(svc: FakeService) -> None:
    project = _client(svc, "dan").projects.get("docs/site")
    assert [w.slug for w in project.wikis.list()] == ["home", "ops/On-Call"]
    assert project.wikis.list(with_content=True)[0].content.startswith("# Welcome")
    page = project.wikis.create({"title": "Run Book", "content": "1. restart"})
    assert (page.slug, page.format, page.encoding) == ("Run-Book", "markdown", "UTF-8")
    got = project.wikis.get("ops/On-Call")
    assert (got.title, got.content, got.format) == ("On Call", "= Pager", "asciidoc")
    got.content = "= Pager v2"
    got.save()
    assert project.wikis.get("ops/On-Call").content == "= Pager v2"
    uploaded = page.upload("shot.png", filedata=b"PNG")
    assert uploaded["link"]["markdown"] == f"![shot]({uploaded['file_path']})"
    page.delete()
    with pytest.raises(gitlab.GitlabGetError) as missing:
        project.wikis.get("Run-Book")
    assert missing.value.response_code == 404
    assert missing.value.error_message == "404 Wiki Page Not Found"
    with pytest.raises(gitlab.GitlabCreateError) as duplicate:
        project.wikis.create({"title": "home", "content": "again"})
    assert duplicate.value.response_code == 400
    reader = _client(svc, "rita").projects.get("docs/site", lazy=True)
    with pytest.raises(gitlab.GitlabCreateError) as forbidden:
        reader.wikis.create({"title": "x", "content": "y"})
    assert forbidden.value.response_code == 403


def test_group_wikis(svc: FakeService) -> None:
    group = _client(svc, "olga").groups.get("docs")
    assert [w.slug for w in group.wikis.list()] == ["handbook"]
    made = group.wikis.create({"title": "faq", "content": "Q?", "format": "org"})
    assert made.format == "org"
    found = group.wikis.get("faq")
    found.title = "FAQ"
    found.save()
    assert [w.slug for w in group.wikis.list()] == ["FAQ", "handbook"]
    group.wikis.delete("FAQ")
    assert [w.slug for w in group.wikis.list()] == ["handbook"]
