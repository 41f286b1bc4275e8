"""The notes area's one router, shared by its notes, discussions and award emoji modules."""

from __future__ import annotations

from fakeservice.web.routing import AreaRouter

api = AreaRouter("notes")
