"""Benchmark of wikis and feature flags: one project's wiki pages and feature flags while
other projects hold 1,000 vs 50,000 feature flags (ten per project, one user list per
project, a ten-page wiki on every tenth project).

Run: ``python bench/bench_flags_wikis.py [--sizes 1000 50000] [--repeat 100]``.
Prints a table of median and 95th-percentile latencies in milliseconds. Each case reads
one project's flags, lists or wiki, so its time should not grow with the flags and wikis
of the other projects.
"""

from __future__ import annotations

from latency import Case, get_ok, run_sizes

from fakeservice import FakeService
from fakeservice.feature_flags.models import create_flag, create_list
from fakeservice.groups.models import find_group
from fakeservice.projects.models import create_project
from fakeservice.users.models import users
from fakeservice.wikis.models import create_page, wiki_of

ADMIN = "root-token"
PER_PROJECT = 10
WIKI_EVERY = 10
ROLLOUT = {"groupId": "default", "rollout": "50", "stickiness": "default"}


def build(size: int) -> FakeService:
    svc = FakeService(
        {
            "users": [
                {"username": "root", "admin": True, "tokens": [{"token": ADMIN, "scopes": ["api"]}]}
            ],
            "groups": [{"path": "big", "visibility": "public"}],
        }
    )
    store, now = svc.store, svc.clock.now()
    group = find_group(store, "big")
    root = users(store).get(1)
    assert group is not None and root is not None
    for index in range(size // PER_PROJECT):
        project = create_project(
            store, now, namespace=group, creator_id=1, path=f"p{index}", visibility="public"
        )
        listed = create_list(store, project.id, now, "beta", "u1,u2,u3")
        for number in range(PER_PROJECT):
            strategies = [
                {"name": "flexibleRollout", "parameters": ROLLOUT, "scopes": [{"environment_scope": "*"}]},
                {"name": "gitlabUserList", "parameters": {}, "user_list_id": listed.id},
            ]  # fmt: skip
            create_flag(
                store, project.id, now, name=f"flag_{number}", active=number % 2 == 0,
                strategies=strategies,
            )  # fmt: skip
        if index % WIKI_EVERY == 0:
            wiki = wiki_of(store, "project", project.id)
            for number in range(10):
                create_page(
                    store, wiki, root, now, f"page {number}", f"# Page {number}", "markdown"
                )
    return svc


def cases(svc: FakeService, size: int) -> dict[str, Case]:
    last = f"big%2Fp{(size // PER_PROJECT - 1) // WIKI_EVERY * WIKI_EVERY}"

    def get(path: str) -> Case:
        return get_ok(svc, f"/projects/{last}{path}", ADMIN)

    return {
        "GET /feature_flags (10 flags)": get("/feature_flags"),
        "GET /feature_flags?scope=enabled": get("/feature_flags?scope=enabled"),
        "GET /feature_flags/:name": get("/feature_flags/flag_9"),
        "GET /feature_flags_user_lists": get("/feature_flags_user_lists"),
        "GET /wikis (10 pages)": get("/wikis"),
        "GET /wikis?with_content=true": get("/wikis?with_content=true"),
        "GET /wikis/:slug?render_html=true": get("/wikis/page-9?render_html=true"),
    }


def main() -> None:
    run_sizes(__doc__, build, cases, sizes=[1_000, 50_000], unit="flags", width=36)


if __name__ == "__main__":
    main()
