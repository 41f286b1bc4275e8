"""The ``releases`` key of ``projects[]``: releases of existing tags, with their links."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.core.clock import as_time
from fakeservice.projects.models import Project
from fakeservice.releases import models
from fakeservice.repository.models import read_repository
from fakeservice.scenarios.problems import ScenarioError
from fakeservice.scenarios.references import named_user
from fakeservice.scenarios.schema import STR, TIME, Choice, Field, ListOf, Record
from fakeservice.scenarios.sections import Sections

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

LINK = Record(
    "release link",
    {
        "name": Field(STR, "link name", True),
        "url": Field(STR, "link URL", True),
        "link_type": Field(Choice(models.LINK_TYPES), "other (default), runbook, image, package"),
        "filepath": Field(STR, "direct asset path (``/bin/app``)"),
    },
)
RELEASES = ListOf(
    Record(
        "release",
        {
            "tag": Field(STR, "an existing tag (see ``tags``)", True),
            "name": Field(STR, "release name (default: the tag)"),
            "description": Field(STR, "release notes"),
            "released_at": Field(TIME, "release date (default: the scenario clock)"),
            "author": Field(STR, "username of the author (default: the project's creator)"),
            "links": Field(ListOf(LINK), "asset links"),
        },
    )
)


def load(service: FakeService, project: Project, value: Any, where: str) -> None:
    repo = read_repository(service.store, project)
    now = service.clock.now()
    for index, spec in enumerate(value):
        here = f"{where}[{index}]"
        tag = repo.tag(str(spec["tag"]))
        if tag is None:
            raise ScenarioError([(f"{here}.tag", f"no tag {spec['tag']!r} in the project")])
        if models.find(service.store, project.id, tag.name) is not None:
            raise ScenarioError([(f"{here}.tag", f"a release of {tag.name!r} exists")])
        author = spec.get("author")
        author_id = (
            named_user(service.store, author, f"{here}.author").id
            if author is not None
            else project.creator_id
        )
        released = spec.get("released_at")
        models.add(
            service.store,
            project_id=project.id,
            tag_name=tag.name,
            sha=tag.commit_id,
            name=spec.get("name"),
            description=spec.get("description"),
            author_id=author_id,
            now=now,
            released_at=as_time(released) if released is not None else None,
            link_fields=[
                {
                    "name": str(link["name"]),
                    "url": str(link["url"]),
                    "link_type": str(link.get("link_type") or "other"),
                    "filepath": link.get("filepath"),
                }
                for link in spec.get("links") or []
            ],
        )


def register(found: Sections) -> None:
    found.register_project_section(
        "releases", load, schema=RELEASES, doc="releases of existing tags, with asset links"
    )
