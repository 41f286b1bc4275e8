"""A property of label events: whatever sequence of label writes an issue gets
(``labels``, ``add_labels``, ``remove_labels``), replaying its label events from nothing
gives its labels, and each event changes the replayed set (no add of a present label, no
remove of an absent one)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from support.calls import body, call

from fakeservice import FakeService

SITE = "/projects/acme%2Fwebsite"
NAMES = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=3, unique=True)
WRITES = st.lists(
    st.tuples(st.sampled_from(["labels", "add_labels", "remove_labels"]), NAMES),
    min_size=1,
    max_size=6,
)


def ok(response: Any, status: int = 200) -> Any:
    assert response.status == status, response.body
    return body(response)


@settings(max_examples=25, deadline=None)
@given(initial=NAMES, writes=WRITES)
def test_replayed_label_events_give_the_labels(
    initial: list[str], writes: list[tuple[str, list[str]]]
) -> None:
    svc = FakeService("default")
    data = {"title": "T", "labels": ",".join(initial)}
    issue = ok(call(svc, "POST", f"{SITE}/issues", "alice-token", json_body=data), 201)
    path = f"{SITE}/issues/{issue['iid']}"
    for key, names in writes:
        ok(call(svc, "PUT", path, "alice-token", json_body={key: ",".join(names)}))
    replayed: set[str] = set()
    events = ok(
        call(svc, "GET", f"{path}/resource_label_events", "alice-token", query={"per_page": "100"})
    )
    for event in events:
        name = event["label"]["name"]
        if event["action"] == "add":
            assert name not in replayed
            replayed.add(name)
        else:
            assert name in replayed
            replayed.remove(name)
    assert replayed == set(ok(call(svc, "GET", path, "alice-token"))["labels"])
