"""Invitations in scenarios: the ``invitations`` key of ``projects[]`` and ``groups[]``.

.. code-block:: yaml

    projects:
      - path: acme/website
        invitations:
          - {email: newcomer@example.com, role: developer, expires_at: 2026-12-31}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.members.invites import add_invitation, find_invitation
from fakeservice.members.models import NAMESPACE, PROJECT
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.records import _date, role_level
from fakeservice.scenarios.references import named_user
from fakeservice.scenarios.schema import DATE, STR, Field, ListOf, Record
from fakeservice.users.models import find_by_email

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

INVITATION = Record(
    "invitation",
    {
        "email": Field(STR, "the invited address (not a user's: add users as members)", required=True),
        "role": Field(STR, "guest, planner, reporter, developer (default), maintainer or owner"),
        "expires_at": Field(DATE, "the membership would end on this date"),
        "invited_by": Field(STR, "username of the inviter"),
    },
    "A pending invitation to join a project or group.",
)  # fmt: skip


def _loader(kind: str) -> Any:
    def load(service: FakeService, record: Any, value: Any, where: str) -> None:
        store = service.store
        for index, item in enumerate(value or []):
            at = f"{where}[{index}]"
            email = str(item.get("email") or "").strip()
            if "@" not in email:
                raise ScenarioError([(at, f"email {email!r} is not an address")])
            if find_by_email(store, email) is not None:
                raise ScenarioError([(at, f"{email} is a user's address: make them a member")])
            if find_invitation(store, kind, record.id, email) is not None:
                raise ScenarioError([(at, f"{email} is invited twice")])
            inviter = item.get("invited_by")
            add_invitation(
                store,
                service.clock.now(),
                kind=kind,
                source_id=record.id,
                email=email,
                access_level=role_level(item.get("role", "developer"), at),
                expires_at=_date(item.get("expires_at")),
                created_by_id=None if inviter is None else named_user(store, inviter, at).id,
            )

    return load


def register(found: Sections) -> None:
    """Declare ``invitations`` on projects and groups."""
    schema = ListOf(INVITATION)
    doc = "pending invitations by email"
    found.register_project_section("invitations", _loader(PROJECT), schema=schema, doc=doc)
    found.register_group_section("invitations", _loader(NAMESPACE), schema=schema, doc=doc)
