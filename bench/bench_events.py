"""Benchmark of the events feed: the three event lists while the instance holds 200 vs
100,000 events, half of them the administrator's in one project, half another user's in
another project (actions and target types rotating, one event in ten a ``closed`` one).

Run: ``python bench/bench_events.py [--sizes 200 100000] [--repeat 100]``; ``make bench``
adds each case's ratio against its 200-event twin (target 1.5) to its table. Each case
reads one partition of the ``author`` or ``project`` index (a filter combination is its
own partition), so its time should not grow with the events it does not list.
"""

from __future__ import annotations

import datetime as dt

from latency import Case, admin_and_group, get_ok, run_sizes, twin_rows
from table import Row

from fakeservice import FakeService
from fakeservice.events_feed import models
from fakeservice.groups.models import find_group
from fakeservice.projects.models import find_project

ADMIN = "root-token"
SMALL, BIG = 200, 100_000
REPEAT = 100
KINDS = (
    ("created", "opened", "Issue", "issue"),
    ("commented", "commented on", "Note", "note"),
    ("created", "opened", "MergeRequest", "merge_request"),
    ("merged", "accepted", "MergeRequest", "merge_request"),
    ("reopened", "reopened", "Issue", "issue"),
)


def build(size: int) -> FakeService:
    svc = admin_and_group(ADMIN)
    group = find_group(svc.store, "big")
    assert group is not None
    for path in ("mine", "theirs"):
        data = {"path": path, "namespace_id": group.id}
        created = svc.request("POST", "/projects", token=ADMIN, json_body=data)
        assert created.status == 201, created.body
    store = svc.store
    mine, theirs = find_project(store, "big/mine"), find_project(store, "big/theirs")
    assert mine is not None and theirs is not None
    start = svc.clock.now()
    for index in range(size):
        action, shown, target, kind = KINDS[index % len(KINDS)]
        if index % 10 == 9:
            action, shown, target, kind = "closed", "closed", "Issue", "issue"
        project, author = (mine, 1) if index % 2 == 0 else (theirs, 2)
        models.add(
            store,
            project_id=project.id,
            author_id=author,
            action=action,
            action_name=shown,
            target_type=target,
            target_kind=kind,
            target_id=index + 1,
            target_iid=index + 1,
            target_title=f"Target {index}",
            created_at=start + dt.timedelta(seconds=index),
        )
    return svc


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    return {
        "own events, first page": get_ok(svc, "/events?per_page=20", ADMIN),
        "own events, action=closed": get_ok(svc, "/events?per_page=20&action=closed", ADMIN),
        "user events, target_type=note": get_ok(
            svc, "/users/root/events?per_page=20&target_type=note", ADMIN
        ),
        "project events, sort=asc": get_ok(
            svc, "/projects/big%2Fmine/events?per_page=20&sort=asc", ADMIN
        ),
    }


def bench_rows() -> list[Row]:
    """For ``make bench``: each case with 100,000 events against its 200-event twin."""
    return twin_rows("events", "events", build, cases, (SMALL, BIG), REPEAT, 1.5)


def main() -> None:
    run_sizes(__doc__, build, cases, sizes=[SMALL, BIG], unit="events", width=36)


if __name__ == "__main__":
    main()
