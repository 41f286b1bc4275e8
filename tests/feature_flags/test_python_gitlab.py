"""Feature flags through python-gitlab: project.feature_flags (list with scope, get,
create with strategies, save with a rename, delete) and project.feature_flags_user_lists."""

from __future__ import annotations

import gitlab
import pytest

from fakeservice import FakeService


def _project(svc: FakeService, who: str = "dan") -> object:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token=f"{who}-token", session=svc.requests_session()
    )
    return gl.projects.get("dan/shop")


def test_feature_flags(svc: FakeService) -> None:
    project = _project(svc)
    assert [f.name for f in project.feature_flags.list(scope="enabled")] == ["new_checkout"]
    strategies = [
        {
            "name": "userWithId",
            "parameters": {"userIds": "u1"},
            "scopes": [{"environment_scope": "review/*"}],
        }
    ]
    flag = project.feature_flags.create(
        {"name": "banner", "description": "hi", "strategies": strategies}
    )
    assert flag.strategies[0]["scopes"][0]["environment_scope"] == "review/*"
    flag.name = "banner_v2"
    flag.active = False
    flag.save()
    got = project.feature_flags.get("banner_v2")
    assert (got.active, got.description) == (False, "hi")
    got.delete()
    with pytest.raises(gitlab.GitlabGetError) as missing:
        project.feature_flags.get("banner_v2")
    assert missing.value.response_code == 404
    with pytest.raises(gitlab.GitlabCreateError) as taken:
        project.feature_flags.create({"name": "dark_mode"})
    assert taken.value.response_code == 400


def test_user_lists(svc: FakeService) -> None:
    project = _project(svc)
    made = project.feature_flags_user_lists.create({"name": "ops", "user_xids": ["o1", "o2"]})
    assert made.user_xids == "o1,o2"
    made.name = "operators"
    made.save()
    assert project.feature_flags_user_lists.get(made.iid).name == "operators"
    assert [u.name for u in project.feature_flags_user_lists.list(search="oper")] == ["operators"]
    made.delete()
    with pytest.raises(gitlab.GitlabDeleteError) as in_use:
        project.feature_flags_user_lists.delete(1)
    assert in_use.value.response_code == 409
    reader = _project(svc, "rita")
    with pytest.raises(gitlab.GitlabListError):
        reader.feature_flags.list()
