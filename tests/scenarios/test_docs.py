"""``docs/scenarios.md`` stays in step with the schema it documents, keys and actions
that areas register included, whatever order the areas were imported in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fakeservice.areas import compose
from fakeservice.scenarios import spec
from fakeservice.scenarios.reference import reference
from fakeservice.scenarios.sections import Sections

DOC = Path(__file__).resolve().parents[2] / "docs" / "scenarios.md"
START = "<!-- reference:start -->\n"
END = "<!-- reference:end -->"
AREA_PROJECT_KEYS = (
    "files",
    "branches",
    "commits",
    "tags",
    "protected_branches",
    "ci",
    "protected_environments",
)


def reference_in_doc() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text[text.index(START) + len(START) : text.index(END)]


def table_of(reference: str, record: str) -> str:
    """The Markdown table of one record in the reference."""
    start = reference.index(f"### `{record}`\n")
    end = reference.find("\n### ", start + 1)
    return reference[start : end if end != -1 else len(reference)]


def test_reference_section_is_generated_from_the_schema() -> None:
    assert reference_in_doc() == reference(), (
        "docs/scenarios.md is out of date: paste the output of "
        "`python -m fakeservice.scenarios.reference` between the reference markers"
    )


def test_the_generator_gives_the_same_text_in_a_fresh_process() -> None:
    fresh = subprocess.run(
        [sys.executable, "-m", "fakeservice.scenarios.reference"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert fresh.stdout == reference_in_doc()


def test_area_keys_and_actions_are_listed() -> None:
    reference = reference_in_doc()
    project = table_of(reference, "project")
    for key in AREA_PROJECT_KEYS:
        assert f"| `{key}` |" in project, key
    assert "| `runner` | runner mapping |" in table_of(reference, "scenario")
    step = table_of(reference, "step")
    for action in ("runner", "job_outcome", "start_job", "run_pipeline"):
        assert f"| `{action}` |" in step, action
    for record in ("ci", "project_runner", "outcome", "pipeline", "runner", "commit", "tag"):
        assert f"### `{record}`\n" in reference, record
    assert "| `pipelines_on_push` | true or false |" in table_of(reference, "project_runner")


def test_the_reference_does_not_depend_on_registration_order() -> None:
    found = compose().sections
    reordered = Sections()
    for kind, registry in found.registries.items():
        reordered.registries[kind] = dict(reversed(list(registry.items())))
    assert spec.reference(reordered) == reference()


def test_every_action_is_explained_in_the_guide() -> None:
    guide = DOC.read_text(encoding="utf-8").split("## Reference")[0]
    for action in [*spec.ACTIONS, *compose().sections.sections("action")]:
        assert f"`{action}`" in guide, action
    for key in spec.EXPECT.fields:
        assert f"`{key}`" in guide, key
