"""The merge requests area's service extension (registered by its area): finish
mergeability checks and rebases when they are due and merge what waits on a pipeline,
whenever the clock moves and before every request (after the runner caught up)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fakeservice.merge_requests.pipelines import settle

if TYPE_CHECKING:
    from fakeservice.host import Host as FakeService


def extend(service: FakeService) -> None:
    def catch_up(*_args: Any) -> None:
        with service.store.lock:
            settle(service.store, service.clock.now())

    service.clock.on_change(catch_up)
    service.add_hooks(catch_up=catch_up)
