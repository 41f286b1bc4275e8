"""Notes in scenarios: the ``notes`` key of ``projects[]`` (comments on the project's issues
and merge requests, loaded after both).

.. code-block:: yaml

    projects:
      - path: acme/website
        notes:
          - {issue: 1, body: Seen it too, author: bob}
          - {merge_request: 1, body: Looks good, author: alice}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.issues import models as issues
from fakeservice.issues.scenario import default_author
from fakeservice.labels.scenario import items
from fakeservice.merge_requests import models as merge_requests
from fakeservice.notes import models
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import INT, STR, Field, ListOf, Record, exactly_one
from fakeservice.scenarios.sections import Sections

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

NOTE = Record(
    "note",
    {
        "issue": Field(INT, "the issue's iid"),
        "merge_request": Field(INT, "the merge request's iid"),
        "body": Field(STR, "the comment (at most 1,000,000 characters)", required=True),
        "author": Field(STR, "a username (default: the project's creator or root)"),
    },
    rules=(exactly_one("issue", "merge_request"),),
)
NOTES = ListOf(NOTE)


def load_notes(service: FakeService, project: Any, value: Any, where: str) -> None:
    store = service.store
    now = service.clock.now()
    for here, spec in items(value, where):
        if spec.get("issue") is not None:
            kind, record, table = (
                "Issue",
                issues.find(store, project.id, int(spec["issue"])),
                issues.issues,
            )
        else:
            iid = int(spec.get("merge_request") or 0)
            kind, record, table = (
                "MergeRequest",
                merge_requests.find(store, project.id, iid),
                merge_requests.merge_requests,
            )
        if record is None:
            raise ScenarioError([(here, f"no {kind} with that iid in the project")])
        problem = models.body_problem(spec.get("body"))
        if problem is not None:
            raise ScenarioError([(f"{here}.body", problem)])
        models.create(
            store,
            kind=kind,
            noteable_id=record.id,
            noteable_iid=record.iid,
            project_id=project.id,
            author_id=default_author(service, project, spec, here),
            body=str(spec["body"]),
            now=now,
        )
        table(store).update(
            record, user_notes_count=models.user_notes_count(store, kind, record.id)
        )


def register(found: Sections) -> None:
    """Declare the notes area's scenario keys."""
    found.register_project_section(
        "notes", load_notes, schema=NOTES, doc="comments on issues and merge requests"
    )
