"""Whatever the body, the collaboration endpoints answer 4xx or success, never 500, and
a refused write leaves the state as it was."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import SHOP, new_service

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=12),
    st.floats(allow_nan=True),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
KEYS = st.sampled_from(
    [
        "title",
        "description",
        "source_branch",
        "target_branch",
        "labels",
        "add_labels",
        "assignee_ids",
        "reviewer_ids",
        "milestone_id",
        "state_event",
        "body",
        "created_at",
        "confidential",
        "files",
        "visibility",
        "content",
        "file_name",
        "name",
        "color",
        "approvals_required",
        "user_ids",
        "rule_type",
        "sha",
        "squash",
        "merge_when_pipeline_succeeds",
        "not",
        "iids",
    ]
)
BODIES = st.dictionaries(KEYS, VALUES, max_size=6)
TARGETS = [
    ("POST", f"/projects/{SHOP}/merge_requests"),
    ("PUT", f"/projects/{SHOP}/merge_requests/1"),
    ("PUT", f"/projects/{SHOP}/merge_requests/1/merge"),
    ("POST", f"/projects/{SHOP}/merge_requests/1/notes"),
    ("POST", f"/projects/{SHOP}/merge_requests/1/approval_rules"),
    ("POST", f"/projects/{SHOP}/issues"),
    ("PUT", f"/projects/{SHOP}/issues/1"),
    ("POST", f"/projects/{SHOP}/issues/1/notes"),
    ("POST", f"/projects/{SHOP}/labels"),
    ("POST", f"/projects/{SHOP}/milestones"),
    ("POST", f"/projects/{SHOP}/snippets"),
    ("PUT", f"/projects/{SHOP}/snippets/1"),
    ("POST", f"/projects/{SHOP}/approval_rules"),
    ("GET", f"/projects/{SHOP}/merge_requests"),
    ("GET", f"/projects/{SHOP}/issues"),
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(target=st.sampled_from(TARGETS), data=BODIES)
def test_no_body_makes_a_500(target: tuple[str, str], data: dict[str, Any]) -> None:
    svc = new_service()
    seeded = svc.request(
        "POST",
        f"/projects/{SHOP}/merge_requests",
        token="maya-token",
        json_body={"title": "t", "source_branch": "feature", "target_branch": "main"},
    )
    assert seeded.status == 201
    svc.request(
        "POST",
        f"/projects/{SHOP}/snippets",
        token="maya-token",
        json_body={"title": "s", "files": [{"file_path": "a", "content": "a"}]},
    )
    method, path = target
    if method == "GET":
        response = svc.request(
            method, path, token="maya-token", query={k: str(v) for k, v in data.items()}
        )
    else:
        response = svc.request(method, path, token="maya-token", json_body=data)
    assert response.status < 500, (target, data, response.body[:300])
    assert not svc.server_errors
