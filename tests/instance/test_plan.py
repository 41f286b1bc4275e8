"""One plan: the top-level ``plan`` key and ``instance.plan`` both set the instance
record's plan, which the settings tables (project and group settings) and the paid
features (epics, storage moves of groups, Geo) all read."""

from __future__ import annotations

from typing import Any

import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService
from fakeservice.instance.models import instance
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.web.settings_table import instance_plan

ROOT_USER = {"username": "root", "admin": True, "tokens": [{"token": ROOT}]}


def _service(**keys: Any) -> FakeService:
    return FakeService(
        {
            "users": [ROOT_USER],
            "groups": [{"path": "g", "epics": [{"title": "kept"}]}],
            "projects": [{"path": "g/p"}],
            **keys,
        }
    )


@pytest.mark.parametrize("keys", [{"plan": "free"}, {"instance": {"plan": "free"}}])
def test_either_key_narrows_settings_and_epics_alike(keys: dict[str, Any]) -> None:
    svc = _service(**keys)
    assert instance(svc.store).plan == instance_plan(svc.store) == "free"
    assert call(svc, "GET", "/groups/g/epics").status == 403
    response = call(svc, "PUT", "/projects/g%2Fp", json_body={"merge_trains_enabled": True})
    assert response.status == 200
    assert "merge_trains_enabled" not in body(response)


def test_both_keys_agreeing_load() -> None:
    svc = _service(plan="premium", instance={"plan": "premium"})
    assert instance_plan(svc.store) == "premium"
    assert call(svc, "GET", "/groups/g/epics").status == 200


def test_both_keys_disagreeing_are_refused() -> None:
    with pytest.raises(ScenarioError, match="disagrees with the top-level plan"):
        _service(plan="free", instance={"plan": "ultimate"})


def test_default_is_ultimate() -> None:
    svc = _service()
    assert instance_plan(svc.store) == "ultimate"
    response = call(svc, "PUT", "/projects/g%2Fp", json_body={"merge_trains_enabled": True})
    assert body(response)["merge_trains_enabled"] is True
