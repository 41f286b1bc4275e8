"""Award emoji records and the operations on them.

An award names its awardable by ``(awardable_type, awardable_id)`` (the global id of an
issue, merge request, snippet, epic or note). Indexes: per awardable in id order (the
list), per ``(awardable, name)`` (``upvotes``/``downvotes`` count ``thumbsup`` and
``thumbsdown``), and per ``(user, awardable_type)`` (``my_reaction_emoji``), so none of
them scans the table.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.errors import NotFound
from fakeservice.core.events import announce
from fakeservice.core.store import Selection, Store, Table
from fakeservice.notes.emoji_names import ALIASES, NAMES

THUMBS_UP, THUMBS_DOWN = "thumbsup", "thumbsdown"


@attrs.define(slots=True)
class AwardEmoji:
    id: int
    name: str
    user_id: int
    awardable_type: str
    awardable_id: int
    created_at: dt.datetime
    updated_at: dt.datetime


def award_emoji(store: Store) -> Table[AwardEmoji]:
    return store.tables["award_emoji"]


def install(store: Store) -> None:
    table = store.table("award_emoji")
    table.add_unique("award", lambda r: (r.awardable_type, r.awardable_id, r.user_id, r.name))
    table.add_sorted("awardable", lambda r: (r.awardable_type, r.awardable_id))
    table.add_sorted("named", lambda r: (r.awardable_type, r.awardable_id, r.name))
    table.add_sorted("mine", lambda r: (r.user_id, r.awardable_type))


def normalize(name: str) -> str | None:
    """The emoji ``name`` stands for (``+1`` is ``thumbsup``), or None when it is none."""
    bare = name.strip().strip(":")
    bare = ALIASES.get(bare, bare)
    return bare if bare in NAMES else None


def of_awardable(store: Store, kind: str, awardable_id: int) -> Selection[AwardEmoji]:
    return award_emoji(store).select("awardable", [(kind, awardable_id)])


def votes(store: Store, kind: str, awardable_id: int) -> tuple[int, int]:
    """``(upvotes, downvotes)`` of an awardable."""
    table = award_emoji(store)
    up = table.select("named", [(kind, awardable_id, THUMBS_UP)]).count()
    down = table.select("named", [(kind, awardable_id, THUMBS_DOWN)]).count()
    return up, down


def reactions_of(store: Store, user_id: int, kind: str, name: str | None) -> set[int]:
    """Ids of the ``kind`` awardables ``user_id`` reacted to (with ``name`` when given)."""
    found = award_emoji(store).select("mine", [(user_id, kind)])
    return {r.awardable_id for r in found if name is None or r.name == name}


def reaction_predicate(store: Store, user_id: int | None, value: Any) -> Callable[[Any], bool]:
    """The ``my_reaction_emoji`` filter: records (issues, merge requests, epics: the
    record's class names its awardable type) ``user_id`` awarded the emoji; ``Any``: any
    emoji, ``None``: none. The caller's awards come from their index, once per type."""
    keyword = str(value).strip().lower()
    name = None if keyword in ("any", "none") else (normalize(str(value)) or str(value))
    mine: dict[str, set[int]] = {}

    def reacted(record: Any) -> bool:
        if user_id is None:
            return False
        kind = type(record).__name__
        if kind not in mine:
            mine[kind] = reactions_of(store, user_id, kind, name)
        return record.id in mine[kind]

    if keyword == "none":
        return lambda r: not reacted(r)
    return reacted


def add(
    store: Store, kind: str, awardable_id: int, user_id: int, name: str, now: dt.datetime
) -> AwardEmoji:
    """Award ``name`` (the API's 404s for an unknown name and for an award given twice)."""
    emoji = normalize(name)
    if emoji is None:
        raise NotFound("Award Emoji Name is not a valid emoji name")
    table = award_emoji(store)
    if table.by("award", (kind, awardable_id, user_id, emoji)) is not None:
        raise NotFound("Award Emoji Name has already been taken")
    record = AwardEmoji(store.next_id("award_emoji"), emoji, user_id, kind, awardable_id, now, now)
    return announce(store, "AwardEmoji", table.insert(record), "award", user_id, now)


def ensure(
    store: Store, kind: str, awardable_id: int, user_id: int, name: str, now: dt.datetime
) -> AwardEmoji:
    """The award of ``name`` (a valid emoji name), made when missing (award-only notes)."""
    found = award_emoji(store).by("award", (kind, awardable_id, user_id, name))
    return found if found is not None else add(store, kind, awardable_id, user_id, name, now)


def forget(store: Store, kind: str, awardable_id: int) -> None:
    """Drop the awards of a deleted awardable."""
    table = award_emoji(store)
    for record in list(of_awardable(store, kind, awardable_id)):
        table.delete(record)
