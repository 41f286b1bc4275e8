"""Project, group and system hook endpoints over raw HTTP: every setting round-trips,
write-only secrets stay hidden, roles, plans, validation (state untouched), custom
headers and URL variables."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.calls import body, call, call_as
from support.services import stamp

from fakeservice import FakeService
from fakeservice.hooks.models import GROUP_FLAGS, PROJECT_FLAGS

from .conftest import HOOK_URL

PROJECT = "/projects/acme%2Fwebsite/hooks"
EVERYTHING: dict[str, Any] = {
    "url": HOOK_URL,
    "name": "CI bridge",
    "description": "tells the bridge",
    "token": "s3cret",
    "push_events_branch_filter": "release/*",
    "branch_filter_strategy": "wildcard",
    "enable_ssl_verification": False,
    "custom_webhook_template": '{"kind":"{{object_kind}}"}',
    "custom_headers": [{"key": "X-Team", "value": "web"}],
    "url_variables": [{"key": "part", "value": "one"}],
    **{flag: not default for flag, default in PROJECT_FLAGS.items()},
}


def expected_view(hook_id: int, fields: dict[str, Any], owner: dict[str, int]) -> dict[str, Any]:
    flags = GROUP_FLAGS if "group_id" in owner else PROJECT_FLAGS
    out: dict[str, Any] = {
        "id": hook_id,
        "url": fields["url"],
        "name": fields.get("name"),
        "description": fields.get("description"),
        **owner,
    }
    for flag, default in flags.items():
        out[flag] = fields.get(flag, default)
        if flag == "push_events":
            out["push_events_branch_filter"] = fields.get("push_events_branch_filter")
            out["branch_filter_strategy"] = fields.get("branch_filter_strategy", "wildcard")
    out.update(
        {
            "repository_update_events": False,
            "enable_ssl_verification": fields.get("enable_ssl_verification", True),
            "alert_status": "executable",
            "disabled_until": None,
            "url_variables": [{"key": v["key"]} for v in fields.get("url_variables", [])],
            "created_at": "2026-01-01T09:00:00Z",
            "custom_webhook_template": fields.get("custom_webhook_template"),
            "custom_headers": [{"key": h["key"]} for h in fields.get("custom_headers", [])],
        }
    )
    return out


def test_every_setting_round_trips_and_secrets_stay_hidden(svc: FakeService) -> None:
    created = call(svc, "POST", PROJECT, json_body=EVERYTHING)
    assert created.status == 201
    hook = body(created)
    assert hook == expected_view(hook["id"], EVERYTHING, {"project_id": 1})
    assert "token" not in hook and "s3cret" not in created.body.decode()
    assert body(call(svc, "GET", f"{PROJECT}/{hook['id']}")) == hook
    assert body(call(svc, "GET", PROJECT)) == [hook]
    # an edit of every field comes back too
    edit = {
        "url": "http://other.example/{part}",
        "name": "renamed",
        "description": "",
        "push_events_branch_filter": "^main$",
        "branch_filter_strategy": "regex",
        "enable_ssl_verification": True,
        "custom_webhook_template": None,
        "custom_headers": [],
        "url_variables": [{"key": "part", "value": "two"}],
        **{flag: default for flag, default in PROJECT_FLAGS.items()},
    }
    edited = call(svc, "PUT", f"{PROJECT}/{hook['id']}", json_body=edit)
    assert edited.status == 200
    assert body(edited) == expected_view(hook["id"], edit, {"project_id": 1})
    assert body(call(svc, "GET", f"{PROJECT}/{hook['id']}")) == body(edited)


def test_delete_and_unknown_hooks(svc: FakeService) -> None:
    hook = body(call(svc, "POST", PROJECT, json_body={"url": HOOK_URL}))
    gone = call(svc, "DELETE", f"{PROJECT}/{hook['id']}")
    assert (gone.status, gone.body) == (204, b"")
    missing = call(svc, "GET", f"{PROJECT}/{hook['id']}")
    assert (missing.status, body(missing)) == (404, {"message": "404 Not found"})
    # a hook of another project is not found through this one
    other = body(
        call(svc, "POST", "/projects/acme%2Fplatform%2Fapi/hooks", json_body={"url": HOOK_URL})
    )
    elsewhere = call(svc, "PUT", f"{PROJECT}/{other['id']}", json_body={"push_events": False})
    assert (elsewhere.status, body(elsewhere)) == (404, {"message": "404 Not found"})


def test_roles(svc: FakeService) -> None:
    assert call_as(svc, "GET", PROJECT, None).status == 401
    refused = call(svc, "GET", PROJECT, token="bob-read-token")  # a reporter
    assert (refused.status, body(refused)) == (403, {"message": "403 Forbidden"})
    assert call_as(svc, "GET", PROJECT, "carol").status == 403
    hidden = call_as(svc, "GET", "/projects/acme%2Fsecret-ops%2Fvault/hooks", "carol")
    assert (hidden.status, body(hidden)) == (404, {"message": "404 Project Not Found"})
    assert call_as(svc, "POST", PROJECT, "alice", body={"url": HOOK_URL}).status == 201
    assert body(call(svc, "GET", PROJECT))[0]["url"] == HOOK_URL


def test_bad_input_leaves_nothing_behind(svc: FakeService) -> None:
    cases = [
        ({}, 400, {"error": "url is missing"}),
        (
            {"url": "ftp://example.com/x"},
            400,
            {"message": {"url": ["is blocked: Only allowed schemes are http, https"]}},
        ),
        ({"url": "http://"}, 400, {"message": {"url": ["is blocked: URI is invalid"]}}),
        (
            {"url": " "},
            400,
            {
                "message": {
                    "url": ["can't be blank", "is blocked: Only allowed schemes are http, https"]
                }
            },
        ),
        (
            {"url": HOOK_URL, "branch_filter_strategy": "glob"},
            400,
            {"error": "branch_filter_strategy does not have a valid value"},
        ),
        ({"url": HOOK_URL, "push_events": "maybe"}, 400, {"error": "push_events is invalid"}),
        (
            {"url": HOOK_URL, "custom_headers": [{"key": "X"}]},
            400,
            {"error": "custom_headers[0][value] is missing"},
        ),
        (
            {"url": HOOK_URL, "branch_filter_strategy": "regex", "push_events_branch_filter": "("},
            400,
            {"message": {"push_events_branch_filter": ["not valid RE2 syntax"]}},
        ),
        (
            {"url": "http://example.com/" + "x" * 5000},
            400,
            {"message": {"url": ["is too long (maximum is 5000 characters)"]}},
        ),
    ]
    for payload, status, answer in cases:
        response = call(svc, "POST", PROJECT, json_body=payload)
        assert (response.status, body(response)) == (status, answer), payload
    assert body(call(svc, "GET", PROJECT)) == []
    malformed = call(
        svc, "POST", PROJECT, body=b"{nope", headers={"Content-Type": "application/json"}
    )
    assert malformed.status == 400
    hook = body(call(svc, "POST", PROJECT, json_body={"url": HOOK_URL}))
    bad = call(svc, "PUT", f"{PROJECT}/{hook['id']}", json_body={"url": "javascript:alert(1)"})
    assert bad.status == 400
    assert body(call(svc, "GET", f"{PROJECT}/{hook['id']}"))["url"] == HOOK_URL


def test_custom_headers_and_url_variables_by_key(svc: FakeService) -> None:
    hook = body(call(svc, "POST", PROJECT, json_body={"url": "http://h.example/{path}"}))
    one = f"{PROJECT}/{hook['id']}"
    assert (
        call(svc, "PUT", f"{one}/custom_headers/X-Api-Key", json_body={"value": "k"}).status == 204
    )
    assert call(svc, "PUT", f"{one}/url_variables/path", json_body={"value": "in"}).status == 204
    shown = body(call(svc, "GET", one))
    assert shown["custom_headers"] == [{"key": "X-Api-Key"}]
    assert shown["url_variables"] == [{"key": "path"}]
    assert call(svc, "PUT", f"{one}/custom_headers/X-Api-Key", json_body={}).status == 400
    assert call(svc, "DELETE", f"{one}/custom_headers/X-Api-Key").status == 204
    missing = call(svc, "DELETE", f"{one}/custom_headers/X-Api-Key")
    assert (missing.status, body(missing)) == (404, {"message": "404 Custom header Not Found"})
    missing = call(svc, "DELETE", f"{one}/url_variables/nope")
    assert (missing.status, body(missing)) == (404, {"message": "404 URL variable Not Found"})
    assert body(call(svc, "GET", one))["custom_headers"] == []


def test_group_hooks_need_an_owner_and_a_paid_plan(svc: FakeService) -> None:
    fields = {"url": HOOK_URL, "subgroup_events": True, "member_events": True}
    created = call_as(svc, "POST", "/groups/acme/hooks", "alice", body=fields)
    assert created.status == 201
    hook = body(created)
    assert hook == expected_view(hook["id"], fields, {"group_id": hook["group_id"]})
    assert "project_id" not in hook
    assert call(svc, "GET", "/groups/acme/hooks", token="bob-read-token").status == 403
    assert body(call(svc, "GET", "/groups/acme/hooks")) == [hook]
    svc.load_scenario({"instance": {"plan": "free"}})
    refused = call(svc, "POST", "/groups/acme/hooks", json_body={"url": HOOK_URL})
    assert (refused.status, body(refused)) == (403, {"message": "403 Forbidden"})


def test_system_hooks_for_administrators(svc: FakeService) -> None:
    assert call_as(svc, "GET", "/hooks", "alice").status == 403
    created = call(svc, "POST", "/hooks", json_body={"url": HOOK_URL, "tag_push_events": True})
    assert created.status == 201
    hook = body(created)
    assert hook == {
        "id": hook["id"],
        "url": HOOK_URL,
        "name": None,
        "description": None,
        "push_events": True,
        "tag_push_events": True,
        "merge_requests_events": False,
        "repository_update_events": True,
        "enable_ssl_verification": True,
        "alert_status": "executable",
        "disabled_until": None,
        "url_variables": [],
        "created_at": "2026-01-01T09:00:00Z",
    }
    assert body(call(svc, "GET", "/hooks")) == [hook]
    assert call(svc, "PUT", f"/hooks/{hook['id']}", json_body={"push_events": False}).status == 200
    assert body(call(svc, "GET", f"/hooks/{hook['id']}"))["push_events"] is False
    assert call(svc, "DELETE", f"/hooks/{hook['id']}").status == 204
    assert call(svc, "GET", f"/hooks/{hook['id']}").status == 404
    # a project hook is not a system hook
    project_hook = body(call(svc, "POST", PROJECT, json_body={"url": HOOK_URL}))
    assert call(svc, "GET", f"/hooks/{project_hook['id']}").status == 404


def test_hooks_go_with_their_project(svc: FakeService) -> None:
    call(svc, "POST", "/projects/alice%2Fdotfiles/hooks", json_body={"url": HOOK_URL})
    assert call(svc, "DELETE", "/projects/alice%2Fdotfiles").status in (202, 204)
    from fakeservice.hooks.models import hooks

    assert [h.owner_id for h in hooks(svc.store)] == []


_flags = st.fixed_dictionaries({}, optional={flag: st.booleans() for flag in PROJECT_FLAGS})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    flags=_flags,
    name=st.none() | st.text(alphabet="abc xyz-", max_size=20),
    strategy=st.sampled_from(["wildcard", "regex", "all_branches"]),
)
def test_what_is_written_is_read_back(
    flags: dict[str, bool], name: str | None, strategy: str
) -> None:
    svc = stamp("default", "hooks-default")
    fields = {"url": HOOK_URL, "name": name, "branch_filter_strategy": strategy, **flags}
    hook = body(call(svc, "POST", PROJECT, json_body=fields))
    read = body(call(svc, "GET", f"{PROJECT}/{hook['id']}"))
    assert read == hook
    for key, value in fields.items():
        assert read[key] == value
    changed = {flag: not value for flag, value in flags.items()}
    if changed:
        call(svc, "PUT", f"{PROJECT}/{hook['id']}", json_body=changed)
        again = body(call(svc, "GET", f"{PROJECT}/{hook['id']}"))
        assert {flag: again[flag] for flag in changed} == changed
