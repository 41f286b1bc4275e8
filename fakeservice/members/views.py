"""JSON shape of a member: the user reference merged with the membership's role, dates
and creator."""

from __future__ import annotations

from typing import Any

from fakeservice.core.clock import iso, iso_date
from fakeservice.core.store import Store
from fakeservice.members.models import Member
from fakeservice.users.models import users
from fakeservice.users.views import user_ref


def member_view(store: Store, member: Member, base_url: str) -> dict[str, Any]:
    """``{id, username, name, state, locked, avatar_url, web_url, access_level, created_at,
    created_by, expires_at, membership_state}``; ``id`` is the user's id."""
    table = users(store)
    out = user_ref(table.rows[member.user_id], base_url)
    assert out is not None
    out.update(
        {
            "access_level": member.access_level,
            "created_at": iso(member.created_at),
            "created_by": user_ref(table.get(member.created_by_id), base_url),
            "expires_at": iso_date(member.expires_at),
            "membership_state": "active",
        }
    )
    return out
