"""Properties of runner choice, over random runner changes and pipelines (instant mode):
a build waits (pending) exactly when no runner the project may use can run it, and a
build that ran shows a runner that exists or existed."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.calls import call
from support.services import stamp

from fakeservice.ci.models import jobs
from fakeservice.runners.availability import runner_for

from .helpers import WEBSITE, register
from .test_jobs import TAGGED_CI, write_ci

TAGS = st.lists(st.sampled_from(["docker", "arm"]), max_size=2, unique=True)
ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("pause"), st.integers(1, 3), st.booleans()),
        st.tuples(st.just("tags"), st.integers(1, 3), TAGS),
        st.tuples(st.just("register"), TAGS, st.booleans()),
        st.tuples(st.just("pipeline")),
    ),
    min_size=1,
    max_size=8,
)


def apply(svc: Any, action: tuple[Any, ...]) -> None:
    kind = action[0]
    if kind == "pause":
        call(svc, "PUT", f"/runners/{action[1]}", json_body={"paused": action[2]})
    elif kind == "tags":
        call(svc, "PUT", f"/runners/{action[1]}", json_body={"tag_list": action[2]})
    elif kind == "register":
        register(svc, tag_list=action[1], run_untagged=action[2] or not action[1])
    else:
        assert call(svc, "POST", f"{WEBSITE}/pipeline", json_body={"ref": "main"}).status == 201


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS)
def test_a_build_waits_exactly_when_no_runner_can_run_it(actions: list[Any]) -> None:
    svc = stamp("default", "default")
    write_ci(svc, TAGGED_CI)
    svc.runner.set_mode("instant")
    seen: set[int] = {1}
    for action in actions:
        apply(svc, action)
        seen.update(r["id"] for r in call(svc, "GET", "/runners/all").json())
        for job in jobs(svc.store):
            if not job.is_build or job.status == "manual":
                continue
            if job.status == "pending":
                assert runner_for(svc.store, job) is None
                assert job.runner_id is None
            else:
                assert job.status == "success" and job.runner_id in seen
