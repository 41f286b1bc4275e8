"""Emoji events: an award (a comment that is only ``:emoji:``) on an issue or a merge
request sends an Emoji Hook with the awarded record."""

from __future__ import annotations

import json
from typing import Any

from support.calls import body, call

from fakeservice import FakeService

from .conftest import HOOK_URL

PROJECT = "/projects/acme%2Fwebsite"


def test_awards_are_announced(svc: FakeService, captured: Any) -> None:
    hook = {"url": HOOK_URL, "push_events": False, "emoji_events": True}
    call(svc, "POST", f"{PROJECT}/hooks", json_body=hook)
    issue = body(call(svc, "POST", f"{PROJECT}/issues", json_body={"title": "Nice"}))
    notes = f"{PROJECT}/issues/{issue['iid']}/notes"
    assert call(svc, "POST", notes, json_body={"body": ":thumbsup:"}).status == 201
    assert call(svc, "POST", notes, json_body={"body": ":thumbsup:"}).status == 201  # kept
    mr = {"source_branch": "feature/dark-mode", "target_branch": "main", "title": "Dark"}
    created = body(call(svc, "POST", f"{PROJECT}/merge_requests", json_body=mr))
    mr_notes = f"{PROJECT}/merge_requests/{created['iid']}/notes"
    assert call(svc, "POST", mr_notes, json_body={"body": ":tada:"}).status == 201
    assert [c.request.headers["X-Gitlab-Event"] for c in captured.calls] == ["Emoji Hook"] * 2
    first, second = (json.loads(c.request.content) for c in captured.calls)
    assert (first["object_kind"], first["event_type"]) == ("emoji", "award")
    assert first["object_attributes"]["name"] == "thumbsup"
    assert first["object_attributes"]["awardable_type"] == "Issue"
    assert first["issue"]["iid"] == issue["iid"]
    assert first["user"]["username"] == "root"
    assert second["object_attributes"]["awardable_type"] == "MergeRequest"
    assert second["merge_request"]["iid"] == created["iid"]
