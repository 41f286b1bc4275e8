"""``GET``/``PUT /application/settings``: administrators only, the storage fields of the
default scenario, exact round trips, validation that changes nothing, the ``instance``
scenario section and python-gitlab's ``gl.settings``."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.calls import ROOT, body, call

from fakeservice import FakeService
from fakeservice.instance.settings import SETTINGS
from fakeservice.scenarios.loader import ScenarioError

PATH = "/application/settings"


def test_defaults_name_both_storages(svc: FakeService) -> None:
    answer = call(svc, "GET", PATH)
    assert answer.status == 200
    data = body(answer)
    assert data["id"] == 1
    assert data["repository_storages_weighted"] == {"default": 100, "storage2": 0}
    assert data["max_import_size"] == 0
    assert data["default_project_visibility"] == "private"
    assert data["created_at"] == "2026-01-01T09:00:00Z"
    # the runners area adds the instance's runner registration token (read-only)
    assert list(data)[1:-3] == list(SETTINGS)
    assert list(data)[-3:] == ["created_at", "updated_at", "runners_registration_token"]


@pytest.mark.parametrize(
    ("token", "status", "answer"),
    [
        (None, 401, {"message": "401 Unauthorized"}),
        ("alice-token", 403, {"message": "403 Forbidden"}),
    ],
)
def test_administrators_only(svc: FakeService, token: str | None, status: int, answer: Any) -> None:
    for method in ("GET", "PUT"):
        response = call(svc, method, PATH, token, json_body={"signup_enabled": False})
        assert (response.status, body(response)) == (status, answer)
    assert body(call(svc, "GET", PATH))["signup_enabled"] is True


def test_update_round_trips_exactly(svc: FakeService) -> None:
    changes = {
        "signup_enabled": False,
        "max_import_size": 50,
        "default_project_visibility": "internal",
        "restricted_visibility_levels": ["public"],
        "home_page_url": "https://example.com/home",
        "repository_storages_weighted": {"default": 20, "storage2": 80},
    }
    svc.advance_clock(seconds=60)
    updated = call(svc, "PUT", PATH, json_body=changes)
    assert updated.status == 200
    again = body(call(svc, "GET", PATH))
    assert again == body(updated)
    assert {key: again[key] for key in changes} == changes
    assert again["updated_at"] == "2026-01-01T09:01:00Z"


def test_form_bodies_are_coerced(svc: FakeService) -> None:
    response = call(
        svc,
        "PUT",
        PATH,
        data={
            "repository_storages_weighted[storage2]": "30",
            "import_sources": "github,git",
            "gravatar_enabled": "false",
        },
    )
    assert response.status == 200, response.body
    data = body(response)
    assert data["repository_storages_weighted"] == {"storage2": 30}
    assert data["import_sources"] == ["github", "git"]
    assert data["gravatar_enabled"] is False


@pytest.mark.parametrize(
    ("changes", "status", "answer"),
    [
        ({"max_import_size": "lots"}, 400, {"error": "max_import_size is invalid"}),
        (
            {"default_project_visibility": "secret"},
            400,
            {"error": "default_project_visibility does not have a valid value"},
        ),
        (
            {"max_import_size": -1},
            400,
            {"message": {"max_import_size": ["must be greater than or equal to 0"]}},
        ),
        (
            {"repository_storages_weighted": {"nfs-01": 10, "default": 101}},
            400,
            {
                "message": {
                    "repository_storages_weighted": [
                        "can't include: nfs-01",
                        "value for 'default' must be between 0 and 100",
                    ]
                }
            },
        ),
        (
            {"repository_storages_weighted": {"default": "heavy"}},
            400,
            {"message": {"repository_storages_weighted": ["value for 'default' must be an integer"]}},
        ),
        ({"repository_storages_weighted": "default"}, 400,
         {"error": "repository_storages_weighted is invalid"}),
    ],
)  # fmt: skip
def test_invalid_updates_change_nothing(
    svc: FakeService, changes: dict[str, Any], status: int, answer: Any
) -> None:
    before = body(call(svc, "GET", PATH))
    response = call(svc, "PUT", PATH, json_body={"signup_enabled": False, **changes})
    assert (response.status, body(response)) == (status, answer)
    assert body(call(svc, "GET", PATH)) == before


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    st.dictionaries(
        st.sampled_from(sorted(SETTINGS)),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-(2**40), 2**40),
            st.text(max_size=8),
            st.lists(st.text(max_size=5), max_size=3),
            st.dictionaries(st.text(max_size=8), st.one_of(st.integers(), st.text(max_size=3))),
        ),
    )
)
def test_no_update_body_answers_500(svc: FakeService, changes: dict[str, Any]) -> None:
    response = call(svc, "PUT", PATH, json_body=changes)
    assert response.status in (200, 400)
    if response.status == 400:
        return
    assert body(call(svc, "GET", PATH)) == body(response)


def test_scenario_narrows_plan_and_declares_storages() -> None:
    svc = FakeService(
        {
            "users": [{"username": "root", "admin": True, "tokens": [{"token": ROOT}]}],
            "instance": {
                "plan": "free",
                "storages": ["nfs-a", "nfs-b", "nfs-c"],
                "settings": {"repository_storages_weighted": {"nfs-b": 100}},
            },
        }
    )
    data = body(call(svc, "GET", PATH))
    assert data["repository_storages_weighted"] == {"nfs-b": 100}
    from fakeservice.instance.models import instance

    assert instance(svc.store).plan == "free"


@pytest.mark.parametrize(
    "spec",
    [
        {"plan": "gold"},
        {"storages": []},
        {"settings": {"repository_storages_weighted": {"elsewhere": 1}}},
        {"settings": {"max_import_size": "big"}},
    ],
)
def test_scenario_refuses_bad_instances(spec: dict[str, Any]) -> None:
    with pytest.raises(ScenarioError):
        FakeService({"instance": spec})


def test_scenario_refuses_projects_on_undeclared_storages() -> None:
    with pytest.raises(ScenarioError, match="undeclared storages: nfs-9"):
        FakeService(
            {
                "users": [{"username": "u"}],
                "projects": [{"path": "u/p", "repository_storage": "nfs-9"}],
                "instance": {"storages": ["default"]},
            }
        )


def test_python_gitlab_settings(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ROOT)
        current = gl.settings.get()
        assert current.repository_storages_weighted == {"default": 100, "storage2": 0}
        current.max_import_size = 25
        current.restricted_visibility_levels = ["internal", "public"]
        current.repository_storages_weighted = {"default": 0, "storage2": 100}
        current.save()
        again = gl.settings.get()
        assert again.max_import_size == 25
        assert again.restricted_visibility_levels == ["internal", "public"]
        assert again.repository_storages_weighted == {"default": 0, "storage2": 100}
