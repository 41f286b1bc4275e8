"""Services are composed of areas: each area's router, tables, listeners and scenario
keys belong to the services made with it, so two services in one process can differ."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from support.services import track

from fakeservice import FakeService
from fakeservice.areas import AREAS, compose
from fakeservice.composition import Composition
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.web.context import Context
from fakeservice.web.routing import PUBLIC, AreaRouter

ROOT = "root-token"
WITHOUT_CI = tuple(area for area in AREAS if area != "fakeservice.ci.area")
NOT_FOUND = b'{"error":"404 Not Found"}'

widgets = AreaRouter("widgets")


@widgets.get("/widgets", auth=PUBLIC)
def list_widgets(ctx: Context) -> Any:
    """The widgets (a test area)."""
    return [{"id": 1, "name": "sprocket"}]


def widget_area(setup: Composition) -> None:
    setup.routes(widgets)


def test_a_service_without_the_ci_area_does_not_answer_ci_routes() -> None:
    full = track(FakeService())
    lean = track(FakeService(areas=WITHOUT_CI))
    assert full.request("GET", "/projects/acme%2Fwebsite/pipelines", token=ROOT).status == 200
    missing = lean.request("GET", "/projects/acme%2Fwebsite/pipelines", token=ROOT)
    assert (missing.status, missing.body) == (404, NOT_FOUND)
    assert lean.request("GET", "/projects/acme%2Fwebsite", token=ROOT).status == 200
    assert "ci_pipelines" in full.store.tables
    assert "ci_pipelines" not in lean.store.tables
    assert not hasattr(lean, "runner")


def test_python_gitlab_sees_each_service_as_composed() -> None:
    full = track(FakeService())
    lean = track(FakeService(areas=WITHOUT_CI))
    on_full = gitlab.Gitlab(full.url, private_token=ROOT, session=full.requests_session())
    on_lean = gitlab.Gitlab(lean.url, private_token=ROOT, session=lean.requests_session())
    assert on_full.projects.get("acme/website").pipelines.list(get_all=True) == []
    project = on_lean.projects.get("acme/website")
    assert project.path_with_namespace == "acme/website"
    with pytest.raises(gitlab.GitlabListError) as caught:
        project.pipelines.list(get_all=True)
    assert caught.value.response_code == 404


def test_an_extra_area_adds_its_endpoints_to_its_services_only() -> None:
    extended = track(FakeService(None, areas=[*AREAS, widget_area]))
    plain = track(FakeService(None))
    found = extended.request("GET", "/widgets")
    assert (found.status, found.json()) == (200, [{"id": 1, "name": "sprocket"}])
    missing = plain.request("GET", "/widgets")
    assert (missing.status, missing.body) == (404, NOT_FOUND)


def test_listeners_belong_to_the_service_of_their_area() -> None:
    lean = track(FakeService(areas=WITHOUT_CI))
    full = track(FakeService())
    full.runner.set_mode("instant")
    created = full.request(
        "POST", "/projects/acme%2Fwebsite/pipeline", json_body={"ref": "main"}, token=ROOT
    )
    assert created.status == 201
    # the lean service has no pipelines table: deleting a project must not reach CI's hook
    assert lean.request("DELETE", "/projects/acme%2Fwebsite", token=ROOT).status == 202
    assert lean.request("GET", "/projects/acme%2Fwebsite", token=ROOT).status == 404
    assert lean.store.extras.get("repositories", {}).get(1) is None
    assert full.request("DELETE", "/projects/acme%2Fwebsite", token=ROOT).status == 202
    assert len(full.store.tables["ci_pipelines"]) == 0


def test_a_scenario_may_only_use_the_keys_of_its_services_areas() -> None:
    scenario = {
        "users": [{"username": "o"}],
        "projects": [{"path": "o/p", "ci": {"runner": {"mode": "instant"}}}],
    }
    track(FakeService(scenario))
    with pytest.raises(ScenarioError) as caught:
        FakeService(scenario, areas=WITHOUT_CI)
    assert caught.value.details[0].where == "projects[0].ci"


def test_templates_and_replaced_scenarios_keep_the_areas() -> None:
    lean = track(FakeService(areas=WITHOUT_CI))
    stamped = track(FakeService.from_template(lean.template()))
    assert stamped.composition is lean.composition
    assert stamped.request("GET", "/projects/1/pipelines", token=ROOT).status == 404
    lean.load_scenario("default", replace=True)
    assert lean.composition.areas == WITHOUT_CI
    assert lean.request("GET", "/projects/1/pipelines", token=ROOT).status == 404


def test_a_composition_is_built_once_per_list_of_areas() -> None:
    assert compose() is compose(AREAS)
    assert FakeService(None).router is FakeService(None).router
    assert compose(WITHOUT_CI) is not compose()
    # one router per area, in the order the areas are listed
    assert [router.area for router in compose().routers] == [area.split(".")[1] for area in AREAS]
