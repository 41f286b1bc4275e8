"""The per-request context handed to every endpoint handler.

It carries the service (store, clock), the request, the acting caller, the validated
parameters, and helpers to paginate and to build absolute URLs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import MethodNotAllowed
from fakeservice.core.store import Selection, Store
from fakeservice.web.auth import Caller
from fakeservice.web.http import Request, Response
from fakeservice.web.pagination import KEYSET_UNAVAILABLE, Paginator
from fakeservice.web.routing import Endpoint

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService


class Context:
    def __init__(
        self,
        service: FakeService,
        request: Request,
        endpoint: Endpoint,
        path_params: dict[str, str],
        raw: dict[str, Any],
        params: dict[str, Any],
        caller: Caller,
    ) -> None:
        self.service = service
        self.store: Store = service.store
        self.request = request
        self.endpoint = endpoint
        self.path_params = path_params
        self.raw = raw
        self.params = params
        self.caller = caller
        self.now: dt.datetime = service.clock.now()

    # -- identity ------------------------------------------------------------------------
    @property
    def user(self) -> Any:
        return self.caller.user

    @property
    def is_admin(self) -> bool:
        return self.caller.is_admin

    # -- urls ----------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return self.request.base_url

    def url(self, path: str) -> str:
        return self.base_url + path

    def api_url(self, path: str) -> str:
        return self.base_url + "/api/v4" + path

    # -- params --------------------------------------------------------------------------
    def given(self, name: str) -> bool:
        return name in self.raw

    def get(self, name: str, default: Any = None) -> Any:
        return self.params.get(name, default)

    def link_params(self) -> dict[str, Any]:
        """Every request parameter, path parameters and declared defaults included."""
        out: dict[str, Any] = {}
        for param in self.endpoint.params:
            if param.has_default and param.default is not None:
                out[param.name] = param.default
        out.update(self.raw)
        return out

    # -- pagination ----------------------------------------------------------------------
    def _paginator(self) -> Paginator:
        return Paginator(
            url=self.base_url + self.request.raw_path,
            link_params=self.link_params(),
            raw=self.raw,
            keyset_kind=self.endpoint.keyset,
        )

    @property
    def wants_keyset(self) -> bool:
        return self.raw.get("pagination") == "keyset"

    def paginate(self, selection: Selection[Any], render: Callable[[Any], Any]) -> Response:
        """An offset page of ``selection``; 405 when keyset is asked for and not offered."""
        if self.wants_keyset:
            raise MethodNotAllowed(error=KEYSET_UNAVAILABLE)
        return self._paginator().offset(selection, render)

    def paginate_keyset(
        self,
        selection: Selection[Any],
        render: Callable[[Any], Any],
        *,
        next_params: Callable[[Any], dict[str, Any]],
        full_page_links: bool,
    ) -> Response:
        return self._paginator().keyset(
            selection, render, next_params=next_params, full_page_links=full_page_links
        )

    def paginate_list(self, items: list[Any], render: Callable[[Any], Any]) -> Response:
        """Paginate a small computed list (already in order)."""
        from fakeservice.core.store import Table

        table: Table[Any] = Table("_list")
        for position, item in enumerate(items):
            table.rows[position] = item
        selection: Selection[Any] = Selection(table, [_Positions(len(items))])
        return self.paginate(selection, render)


class _Positions(list):  # type: ignore[type-arg]
    """A stand-in sorted source of ``(position,)`` entries for :meth:`Context.paginate_list`."""

    def __init__(self, size: int) -> None:
        super().__init__((i,) for i in range(size))

    def islice(self, start: int, stop: int, reverse: bool = False) -> list[tuple[int]]:
        return self[start:stop]
