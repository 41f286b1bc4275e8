"""``docs/scenarios.md`` stays in step with the schema it documents."""

from __future__ import annotations

from pathlib import Path

from fakeservice.scenarios import spec

DOC = Path(__file__).resolve().parents[2] / "docs" / "scenarios.md"


def test_reference_section_is_generated_from_the_schema() -> None:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("<!-- reference:start -->\n") + len("<!-- reference:start -->\n")
    end = text.index("<!-- reference:end -->")
    assert text[start:end] == spec.reference(), (
        "docs/scenarios.md is out of date: paste the output of "
        "`python -m fakeservice.scenarios.spec` between the reference markers"
    )


def test_every_action_is_explained_in_the_guide() -> None:
    guide = DOC.read_text(encoding="utf-8").split("## Reference")[0]
    for action in spec.ACTIONS:
        assert f"`{action}`" in guide, action
    for key in spec.EXPECT.fields:
        assert f"`{key}`" in guide, key
