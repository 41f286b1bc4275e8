"""``docs/ci.md`` names every ``/_fake/ci`` endpoint, every public method of
``svc.runner`` and every CI scenario key, so the guide cannot fall behind the code."""

from __future__ import annotations

import inspect
from pathlib import Path

from fakeservice.areas import compose
from fakeservice.ci import scenario
from fakeservice.ci.runner.runner import Runner

DOC = Path(__file__).resolve().parents[2] / "docs" / "ci.md"


def test_every_control_endpoint_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    found = [e for e in compose().router.endpoints if e.pattern.startswith("/_fake/ci")]
    assert len(found) >= 8
    for endpoint in found:
        assert f"`{endpoint.method} {endpoint.pattern}`" in text, endpoint.pattern


def test_every_runner_method_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    public = [
        name
        for name, member in inspect.getmembers(Runner, inspect.isfunction)
        if not name.startswith("_") and name not in ("attach_clock", "on_clock", "now")
    ]
    for name in public:
        assert f"`{name}(" in text, name


def test_every_scenario_key_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    for record in (scenario.RUNNER, scenario.CI, scenario.PIPELINE, scenario.OUTCOME):
        for key in record.fields:
            assert f"{key}:" in text or f"`{key}`" in text, (record.name, key)
    for action in ("runner", "job_outcome", "start_job", "run_pipeline", "finish_job"):
        assert f"`{action}:" in text, action
