"""The transfer area's registration: project export and import (tables, endpoints, the
exports dashboard panel, the ``/_fake/exports`` and ``/_fake/imports`` controls), forgetting
a deleted project's records, the ``exports`` and ``imports`` scenario keys, pipeline
schedules as an export relation."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fakeservice.composition import Composition


def register(setup: Composition) -> None:
    from fakeservice.projects.models import PROJECT_DELETED
    from fakeservice.transfer import (
        control,
        exports,
        import_routes,
        imports,
        panel,
        routes,
        scenario,
        schedules,
    )

    setup.tables(exports.install)
    setup.tables(imports.install)
    for module in (routes, import_routes, control):
        setup.routes(module.api)  # one router, shared by the area's routes modules
    setup.listen(PROJECT_DELETED, exports.forget_export)
    setup.listen(PROJECT_DELETED, imports.forget_import)
    scenario.register(setup.sections)
    schedules.register()
    setup.panel(panel.PANEL)
