"""Push rules in scenarios: the ``push_rule`` key of ``projects[]`` and ``groups[]``.

.. code-block:: yaml

    projects:
      - path: acme/website
        push_rule:
          commit_message_regex: "^(feat|fix|docs):"
          deny_delete_tag: true
          max_file_size: 5
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ValidationFailed
from fakeservice.push_rules import models
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import BOOL, INT, STR, Field, Record

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

RULE = Record(
    "push_rule",
    {
        name: Field(
            INT if name == "max_file_size" else STR if name in models.REGEXES else BOOL,
            "MiB, 0 for no limit" if name == "max_file_size" else "",
        )
        for name in models.FIELDS
    },
    "A push rule (every field of the API; all optional).",
)


def _loader(kind: str) -> Any:
    def load(service: FakeService, record: Any, value: Any, where: str) -> None:
        values = {name: value[name] for name in models.FIELDS if name in (value or {})}
        try:
            models.create(service.store, service.clock.now(), kind, record.id, values)
        except ValidationFailed as error:
            raise ScenarioError([(where, str(error.body["message"]))]) from None

    return load


def register(found: Sections) -> None:
    """Declare ``push_rule`` on projects and groups."""
    found.register_project_section(
        "push_rule", _loader(models.PROJECT), schema=RULE, doc="the project's push rule"
    )
    found.register_group_section(
        "push_rule", _loader(models.GROUP), schema=RULE, doc="the group's push rule"
    )
