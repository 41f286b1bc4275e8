"""Group settings in scenarios: the ``settings`` key of ``groups[]`` takes any setting the
group create and edit endpoints accept (see :mod:`fakeservice.groups.settings`), validated
as the API validates them.

.. code-block:: yaml

    groups:
      - path: acme
        settings: {default_branch: trunk, membership_lock: true, two_factor_grace_period: 12}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ParamError, ValidationFailed
from fakeservice.groups import settings
from fakeservice.groups.models import Namespace, namespaces
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import ANY, MapOf

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections

KEYS = tuple(p.name for p in settings.TABLE.params if p.name != "visibility")


def load_settings(service: FakeService, group: Namespace, value: Any, where: str) -> None:
    raw = {k: v for k, v in dict(value or {}).items() if k != "visibility"}
    try:
        changes = settings.TABLE.parse(service.store, raw, is_admin=True)
    except (ParamError, ValidationFailed) as error:
        raise ScenarioError(
            [(where, str(error.body.get("error") or error.body["message"]))]
        ) from None
    namespaces(service.store).update(group, **settings.TABLE.apply(group, changes))


def register(found: Sections) -> None:
    """Declare this module's scenario keys."""
    found.register_group_section(
        "settings",
        load_settings,
        schema=MapOf(ANY, keys=KEYS),
        doc="settings, as the edit API takes them",
    )
