"""Protected environments through python-gitlab (the reference client) over a live server,
plus a property test: no body, however malformed, makes the service answer 500."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.calls import body, call

from fakeservice import FakeService

from .conftest import MAYA, SHOP, ids, new_service


def test_python_gitlab_round_trip(svc: FakeService) -> None:
    known = ids(svc)
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=MAYA)
        project = gl.projects.get("acme/shop")
        manager = project.protected_environments
        assert manager.list(get_all=True) == []

        created = manager.create(
            {
                "name": "production",
                "deploy_access_levels": [
                    {"access_level": gitlab.const.AccessLevel.MAINTAINER},
                    {"user_id": known["dora"]},
                ],
                "required_approval_count": 1,
            }
        )
        assert created.name == "production"
        assert created.get_id() == "production"
        assert [e["access_level_description"] for e in created.deploy_access_levels] == [
            "Maintainers",
            "Dora Developer",
        ]
        assert created.required_approval_count == 1

        manager.create({"name": "review/app", "deploy_access_levels": [{"access_level": 30}]})
        listed = manager.list(get_all=True)
        assert [env.name for env in listed] == ["production", "review/app"]

        fetched = manager.get("review/app")  # python-gitlab encodes the slash
        assert fetched.deploy_access_levels[0]["access_level_description"] == (
            "Developers + Maintainers"
        )

        with pytest.raises(gitlab.GitlabCreateError) as conflict:
            manager.create({"name": "production", "deploy_access_levels": [{"access_level": 40}]})
        assert conflict.value.response_code == 409
        assert conflict.value.error_message == "Protected environment 'production' already exists"

        with pytest.raises(gitlab.GitlabCreateError) as invalid:
            manager.create({"name": "x", "deploy_access_levels": [{"access_level": 20}]})
        assert invalid.value.response_code == 400
        assert invalid.value.error_message == (
            "deploy_access_levels[0][access_level] does not have a valid value"
        )

        fetched.delete()
        manager.delete("production")
        assert manager.list(get_all=True) == []
        with pytest.raises(gitlab.GitlabGetError) as missing:
            manager.get("production")
        assert missing.value.response_code == 404

        dora = gitlab.Gitlab(url, private_token="dora-token")
        with pytest.raises(gitlab.GitlabListError) as forbidden:
            dora.projects.get("acme/shop", lazy=True).protected_environments.list()
        assert forbidden.value.response_code == 403


def test_python_gitlab_in_process_session(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token=MAYA, session=svc.requests_session())
    project = gl.projects.get("acme/shop", lazy=True)
    env = project.protected_environments.create(
        {"name": "staging", "deploy_access_levels": [{"access_level": 30}]}
    )
    assert env.deploy_access_levels[0]["access_level"] == 30
    assert [e.name for e in project.protected_environments.list(get_all=True)] == ["staging"]


_SERVICE: list[FakeService] = []

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=8),
    st.sampled_from([30, 40, 60, 0, "40", "", "production"]),
)
entries = st.one_of(
    scalars,
    st.dictionaries(
        st.sampled_from(
            ["access_level", "user_id", "group_id", "group_inheritance_type", "required_approvals"]
        ),
        scalars,
        max_size=4,
    ),
)
payloads = st.dictionaries(
    st.sampled_from(
        ["name", "deploy_access_levels", "approval_rules", "required_approval_count", "id"]
    ),
    st.one_of(
        scalars, st.lists(entries, max_size=3), st.dictionaries(st.text(max_size=3), scalars)
    ),
    max_size=5,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=payloads)
def test_no_body_makes_a_500(payload: dict[str, Any]) -> None:
    if not _SERVICE:
        _SERVICE.append(new_service())
    svc = _SERVICE[0]
    response = call(
        svc, "POST", f"/projects/{SHOP}/protected_environments", MAYA, json_body=payload
    )
    assert response.status in (201, 400, 409, 422), response.body
    if response.status == 201:
        name = body(response)["name"]
        listed = call(svc, "GET", f"/projects/{SHOP}/protected_environments", MAYA)
        assert name in [item["name"] for item in body(listed)]
    assert not svc.server_errors
