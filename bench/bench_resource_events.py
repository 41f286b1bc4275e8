"""Benchmark of resource events: one issue's label, state and milestone event lists and
one label event while the instance holds 200 vs 100,000 resource events, all but 20 of
them about other issues (the event kinds rotating).

Run: ``python bench/bench_resource_events.py [--sizes 200 100000] [--repeat 100]``;
``make bench`` adds each case's ratio against its 200-event twin (target 1.5) to its
table. Each list reads one partition of its kind's ``resource`` index, and a single
event is one row, so their times should not grow with the events of other issues.
"""

from __future__ import annotations

import datetime as dt

from latency import Case, admin_and_group, get_ok, run_sizes, twin_rows
from table import Row

from fakeservice import FakeService
from fakeservice.groups.models import find_group
from fakeservice.resource_events import models

ADMIN = "root-token"
SMALL, BIG = 200, 100_000
REPEAT = 100
OWN = 20  # events about the measured issue
ISSUE = "/projects/big%2Fmine/issues/1"


def build(size: int) -> FakeService:
    svc = admin_and_group(ADMIN)
    group = find_group(svc.store, "big")
    assert group is not None
    data = {"path": "mine", "namespace_id": group.id}
    assert svc.request("POST", "/projects", token=ADMIN, json_body=data).status == 201
    made = svc.request("POST", "/projects/big%2Fmine/issues", token=ADMIN, json_body={"title": "T"})
    assert made.status == 201, made.body
    issue_id = made.json()["id"]
    start = svc.clock.now()
    for index in range(size):
        kind = models.KINDS[index % len(models.KINDS)]
        fields = {"state": "closed"} if kind == "state" else {"action": "add", "target_id": 1}
        models.add(
            svc.store,
            kind,
            resource_type="Issue",
            resource_id=issue_id if index < OWN else issue_id + 1 + index,
            user_id=1,
            created_at=start + dt.timedelta(seconds=index),
            **fields,
        )
    return svc


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    issue_id = svc.request("GET", ISSUE, token=ADMIN).json()["id"]
    first = next(iter(models.of_resource(svc.store, "label", "Issue", issue_id)))
    return {
        "issue label events": get_ok(svc, f"{ISSUE}/resource_label_events", ADMIN),
        "issue state events": get_ok(svc, f"{ISSUE}/resource_state_events", ADMIN),
        "issue milestone events": get_ok(svc, f"{ISSUE}/resource_milestone_events", ADMIN),
        "one label event": get_ok(svc, f"{ISSUE}/resource_label_events/{first.id}", ADMIN),
    }


def bench_rows() -> list[Row]:
    """For ``make bench``: each case with 100,000 events against its 200-event twin."""
    return twin_rows("resource events", "events", build, cases, (SMALL, BIG), REPEAT, 1.5)


def main() -> None:
    run_sizes(__doc__, build, cases, sizes=[SMALL, BIG], unit="events", width=30)


if __name__ == "__main__":
    main()
