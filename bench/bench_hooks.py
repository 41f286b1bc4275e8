"""Benchmark of hooks: the cost an event adds when its project has one hook (delivered to
a respx route, so no network), with 10 vs 5,000 other hooked projects, each with past
deliveries, and the journal and a hook's events lists.

Run: ``python bench/bench_hooks.py [--sizes 10 5000] [--repeat 100]``.
Prints a table of median and 95th-percentile latencies in milliseconds. Each case touches
one project and one hook, so its time should not grow with the number of other hooks.
"""

from __future__ import annotations

import datetime as dt

import respx
from latency import Case, get_ok, run_sizes

from fakeservice import FakeService
from fakeservice.groups.models import find_group
from fakeservice.hooks import deliveries as dv
from fakeservice.hooks.models import PROJECT, add_hook
from fakeservice.projects.models import create_project, find_project

ADMIN = "root-token"
URL = "http://hooks.example/bench"


def build(size: int) -> FakeService:
    svc = FakeService(
        {
            "users": [{"username": "root", "admin": True, "tokens": [{"token": ADMIN, "scopes": ["api"]}]}],
            "groups": [{"path": "big", "visibility": "public"}],
            "projects": [{"path": "big/target", "visibility": "public"}],
        }
    )  # fmt: skip
    store, now = svc.store, svc.clock.now()
    group = find_group(store, "big")
    assert group is not None
    for index in range(size):
        project = create_project(
            store, now, namespace=group, creator_id=1, path=f"p{index}", visibility="public"
        )
        hook = add_hook(store, PROJECT, project.id, now, {"url": URL, "issues_events": True})
        for _ in range(2):  # a past delivery each
            past = dv.queue(store, hook, "issue_hooks", {"n": index}, instance_url="x", now=now)
            dv.fire(store, past, "send")
            dv.fire(store, past, "succeed", response_status="200", delivered_at=now)
    target = find_project(store, "big/target")
    assert target is not None
    add_hook(store, PROJECT, target.id, now, {"url": URL, "issues_events": True})
    svc.clock.advance(dt.timedelta(seconds=1).total_seconds())
    return svc


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    router = respx.mock(assert_all_called=False)
    router.post(URL).respond(200)
    router.start()  # kept for the whole run: deliveries never leave the process
    hook_id = size + 1

    def create_issue(index: int) -> object:
        response = svc.request(
            "POST", "/projects/big%2Ftarget/issues", json_body={"title": f"i{index}"}, token=ADMIN
        )
        assert response.status == 201
        return response

    return {
        "POST issue, project with a hook (delivered)": create_issue,
        "GET /projects/:id/hooks/:hook_id/events": get_ok(
            svc, f"/projects/big%2Ftarget/hooks/{hook_id}/events", ADMIN
        ),
        "GET /projects/:id/hooks": get_ok(svc, "/projects/big%2Ftarget/hooks", ADMIN),
        "GET /_fake/hooks/deliveries?hook_id=": get_ok(
            svc, f"/_fake/hooks/deliveries?hook_id={hook_id}", None
        ),
    }


def main() -> None:
    run_sizes(__doc__, build, cases, sizes=[10, 5_000], unit="hooks", width=44)


if __name__ == "__main__":
    main()
