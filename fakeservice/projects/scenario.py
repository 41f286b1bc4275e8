"""Project settings in scenarios: the ``settings`` key of ``projects[]`` takes any setting
the project create and edit endpoints accept (see :mod:`fakeservice.projects.settings`),
validated as the API validates them.

.. code-block:: yaml

    projects:
      - path: acme/website
        settings: {merge_method: ff, squash_option: always, wiki_access_level: disabled}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ParamError, ValidationFailed
from fakeservice.projects import settings
from fakeservice.projects.models import Project, projects
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import ANY, MapOf

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

# keys the project record itself takes (``visibility``, ``topics``) stay there
OWN_KEYS = ("visibility", "topics", "tag_list")
KEYS = tuple(p.name for p in settings.PARAMS if p.name not in OWN_KEYS)


def load_settings(service: FakeService, project: Project, value: Any, where: str) -> None:
    raw = {k: v for k, v in dict(value or {}).items() if k not in OWN_KEYS}
    try:
        changes = settings.TABLE.parse(
            service.store,
            raw,
            is_admin=True,
            extra_errors=lambda c: settings.project_errors(project, c),
        )
    except (ParamError, ValidationFailed) as error:
        raise ScenarioError(
            [(where, str(error.body.get("error") or error.body["message"]))]
        ) from None
    projects(service.store).update(project, **settings.apply(project, changes))


def register(found: Sections) -> None:
    """Declare this module's scenario keys."""
    found.register_project_section(
        "settings",
        load_settings,
        schema=MapOf(ANY, keys=KEYS),
        doc="settings, as the edit API takes them",
    )
