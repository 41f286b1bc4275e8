"""The collaboration scenario keys: loaded into state, and refused with line numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from fakeservice import FakeService
from fakeservice.scenarios.problems import ScenarioError

BAD = """\
extends: default
projects:
  - path: acme/extra
    labels:
      - {name: bug, colour: red}
    issues:
      - {description: no title}
"""


def test_problems_carry_line_numbers(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(BAD)
    with pytest.raises(ScenarioError) as caught:
        FakeService(tmp_path / "bad.yaml")
    found = {(d.line, d.where) for d in caught.value.details}
    assert (5, "projects[0].labels[0].colour") in found
    assert (7, "projects[0].issues[0]") in found


def test_unknown_milestone_is_reported(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(
        "extends: default\nprojects:\n  - path: acme/extra\n    issues: [{title: a, milestone: nope}]\n"
    )
    with pytest.raises(ScenarioError) as caught:
        FakeService(tmp_path / "s.yaml")
    assert "unknown milestone 'nope'" in str(caught.value)
