"""Hooks in scenarios: the ``hooks`` key of ``projects[]`` and of ``groups[]``.

.. code-block:: yaml

    projects:
      - path: acme/website
        hooks:
          - url: "http://127.0.0.1:9000/hook"
            token: s3cret
            push_events: true
            merge_requests_events: true
            custom_headers: {X-Team: web}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.core.errors import ValidationFailed
from fakeservice.hooks import models
from fakeservice.scenarios.loader import ScenarioError
from fakeservice.scenarios.schema import BOOL, STR, Choice, Field, ListOf, MapOf, Record

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService
    from fakeservice.scenarios.sections import Sections


def _record(kind: str) -> Record:
    fields = {
        "url": Field(STR, "where deliveries are POSTed (`{name}` URL variables allowed)", True),
        "name": Field(STR, ""),
        "description": Field(STR, ""),
        "token": Field(STR, "sent as the `X-Service-Token` header (write-only)"),
        "push_events_branch_filter": Field(STR, "which branches' pushes are sent"),
        "branch_filter_strategy": Field(Choice(models.STRATEGIES), "default `wildcard`"),
        "enable_ssl_verification": Field(BOOL, "default true"),
        "custom_webhook_template": Field(STR, "a JSON body with `{{object_kind}}`-style fields"),
        "custom_headers": Field(MapOf(STR), "extra request headers"),
        "url_variables": Field(MapOf(STR), "values of the URL's `{name}` parts"),
    }
    for flag, default in models.FLAGS[kind].items():
        fields[flag] = Field(BOOL, f"default {str(default).lower()}")
    return Record(f"{kind}_hook", fields, f"A {kind} webhook.")


def _loader(kind: str) -> Any:
    def load(service: FakeService, record: Any, value: Any, where: str) -> None:
        for index, item in enumerate(value or []):
            fields = {k: v for k, v in dict(item).items()}
            for name in ("custom_headers", "url_variables"):
                if name in fields:
                    fields[name] = {str(k): str(v) for k, v in (fields[name] or {}).items()}
            try:
                models.add_hook(service.store, kind, record.id, service.clock.now(), fields)
            except ValidationFailed as error:
                raise ScenarioError([(f"{where}[{index}]", str(error.body["message"]))]) from None

    return load


def register(found: Sections) -> None:
    """Declare ``hooks`` on projects and groups."""
    found.register_project_section(
        "hooks",
        _loader(models.PROJECT),
        schema=ListOf(_record(models.PROJECT)),
        doc="webhooks (deliveries are real HTTP POSTs)",
    )
    found.register_group_section(
        "hooks",
        _loader(models.GROUP),
        schema=ListOf(_record(models.GROUP)),
        doc="group webhooks, reaching the group's projects (paid plans)",
    )
