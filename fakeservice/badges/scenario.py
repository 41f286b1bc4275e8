"""Badges in scenarios: the ``badges`` key of ``projects[]`` and of ``groups[]``.

.. code-block:: yaml

    groups:
      - path: acme
        badges:
          - {name: chat, link_url: "https://chat.example.com/acme", image_url: "https://img.example.com/chat.svg"}
    projects:
      - path: acme/website
        badges:
          - name: pipeline
            link_url: "https://ci.example.com/%{project_path}/-/pipelines"
            image_url: "https://ci.example.com/%{project_path}/badges/%{default_branch}/pipeline.svg"
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.badges import models
from fakeservice.core.errors import ValidationFailed
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import STR, Field, ListOf, Record

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

BADGE = Record(
    "badge",
    {
        "name": Field(STR, ""),
        "link_url": Field(
            STR, "where the badge links (placeholders such as `%{project_path}`)", required=True
        ),
        "image_url": Field(STR, "the badge's image (placeholders allowed)", required=True),
    },
    "A project or group badge.",
)


def _loader(kind: str) -> Any:
    def load(service: FakeService, record: Any, value: Any, where: str) -> None:
        for index, item in enumerate(value or []):
            try:
                models.add_badge(
                    service.store,
                    kind,
                    record.id,
                    link_url=str(item.get("link_url") or ""),
                    image_url=str(item.get("image_url") or ""),
                    name=item.get("name"),
                )
            except ValidationFailed as error:
                raise ScenarioError([(f"{where}[{index}]", str(error.body["message"]))]) from None

    return load


def register(found: Sections) -> None:
    """Declare ``badges`` on projects and groups."""
    found.register_project_section(
        "badges", _loader(models.PROJECT), schema=ListOf(BADGE), doc="badges"
    )
    found.register_group_section(
        "badges", _loader(models.GROUP), schema=ListOf(BADGE), doc="badges"
    )
