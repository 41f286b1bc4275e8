"""The groups endpoints through python-gitlab over a live loopback server."""

from __future__ import annotations

from collections.abc import Iterator

import gitlab
import pytest

from fakeservice import FakeService

from .conftest import WORLD


@pytest.fixture(scope="module")
def live() -> Iterator[tuple[FakeService, str]]:
    service = FakeService(WORLD)
    with service.serve() as url:
        yield service, url
    assert not service.server_errors


@pytest.fixture
def served(live: tuple[FakeService, str]) -> Iterator[tuple[FakeService, str]]:
    """The live service, reset to the world before each test."""
    service, url = live
    service.reset()
    yield service, url
    assert not service.server_errors


def client(url: str, who: str | None = None) -> gitlab.Gitlab:
    return gitlab.Gitlab(url, private_token=f"{who}-token" if who else None)


def test_list_all_pages(served: tuple[FakeService, str]) -> None:
    _, url = served
    groups = client(url, "root").groups.list(get_all=True, per_page=3)
    assert [g.full_path for g in groups] == [
        "alpha",
        "alpha/beta",
        "pub",
        "alpha/delta",
        "alpha/beta/gamma",
        "zeta/hidden",
        "omega",
        "zeta",
    ]
    mine = client(url, "mia").groups.list(get_all=True)
    assert [g.full_path for g in mine] == ["alpha", "alpha/beta", "alpha/beta/gamma"]
    anonymous = client(url).groups.list(get_all=True)
    assert [g.full_path for g in anonymous] == ["alpha", "pub"]


def test_filters(served: tuple[FakeService, str]) -> None:
    _, url = served
    gl = client(url, "olga")
    assert [g.full_path for g in gl.groups.list(owned=True, get_all=True)] == ["alpha"]
    alpha = gl.groups.get("alpha")
    skipped = gl.groups.list(skip_groups=[alpha.id], top_level_only=True, get_all=True)
    assert [g.full_path for g in skipped] == ["zeta"]
    assert [g.full_path for g in gl.groups.list(search="gamma", get_all=True)] == [
        "alpha/beta/gamma"
    ]


def test_keyset_iteration_for_anonymous_callers(served: tuple[FakeService, str]) -> None:
    _, url = served
    found = client(url).groups.list(
        pagination="keyset", order_by="name", sort="asc", per_page=1, iterator=True
    )
    assert [g.full_path for g in found] == ["alpha", "pub"]
    with pytest.raises(gitlab.GitlabListError) as raised:
        client(url, "olga").groups.list(
            pagination="keyset", order_by="name", sort="asc", get_all=True
        )
    assert raised.value.response_code == 405
    assert (
        raised.value.error_message
        == "Keyset pagination is not yet available for this type of request"
    )


def test_get_by_encoded_path_and_not_found(served: tuple[FakeService, str]) -> None:
    _, url = served
    beta = client(url, "otto").groups.get("alpha/beta")
    assert (beta.full_path, beta.name, beta.visibility) == ("alpha/beta", "Beta", "internal")
    with pytest.raises(gitlab.GitlabGetError) as raised:
        client(url).groups.get("alpha/beta")
    assert (raised.value.response_code, raised.value.error_message) == (404, "404 Group Not Found")
    with pytest.raises(gitlab.GitlabGetError):
        client(url, "otto").groups.get("zeta")


def test_subgroups_descendants_and_projects(served: tuple[FakeService, str]) -> None:
    _, url = served
    alpha = client(url, "olga").groups.get("alpha")
    assert [g.full_path for g in alpha.subgroups.list(get_all=True)] == [
        "alpha/beta",
        "alpha/delta",
    ]
    assert [g.full_path for g in alpha.descendant_groups.list(get_all=True)] == [
        "alpha/beta",
        "alpha/delta",
        "alpha/beta/gamma",
    ]
    projects = alpha.projects.list(include_subgroups=True, with_shared=False, get_all=True)
    assert [p.path_with_namespace for p in projects] == [
        "alpha/beta/gamma/core",
        "alpha/beta/api",
        "alpha/secret",
        "alpha/tools",
        "alpha/site",
    ]
    shared = alpha.shared_projects.list(get_all=True)
    assert [p.path_with_namespace for p in shared] == ["pub/shared", "omega/lib"]


def test_create_update_delete(served: tuple[FakeService, str]) -> None:
    service, url = served
    gl = client(url, "otto")
    group = gl.groups.create({"name": "Otto Group", "path": "otto-group", "description": "d"})
    assert (group.full_path, group.visibility) == ("otto-group", "private")
    assert group.attributes["projects"] == []
    sub = gl.groups.create({"name": "Sub", "path": "sub", "parent_id": group.id})
    assert sub.full_path == "otto-group/sub"
    group.path = "renamed"
    group.description = "new"
    group.save()
    assert gl.groups.get(sub.id).full_path == "renamed/sub"
    with pytest.raises(gitlab.GitlabCreateError) as raised:
        gl.groups.create({"name": "Again", "path": "renamed"})
    assert raised.value.response_code == 400
    with pytest.raises(gitlab.GitlabUpdateError) as denied:
        alpha = gl.groups.get("alpha")
        alpha.description = "mine now"
        alpha.save()
    assert denied.value.response_code == 403
    gl.groups.delete(group.id)
    with pytest.raises(gitlab.GitlabGetError):
        gl.groups.get("renamed/sub")
    assert not service.server_errors
