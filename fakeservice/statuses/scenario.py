"""The ``statuses`` key of ``projects[]``: commit statuses reported in order, as
``POST /projects/:id/statuses/:sha`` would (so they join or make pipelines and move
through the same machine; a refused transition is reported at its key)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.projects.models import Project
from fakeservice.repository.models import read_repository
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.references import named_user
from fakeservice.scenarios.schema import NUM, STR, Choice, Field, ListOf, Record
from fakeservice.scenarios.sections import Sections
from fakeservice.statuses import models

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

STATUSES = ListOf(
    Record(
        "commit status",
        {
            "state": Field(Choice(models.STATES), "pending, running, success, failed...", True),
            "commit": Field(STR, "a sha, branch or tag (default: the default branch)"),
            "ref": Field(STR, "the ref reported (default: as the API picks it)"),
            "name": Field(STR, "status name (default: `default`)"),
            "target_url": Field(STR),
            "description": Field(STR),
            "coverage": Field(NUM),
            "author": Field(STR, "username of the reporter (default: the project's creator)"),
        },
    )
)


def load(service: FakeService, project: Project, value: Any, where: str) -> None:
    repo = read_repository(service.store, project)
    for index, spec in enumerate(value):
        here = f"{where}[{index}]"
        author = spec.get("author")
        user_id = (
            named_user(service.store, author, f"{here}.author").id
            if author is not None
            else project.creator_id
        )
        if user_id is None:
            raise ScenarioError([(here, "no author: name one with `author`")])
        commit = repo.find_commit(str(spec.get("commit") or repo.default_branch))
        if commit is None:
            raise ScenarioError([(f"{here}.commit", "no such commit")])
        coverage = spec.get("coverage")
        report = models.Report(
            state=str(spec["state"]),
            name=str(spec.get("name") or "default"),
            ref=str(spec["ref"]) if spec.get("ref") else None,
            target_url=spec.get("target_url"),
            description=spec.get("description"),
            coverage=float(coverage) if coverage is not None else None,
        )
        try:
            models.post(
                service.store, project, repo, commit.id, report, user_id, service.clock.now()
            )
        except ApiError as error:
            body = error.body
            raise ScenarioError([(here, str(body.get("message", body)))]) from error


def register(found: Sections) -> None:
    found.register_project_section(
        "statuses", load, schema=STATUSES, doc="commit statuses, reported in order"
    )
