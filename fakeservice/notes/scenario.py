"""Notes and award emoji in scenarios: the ``notes`` and ``award_emoji`` keys of
``projects[]`` (on the project's issues and merge requests, loaded after both). Notes
sharing a ``thread`` name on one issue or merge request form one discussion (the first
note starts it); other notes are individual-note discussions, as through the notes API.

.. code-block:: yaml

    projects:
      - path: acme/website
        notes:
          - {issue: 1, body: Seen it too, author: bob}
          - {merge_request: 1, body: Why?, author: alice, thread: naming}
          - {merge_request: 1, body: Because, author: bob, thread: naming}
        award_emoji:
          - {merge_request: 1, name: thumbsup, user: bob}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.issues import models as issues
from fakeservice.issues.scenario import default_author
from fakeservice.labels.scenario import items
from fakeservice.merge_requests import models as merge_requests
from fakeservice.notes import awards, models
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import INT, STR, Field, ListOf, Record, exactly_one
from fakeservice.scenarios.sections import Sections

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

NOTEABLE_FIELDS = {
    "issue": Field(INT, "the issue's iid"),
    "merge_request": Field(INT, "the merge request's iid"),
}
NOTE = Record(
    "note",
    {
        **NOTEABLE_FIELDS,
        "body": Field(STR, "the comment (at most 1,000,000 characters)", required=True),
        "author": Field(STR, "a username (default: the project's creator or root)"),
        "thread": Field(STR, "a name: the notes with the same one on a noteable are a thread"),
    },
    rules=(exactly_one("issue", "merge_request"),),
)
NOTES = ListOf(NOTE)
AWARD = Record(
    "award_emoji",
    {
        **NOTEABLE_FIELDS,
        "name": Field(STR, "an emoji name (`+1` is `thumbsup`)", required=True),
        "author": Field(STR, "who awards it (default: the project's creator or root)"),
    },
    rules=(exactly_one("issue", "merge_request"),),
)
AWARDS = ListOf(AWARD)


def _noteable(service: FakeService, project: Any, spec: Mapping[str, Any], here: str) -> Any:
    """``(kind, record, table)`` of the issue or merge request a scenario entry names."""
    store = service.store
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
    return kind, record, table


def load_notes(service: FakeService, project: Any, value: Any, where: str) -> None:
    store = service.store
    now = service.clock.now()
    threads: dict[tuple[str, int, str], models.Discussion] = {}
    for here, spec in items(value, where):
        kind, record, table = _noteable(service, project, spec, here)
        problem = models.body_problem(spec.get("body"))
        if problem is not None:
            raise ScenarioError([(f"{here}.body", problem)])
        author = default_author(service, project, spec, here)
        thread = None
        if spec.get("thread") is not None:
            key = (kind, record.id, str(spec["thread"]))
            if key not in threads:
                threads[key] = models.open_discussion(store, kind, record.id, now, individual=False)
            thread = threads[key]
        models.create(
            store,
            kind=kind,
            noteable_id=record.id,
            noteable_iid=record.iid,
            project_id=project.id,
            author_id=author,
            body=str(spec["body"]),
            now=now,
            discussion=thread,
            note_type="DiscussionNote" if thread is not None else None,
        )
        table(store).update(
            record, user_notes_count=models.user_notes_count(store, kind, record.id)
        )


def load_awards(service: FakeService, project: Any, value: Any, where: str) -> None:
    now = service.clock.now()
    for here, spec in items(value, where):
        kind, record, _ = _noteable(service, project, spec, here)
        user_id = default_author(service, project, spec, here)
        try:
            awards.add(service.store, kind, record.id, user_id, str(spec["name"]), now)
        except ApiError as error:
            message = str(error.body.get("message", "")).removeprefix("404 Award Emoji ")
            raise ScenarioError([(f"{here}.name", message.removesuffix(" Not Found"))]) from error


def register(found: Sections) -> None:
    """Declare the notes area's scenario keys."""
    found.register_project_section(
        "notes", load_notes, schema=NOTES, doc="comments on issues and merge requests"
    )
    found.register_project_section(
        "award_emoji", load_awards, schema=AWARDS, doc="award emoji on issues and merge requests"
    )
