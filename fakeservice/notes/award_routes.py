"""Award emoji endpoints, declared once per registered awardable.

An :class:`Awardable` names the path of one awardable (``/projects/:id/issues/:issue_iid``)
and how to find it (``find(ctx)`` returns the notes area's :class:`Target`, raising the
awardable's own 404). :func:`register_awardable` declares, under that path and under
``<path>/notes/:note_id`` (the awardable's comments), the four operations:

* ``GET .../award_emoji`` (paginated, in award order), ``GET .../award_emoji/:award_id``;
* ``POST .../award_emoji`` with ``name`` (``+1``/``-1`` are ``thumbsup``/``thumbsdown``;
  an unknown name or an award given twice answers 404 ``Award Emoji <reason>``);
* ``DELETE .../award_emoji/:award_id`` (204; the award's user or an administrator, else
  401).

Every call needs authentication. Issues and merge requests register from the notes
area, snippets from the snippets area, epics (by ``epic_iid``) from the epics area.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from fakeservice.core.errors import NotFound, Unauthorized
from fakeservice.notes import awards
from fakeservice.notes.access import find_note
from fakeservice.notes.registry import Target
from fakeservice.notes.router import api
from fakeservice.notes.views import award_view
from fakeservice.web.context import Context
from fakeservice.web.params import INT, STR, Param
from fakeservice.web.routing import REQUIRED

AWARD_ID = Param("award_id", INT, required=True, description="The award's id")
NOTE_ID = Param("note_id", INT, required=True, description="The note's id")


@attrs.frozen
class Awardable:
    type: str
    base: str
    params: tuple[Param, ...]
    find: Callable[[Context], Target]


@attrs.frozen
class _Found:
    kind: str
    id: int
    can_award: bool


_awardables: set[str] = set()


def register_awardable(awardable: Awardable) -> None:
    """Declare the award emoji endpoints of ``awardable`` and of its notes (once per type)."""
    if awardable.type in _awardables:
        return
    _awardables.add(awardable.type)

    def itself(ctx: Context) -> _Found:
        target = awardable.find(ctx)
        return _Found(awardable.type, target.record.id, target.can_write)

    def its_note(ctx: Context) -> _Found:
        target = awardable.find(ctx)
        note = find_note(ctx, awardable.type, target)
        return _Found("Note", note.id, target.can_write)

    _declare(awardable.base, awardable.params, itself)
    _declare(awardable.base + "/notes/:note_id", (*awardable.params, NOTE_ID), its_note)


def _award(ctx: Context, found: _Found) -> awards.AwardEmoji:
    record = awards.award_emoji(ctx.store).get(ctx.params["award_id"])
    if record is None or (record.awardable_type, record.awardable_id) != (found.kind, found.id):
        raise NotFound()
    return record


def _declare(base: str, params: tuple[Param, ...], find: Callable[[Context], _Found]) -> None:
    path = base + "/award_emoji"

    def render(ctx: Context) -> Any:
        return lambda record: award_view(ctx.store, record, ctx.base_url)

    @api.get(path, params=params, auth=REQUIRED, paginated=True)
    def list_award_emoji(ctx: Context) -> Any:
        """List the awardable's award emoji."""
        found = find(ctx)
        return ctx.paginate(awards.of_awardable(ctx.store, found.kind, found.id), render(ctx))

    @api.get(path + "/:award_id", params=(*params, AWARD_ID), auth=REQUIRED)
    def get_award_emoji(ctx: Context) -> Any:
        """Get one award emoji."""
        return award_view(ctx.store, _award(ctx, find(ctx)), ctx.base_url)

    @api.post(path, params=(*params, Param("name", STR, required=True)), auth=REQUIRED)
    def award_emoji(ctx: Context) -> Any:
        """Award an emoji (201)."""
        found = find(ctx)
        if not found.can_award:
            raise NotFound("Award Emoji")
        record = awards.add(
            ctx.store, found.kind, found.id, ctx.user.id, ctx.params["name"], ctx.now
        )
        return award_view(ctx.store, record, ctx.base_url)

    @api.delete(path + "/:award_id", params=(*params, AWARD_ID), auth=REQUIRED)
    def delete_award_emoji(ctx: Context) -> Any:
        """Take an award back (204; its user or an administrator)."""
        record = _award(ctx, find(ctx))
        if record.user_id != ctx.user.id and not ctx.is_admin:
            raise Unauthorized()
        awards.award_emoji(ctx.store).delete(record)
