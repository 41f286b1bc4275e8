"""The application settings clients commonly set (sign-up, two-factor, terms, CI limits,
throttles, hooks' local requests...): each round-trips with the value written, enums are
checked with the declared-parameter messages, and the model rules answer with the
service's messages and change nothing."""

from __future__ import annotations

from typing import Any

import gitlab
import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService

PATH = "/application/settings"
CHANGES: dict[str, Any] = {
    "signup_enabled": False,
    "password_authentication_enabled_for_web": False,
    "password_authentication_enabled_for_git": False,
    "require_admin_approval_after_user_signup": False,
    "send_user_confirmation_email": True,
    "email_confirmation_setting": "hard",
    "user_default_external": True,
    "can_create_group": False,
    "require_two_factor_authentication": True,
    "two_factor_grace_period": 0,
    "admin_mode": True,
    "sign_in_text": "Welcome",
    "after_sign_up_text": "Thanks",
    "help_page_text": "Ask #help",
    "enforce_terms": True,
    "terms": "Be nice.",
    "domain_allowlist": ["example.com", "example.org"],
    "domain_denylist_enabled": True,
    "domain_denylist": ["spam.test"],
    "default_branch_protection": 4,
    "default_project_creation": 3,
    "default_ci_config_path": "ci/pipeline.yml",
    "default_branch_name": "trunk",
    "auto_devops_enabled": False,
    "protected_ci_variables": False,
    "keep_latest_artifact": False,
    "ci_max_includes": 20,
    "max_yaml_size_bytes": 1024,
    "max_yaml_depth": 10,
    "max_pages_size": 0,
    "max_artifacts_size": 5,
    "snippet_size_limit": 2048,
    "container_registry_token_expire_delay": 15,
    "deletion_adjourned_period": 30,
    "deactivate_dormant_users": True,
    "deactivate_dormant_users_period": 120,
    "allow_local_requests_from_web_hooks_and_services": True,
    "allow_local_requests_from_system_hooks": False,
    "throttle_authenticated_api_enabled": True,
    "throttle_authenticated_api_requests_per_period": 100,
    "throttle_authenticated_api_period_in_seconds": 60,
    "throttle_unauthenticated_api_enabled": True,
    "throttle_unauthenticated_api_requests_per_period": 10,
    "throttle_unauthenticated_api_period_in_seconds": 60,
    "personal_access_token_prefix": "fake-",
    "mirror_available": False,
    "hide_third_party_offers": True,
    "usage_ping_enabled": False,
    "version_check_enabled": False,
    "local_markdown_version": 3,
    "import_sources": ["github", "gitlab_project"],
    "restricted_visibility_levels": ["public"],
    "default_project_visibility": "internal",
}


def test_every_common_setting_round_trips(svc: FakeService) -> None:
    defaults = body(call(svc, "GET", PATH))
    assert all(defaults[name] != value for name, value in CHANGES.items()), "pick non-defaults"
    updated = call(svc, "PUT", PATH, json_body=CHANGES)
    assert updated.status == 200, updated.body
    again = body(call(svc, "GET", PATH))
    assert {name: again[name] for name in CHANGES} == CHANGES
    assert again == body(updated)


@pytest.mark.parametrize(
    ("changes", "answer"),
    [
        ({"email_confirmation_setting": "maybe"}, {"error": "email_confirmation_setting does not have a valid value"}),
        ({"default_branch_protection": 7}, {"error": "default_branch_protection does not have a valid value"}),
        ({"two_factor_grace_period": "soon"}, {"error": "two_factor_grace_period is invalid"}),
        ({"snippet_size_limit": 0}, {"message": {"snippet_size_limit": ["must be greater than 0"]}}),
        ({"max_artifacts_size": -5}, {"message": {"max_artifacts_size": ["must be greater than 0"]}}),
        ({"deletion_adjourned_period": 91}, {"message": {"deletion_adjourned_period": ["must be less than or equal to 90"]}}),
        (
            {"restricted_visibility_levels": ["private"]},
            {"message": {"default_project_visibility": ["cannot be set to a restricted visibility level"],
                         "default_group_visibility": ["cannot be set to a restricted visibility level"]}},
        ),
        (
            {"default_ci_config_path": "../secret.yml"},
            {"message": {"default_ci_config_path": ["cannot include leading slash or directory traversal."]}},
        ),
        (
            {"personal_access_token_prefix": "bad prefix!"},
            {"message": {"personal_access_token_prefix": [
                "can contain only letters of the Base64 alphabet (RFC4648) with the addition of '@', ':' and '.'"]}},
        ),
        ({"enforce_terms": True}, {"message": {"terms": ["You need to set terms to be enforced"]}}),
        (
            {"deactivate_dormant_users": True, "deactivate_dormant_users_period": 30},
            {"message": {"deactivate_dormant_users_period": ["'30' days of inactivity must be greater than or equal to 90"]}},
        ),
    ],
)  # fmt: skip
def test_refusals_change_nothing(svc: FakeService, changes: dict[str, Any], answer: Any) -> None:
    before = body(call(svc, "GET", PATH))
    response = call(svc, "PUT", PATH, json_body={"signup_enabled": False, **changes})
    assert (response.status, body(response)) == (400, answer)
    assert body(call(svc, "GET", PATH)) == before


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token=ROOT, session=svc.requests_session())
    current = gl.settings.get()
    assert (current.signup_enabled, current.default_branch_protection) == (True, 2)
    current.signup_enabled = False
    current.allow_local_requests_from_web_hooks_and_services = True
    current.domain_allowlist = ["example.com"]
    current.save()
    again = gl.settings.get()
    assert again.signup_enabled is False
    assert again.allow_local_requests_from_web_hooks_and_services is True
    assert again.domain_allowlist == ["example.com"]
    with pytest.raises(gitlab.GitlabUpdateError, match="You need to set terms"):
        gl.settings.update(new_data={"enforce_terms": True})
