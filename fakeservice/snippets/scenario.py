"""Snippets in scenarios: the ``snippets`` key of ``projects[]`` (each snippet's files become
its repository's first commit).

.. code-block:: yaml

    projects:
      - path: acme/website
        snippets:
          - title: Deploy notes
            visibility: internal
            author: alice
            files: {deploy.md: "# Deploy\\n", run.sh: "make deploy\\n"}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.issues.scenario import default_author
from fakeservice.labels.scenario import api_message, items
from fakeservice.repository.git import Action
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import STR, Choice, Field, ListOf, MapOf, Record
from fakeservice.scenarios.sections import Sections
from fakeservice.snippets import models
from fakeservice.users.models import users

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

SNIPPET = Record(
    "snippet",
    {
        "title": Field(STR, "the snippet's title", required=True),
        "description": Field(STR, "what it is"),
        "visibility": Field(Choice(models.VISIBILITIES), "private (default), internal or public"),
        "author": Field(STR, "a username (default: the project's creator or root)"),
        "files": Field(MapOf(STR), "path: content", required=True),
    },
)
SNIPPETS = ListOf(SNIPPET)


def load_snippets(service: FakeService, project: Any, value: Any, where: str) -> None:
    store = service.store
    for here, spec in items(value, where):
        files = spec.get("files")
        if not spec.get("title") or not isinstance(files, dict) or not files:
            raise ScenarioError([(here, "title and files are required")])
        author = users(store).rows[default_author(service, project, spec, here)]
        actions = [
            Action("create", str(path), str(content).encode()) for path, content in files.items()
        ]
        try:
            models.create(
                store,
                author,
                service.clock.now(),
                project_id=project.id,
                title=str(spec["title"]),
                description=spec.get("description"),
                visibility=str(spec.get("visibility") or "private"),
                actions=actions,
            )
        except ApiError as error:
            raise ScenarioError([(here, api_message(error))]) from error


def register(found: Sections) -> None:
    """Declare the snippets area's scenario keys."""
    found.register_project_section(
        "snippets", load_snippets, schema=SNIPPETS, doc="project snippets"
    )
