"""Every scenario shipped in ``scenarios/`` loads, passes ``check`` and replays green."""

from __future__ import annotations

from pathlib import Path

import pytest

from fakeservice.scenarios.check import check
from fakeservice.scenarios.replay import replay

LIBRARY = Path(__file__).resolve().parents[2] / "scenarios"
FILES = sorted(LIBRARY.glob("*.yaml"))


def test_the_library_is_there() -> None:
    names = {path.name for path in FILES}
    assert {"default.yaml", "paging.yaml", "private-visibility.yaml", "auth-failures.yaml"} <= names
    assert len(FILES) >= 5


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_scenario_checks_and_replays(path: Path) -> None:
    assert [str(p) for p in check(path)] == []
    result = replay(path)
    assert result.ok, result.report()
    if path.name != "default.yaml":
        assert result.outcomes, "a library scenario should have steps"
