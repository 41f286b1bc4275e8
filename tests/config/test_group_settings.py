"""Group settings: every attribute ``POST /groups`` and ``PUT /groups/:id`` accept comes
back from ``GET /groups/:id`` as written (list fields in the list too); ``emails_enabled``
and ``emails_disabled`` agree; validation changes nothing; plan- and admin-gated settings
are ignored; the project creation level decides who may create projects."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from hypothesis import HealthCheck, given, settings
from support.calls import body, call_as

from fakeservice import FakeService
from fakeservice.groups import settings as group_settings
from fakeservice.instance.models import instance

from .strategies import setting_changes

SKIPPED = {"visibility", "file_template_project_id"}
NAMES = [s.name for s in group_settings.SETTINGS if s.name not in SKIPPED]


CHANGES = setting_changes(group_settings.TABLE, NAMES, 10)


def _detail(svc: FakeService, key: str = "infra", who: str = "root") -> dict[str, Any]:
    response = call_as(svc, "GET", f"/groups/{key}", who, with_projects="false")
    assert response.status == 200, response.body
    return body(response)


@settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(changes=CHANGES)
def test_every_setting_round_trips(svc: FakeService, changes: dict[str, Any]) -> None:
    response = call_as(svc, "PUT", "/groups/infra", "root", body=changes)
    assert response.status == 200, response.body
    got = _detail(svc)
    expected = dict(changes)
    if "default_branch_protection_defaults" in expected:
        expected["default_branch_protection_defaults"] = {
            **group_settings.BRANCH_PROTECTION_DEFAULTS,
            **expected["default_branch_protection_defaults"],
        }
    for name, value in expected.items():
        assert got[name] == value, name
    assert got["emails_enabled"] is not got["emails_disabled"]
    listed = body(call_as(svc, "GET", "/groups", "root", search="infra"))
    [entry] = [g for g in listed if g["full_path"] == "infra"]
    shown = {n for n in expected if not group_settings.TABLE.by_name[n].detail}
    assert {k: entry[k] for k in shown} == {k: got[k] for k in shown}


def test_create_takes_the_settings(svc: FakeService) -> None:
    written = {
        "name": "Platform",
        "path": "platform",
        "visibility": "internal",
        "project_creation_level": "maintainer",
        "subgroup_creation_level": "owner",
        "require_two_factor_authentication": True,
        "two_factor_grace_period": 12,
        "default_branch": "trunk",
        "emails_enabled": False,
        "lfs_enabled": False,
        "request_access_enabled": False,
        "membership_lock": True,
        "prevent_forking_outside_group": True,
        "shared_runners_setting": "disabled_and_overridable",
        "wiki_access_level": "private",
        "share_with_group_lock": True,
    }
    response = call_as(svc, "POST", "/groups", "olga", body=written)
    assert response.status == 201, response.body
    got = _detail(svc, "platform", "olga")
    for name, value in written.items():
        assert got[name] == value, name
    assert got["emails_disabled"] is True


def test_emails_disabled_wins(svc: FakeService) -> None:
    both = {"emails_disabled": True, "emails_enabled": True}
    assert call_as(svc, "PUT", "/groups/infra", "olga", body=both).status == 200
    got = _detail(svc)
    assert (got["emails_disabled"], got["emails_enabled"]) == (True, False)


@pytest.mark.parametrize(
    ("written", "answer"),
    [
        (
            {"two_factor_grace_period": -1},
            {"message": {"two_factor_grace_period": ["must be greater than or equal to 0"]}},
        ),
        (
            {"shared_runners_setting": "off"},
            {"error": "shared_runners_setting does not have a valid value"},
        ),
        (
            {"project_creation_level": "everyone"},
            {"error": "project_creation_level does not have a valid value"},
        ),
        ({"membership_lock": "sure"}, {"error": "membership_lock is invalid"}),
    ],
)
def test_bad_settings_change_nothing(
    svc: FakeService, written: dict[str, Any], answer: dict[str, Any]
) -> None:
    before = _detail(svc)
    response = call_as(svc, "PUT", "/groups/infra", "olga", body={"lfs_enabled": False, **written})
    assert (response.status, body(response)) == (400, answer)
    assert _detail(svc) == before


def test_plan_and_admin_gates(svc: FakeService) -> None:
    call_as(svc, "PUT", "/groups/infra", "olga", body={"shared_runners_minutes_limit": 5})
    assert _detail(svc)["shared_runners_minutes_limit"] is None
    call_as(svc, "PUT", "/groups/infra", "root", body={"shared_runners_minutes_limit": 5})
    assert _detail(svc)["shared_runners_minutes_limit"] == 5
    instance(svc.store).plan = "free"
    response = call_as(svc, "PUT", "/groups/infra", "olga", body={"membership_lock": True})
    assert response.status == 200
    assert "membership_lock" not in body(response)
    instance(svc.store).plan = "ultimate"
    assert _detail(svc)["membership_lock"] is False


@pytest.mark.parametrize(
    ("level", "dan_may", "olga_may"),
    [
        ("developer", True, True),
        ("maintainer", False, True),
        ("owner", False, True),
        ("noone", False, False),
        ("administrator", False, False),
    ],
)
def test_project_creation_level(
    svc: FakeService, level: str, dan_may: bool, olga_may: bool
) -> None:
    call_as(svc, "PUT", "/groups/infra", "root", body={"project_creation_level": level})
    for who, may in (("dan", dan_may), ("olga", olga_may)):
        made = call_as(
            svc, "POST", "/projects", who, body={"name": f"{who}-p", "namespace_id": "infra"}
        )
        assert made.status == (201 if may else 400), (who, made.body)
    made = call_as(
        svc, "POST", "/projects", "root", body={"name": "root-p", "namespace_id": "infra"}
    )
    assert made.status == 201


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token="olga-token", session=svc.requests_session()
    )
    group = gl.groups.get("infra")
    group.default_branch = "main"
    group.prevent_forking_outside_group = True
    group.two_factor_grace_period = 24
    group.save()
    again = gl.groups.get("infra")
    assert (again.default_branch, again.prevent_forking_outside_group) == ("main", True)
    assert again.two_factor_grace_period == 24
