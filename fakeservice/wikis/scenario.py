"""Wiki pages in scenarios: the ``wiki`` key of ``projects[]`` and of ``groups[]``.

.. code-block:: yaml

    projects:
      - path: acme/website
        wiki:
          - {title: home, content: "Welcome to the website's wiki."}
          - {title: ops/On Call, content: "= On call", format: asciidoc, author: alice}

Each page is one commit of the wiki repository, in order, as its ``author`` (default:
an administrator), exactly as ``POST /wikis`` would make it (same slugs, same refusals).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ApiError
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.references import named_user
from fakeservice.scenarios.schema import STR, Choice, Field, ListOf, Record
from fakeservice.users.models import User, users
from fakeservice.wikis import models
from fakeservice.wikis.pages import FORMATS

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

PAGE = Record(
    "wiki page",
    {
        "title": Field(
            STR, "the page title (`dir/Title` makes `dir/Title` in a directory)", required=True
        ),
        "content": Field(STR, "the page content", required=True),
        "format": Field(Choice(tuple(FORMATS)), "markdown (default), rdoc, asciidoc or org"),
        "author": Field(STR, "username of the committer (default: an administrator)"),
    },
    "A wiki page.",
)


def _author(service: FakeService, username: Any, where: str) -> User:
    if username is not None:
        return named_user(service.store, username, where)
    admin = next(iter(users(service.store).select("admins", (True,))), None)
    if admin is None:
        raise ScenarioError([(where, "no author: name one with `author`")])
    return admin


def _loader(kind: str) -> Any:
    def load(service: FakeService, record: Any, value: Any, where: str) -> None:
        for index, item in enumerate(value or []):
            here = f"{where}[{index}]"
            wiki = models.wiki_of(service.store, kind, record.id)
            author = _author(service, item.get("author"), here)
            try:
                models.create_page(
                    service.store,
                    wiki,
                    author,
                    service.clock.now(),
                    str(item["title"]),
                    str(item["content"]),
                    str(item.get("format") or "markdown"),
                )
            except ApiError as error:
                raise ScenarioError([(here, str(error.body["message"]))]) from None

    return load


def register(found: Sections) -> None:
    """Declare ``wiki`` on projects and groups."""
    found.register_project_section(
        "wiki", _loader("project"), schema=ListOf(PAGE), doc="wiki pages"
    )
    found.register_group_section("wiki", _loader("group"), schema=ListOf(PAGE), doc="wiki pages")
