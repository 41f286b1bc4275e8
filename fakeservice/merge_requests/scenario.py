"""Merge requests in scenarios: the ``merge_requests`` key of ``projects[]`` (after the
project's branches and commits exist).

.. code-block:: yaml

    projects:
      - path: acme/website
        branches: [{name: feature, from: main}]
        merge_requests:
          - title: Add the checkout
            source_branch: feature
            target_branch: main          # default: the default branch
            author: dora
            description: Closes #1
            labels: [feature]
            assignees: [maya]
            reviewers: [maya]
            milestone: v1.0
            state: opened                # opened (default), closed or merged
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.issues.scenario import default_author, milestone_of, people
from fakeservice.labels import models as labels
from fakeservice.labels.scenario import api_message
from fakeservice.merge_requests import operations
from fakeservice.merge_requests.machines import STATE
from fakeservice.merge_requests.models import change
from fakeservice.repository.models import read_repository
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import BOOL, STR, Choice, Field, ListOf, Record
from fakeservice.scenarios.sections import Sections
from fakeservice.users.models import users

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService

MERGE_REQUEST = Record(
    "merge request",
    {
        "title": Field(STR, "the title (a `Draft:` prefix makes a draft)", required=True),
        "source_branch": Field(STR, "an existing branch", required=True),
        "target_branch": Field(STR, "an existing branch (default: the default branch)"),
        "description": Field(STR, "its description (`Closes #N` links issues)"),
        "author": Field(STR, "a username (default: the project's creator or root)"),
        "assignees": Field(ListOf(STR), "usernames"),
        "reviewers": Field(ListOf(STR), "usernames"),
        "labels": Field(ListOf(STR), "label names (created when missing)"),
        "milestone": Field(STR, "a milestone title"),
        "squash": Field(BOOL, "squash on merge (false)"),
        "state": Field(
            Choice(("opened", "closed", "merged")), "opened (default), closed or merged"
        ),
    },
)
MERGE_REQUESTS = ListOf(MERGE_REQUEST)


def load_merge_requests(service: FakeService, project: Any, value: Any, where: str) -> None:
    if not isinstance(value, list):
        raise ScenarioError([(where, "must be a list")])
    store = service.store
    now = service.clock.now()
    repo = read_repository(store, project)
    for index, spec in enumerate(value):
        here = f"{where}[{index}]"
        if not isinstance(spec, Mapping) or not spec.get("title") or not spec.get("source_branch"):
            raise ScenarioError([(here, "title and source_branch are required")])
        source = str(spec["source_branch"])
        target = str(spec.get("target_branch") or repo.default_branch)
        for key, branch in (("source_branch", source), ("target_branch", target)):
            if repo.branch(branch) is None:
                raise ScenarioError([(f"{here}.{key}", f"unknown branch {branch!r}")])
        author = users(store).rows[default_author(service, project, spec, here)]
        try:
            record = operations.create(
                store,
                project,
                author,
                now,
                title=str(spec["title"]),
                description=spec.get("description"),
                source_branch=source,
                target_branch=target,
                assignee_ids=people(service, spec.get("assignees"), f"{here}.assignees"),
                reviewer_ids=people(service, spec.get("reviewers"), f"{here}.reviewers"),
                label_ids=labels.find_or_create(
                    store, project, [str(n) for n in spec.get("labels") or []], now
                ),
                milestone_id=milestone_of(service, project, spec.get("milestone"), here),
                squash=bool(spec.get("squash")),
            )
            operations.check_now(store, record, now)
            if spec.get("state") == "closed":
                STATE.fire(record, "close", now=now, by=author.id)
                change(store, record, None)
            elif spec.get("state") == "merged":
                if record.merge_status != "can_be_merged":
                    raise ScenarioError(
                        [(f"{here}.state", "the branches cannot be merged (conflicts)")]
                    )
                operations.perform_merge(store, record, author, now, {})
        except ApiError as error:
            raise ScenarioError([(here, api_message(error))]) from error


def register(found: Sections) -> None:
    """Declare the merge requests area's scenario keys."""
    found.register_project_section(
        "merge_requests", load_merge_requests, schema=MERGE_REQUESTS, doc="merge requests"
    )
