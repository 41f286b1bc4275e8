"""The instance's license plan in scenarios: the top-level ``plan`` key.

.. code-block:: yaml

    plan: free   # or premium, ultimate (the default)

Project and group settings of a higher plan are then ignored on create and edit and left
out of the answers, as the real service does without the license. It is an alias of
``instance.plan`` (:mod:`fakeservice.instance.scenario`): both set the instance record's
plan, the one source of truth (:func:`fakeservice.instance.models.instance`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fakeservice.instance.models import PLANS, instance
from fakeservice.scenarios.schema import Choice

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections


def load_plan(service: FakeService, data: Mapping[str, Any]) -> None:
    instance(service.store).plan = str(data["plan"]).lower()


def register(found: Sections) -> None:
    """Declare the top-level ``plan`` key."""
    found.register_section(
        "plan",
        load_plan,
        schema=Choice(PLANS),
        doc=(
            "the instance's license plan (default ultimate): settings of higher plans are "
            "ignored; an alias of `instance.plan`"
        ),
    )
