"""Configuration as code, end to end: one declarative description of groups, a subgroup,
projects with settings, members, protected branches, badges, topics, labels, milestones and
boards, applied through python-gitlab the way configuration tools do (look up, create or
update, read back). The instance then equals the description, and applying it again writes
nothing: the request journal shows no POST, PUT, PATCH or DELETE in the second pass.

Labels, milestones, issue boards (with their label lists), project and group CI/CD
variables, protected tags, project and group hooks and pipeline schedules (with their
variables) are part of it."""

from __future__ import annotations

from typing import Any

import gitlab

from fakeservice import FakeService

from .apply import apply, read_back

WRITES = ("POST", "PUT", "PATCH", "DELETE")

CONFIG: dict[str, Any] = {
    "groups": [
        {
            "path": "platform",
            "name": "Platform",
            "settings": {
                "visibility": "internal",
                "description": "Platform team",
                "project_creation_level": "maintainer",
                "subgroup_creation_level": "owner",
                "request_access_enabled": False,
                "require_two_factor_authentication": True,
                "two_factor_grace_period": 24,
                "default_branch": "main",
                "emails_enabled": False,
                "lfs_enabled": False,
                "membership_lock": False,
                "prevent_forking_outside_group": True,
                "shared_runners_setting": "disabled_and_overridable",
                "share_with_group_lock": True,
                "wiki_access_level": "private",
            },
            "members": {"olga": 50, "mia": 40, "dan": 30},
            "badges": [
                {
                    "name": "chat",
                    "link_url": "https://chat.example.com/platform",
                    "image_url": "https://img.example.com/chat.svg",
                }
            ],
            "hooks": [
                {
                    "url": "http://hooks.example/platform",
                    "token": "group-secret",
                    "push_events": False,
                    "issues_events": True,
                    "subgroup_events": True,
                    "member_events": True,
                    "enable_ssl_verification": False,
                }
            ],
            "variables": {
                "REGISTRY": {
                    "value": "registry.example.com",
                    "variable_type": "env_var",
                    "protected": False,
                    "masked": False,
                    "raw": True,
                    "environment_scope": "*",
                    "description": "Where images go",
                },
                "DEPLOY_KEY": {
                    "value": "s3cr3t-deploy-key",
                    "variable_type": "file",
                    "protected": True,
                    "masked": True,
                    "raw": False,
                    "environment_scope": "production",
                },
            },
        },
        {
            "path": "platform/tools",
            "name": "Tools",
            "settings": {"visibility": "internal", "description": "Tooling", "lfs_enabled": True},
            "members": {"otto": 20},
        },
    ],
    "projects": [
        {
            "path": "platform/tools/deployer",
            "name": "Deployer",
            "settings": {
                "description": "Deploys things",
                "visibility": "internal",
                "merge_method": "ff",
                "squash_option": "default_on",
                "only_allow_merge_if_pipeline_succeeds": True,
                "only_allow_merge_if_all_discussions_are_resolved": True,
                "remove_source_branch_after_merge": True,
                "merge_commit_template": "Merge %{source_branch} into %{target_branch}",
                "squash_commit_template": "%{title} (%{reference})",
                "suggestion_commit_message": "Apply suggestion",
                "ci_config_path": "ci/main.yml",
                "build_timeout": 1800,
                "auto_cancel_pending_pipelines": "enabled",
                "ci_default_git_depth": 10,
                "issues_access_level": "private",
                "wiki_access_level": "disabled",
                "container_registry_access_level": "disabled",
                "topics": ["deploy", "iac"],
                "autoclose_referenced_issues": False,
                "printing_merge_request_link_enabled": False,
                "keep_latest_artifact": False,
                "merge_requests_template": "## Why\n",
            },
            "members": {"eve": 30},
            "labels": {
                "bug": {"color": "#FF0000", "description": "Something is broken"},
                "ready": {"color": "#00AA00", "description": "Ready to ship"},
            },
            "milestones": {"v1": {"description": "First release", "due_date": "2030-01-31"}},
            "boards": {"Delivery": ["ready", "bug"]},
            "protected_branches": {
                "main": {"push_access_level": 40, "merge_access_level": 30},
                "release/*": {"push_access_level": 0, "merge_access_level": 40},
            },
            "protected_tags": {"v*": 40, "nightly-*": 30},
            "variables": {
                "DEPLOY_TOKEN": {
                    "value": "tok-1234567890",
                    "variable_type": "env_var",
                    "protected": True,
                    "masked": True,
                    "raw": False,
                    "environment_scope": "*",
                    "description": "Deploys",
                },
                "KUBECONFIG": {
                    "value": "apiVersion: v1\n",
                    "variable_type": "file",
                    "protected": False,
                    "masked": False,
                    "raw": True,
                    "environment_scope": "staging/*",
                },
            },
            "hooks": [
                {
                    "url": "http://hooks.example/deployer",
                    "name": "deploy bridge",
                    "description": "tells the bridge about merges",
                    "token": "project-secret",
                    "push_events": True,
                    "push_events_branch_filter": "release/*",
                    "branch_filter_strategy": "wildcard",
                    "merge_requests_events": True,
                    "tag_push_events": True,
                    "pipeline_events": True,
                },
                {"url": "http://hooks.example/audit", "push_events": False, "note_events": True},
            ],
            "schedules": {
                "nightly": {
                    "ref": "main",
                    "cron": "0 3 * * *",
                    "cron_timezone": "Europe/Berlin",
                    "active": True,
                    "variables": {
                        "MODE": {"value": "full", "variable_type": "env_var"},
                        "SETTINGS": {"value": "a=1\n", "variable_type": "file"},
                    },
                },
                "weekly cleanup": {
                    "ref": "main",
                    "cron": "30 6 * * 1",
                    "cron_timezone": "UTC",
                    "active": False,
                },
            },
            "badges": [
                {
                    "name": "pipeline",
                    "link_url": "https://ci.example.com/%{project_path}/-/pipelines",
                    "image_url": "https://ci.example.com/%{project_path}/badges/%{default_branch}/pipeline.svg",
                }
            ],
        },
        {
            "path": "platform/website",
            "name": "Website",
            "settings": {"visibility": "internal", "topics": ["web"], "lfs_enabled": False},
        },
    ],
}


def client(svc: FakeService) -> gitlab.Gitlab:
    return gitlab.Gitlab(
        "http://fakeservice.test", private_token="root-token", session=svc.requests_session()
    )


def writes(svc: FakeService, since: int) -> list[str]:
    return [
        f"{e.method} {e.path}"
        for e in svc.journal.entries()
        if e.seq > since and e.method in WRITES
    ]


def test_apply_twice_writes_once(svc: FakeService) -> None:
    gl = client(svc)
    apply(gl, CONFIG)
    first = writes(svc, 0)
    assert "POST /api/v4/groups" in first and "POST /api/v4/projects" in first
    assert sum(w.endswith("/lists") for w in first) == 2  # the board's two label lists
    assert sum(w.endswith("/protected_tags") for w in first) == 2
    assert sum(w.endswith("/variables") for w in first) == 6  # two per group, project, schedule
    assert sum(w.endswith("/hooks") for w in first) == 3
    assert sum(w.endswith("/pipeline_schedules") for w in first) == 2
    assert read_back(gl, CONFIG) == []
    mark = svc.journal.last().seq
    apply(gl, CONFIG)
    assert writes(svc, mark) == []
    assert read_back(gl, CONFIG) == []


def test_a_drifted_setting_is_the_only_write(svc: FakeService) -> None:
    gl = client(svc)
    apply(gl, CONFIG)
    drift = gl.projects.get("platform/tools/deployer")
    drift.merge_method = "merge"
    drift.save()
    mark = svc.journal.last().seq
    apply(gl, CONFIG)
    assert writes(svc, mark) == ["PUT /api/v4/projects/" + str(drift.id)]
    assert read_back(gl, CONFIG) == []


def test_a_drifted_variable_is_the_only_write(svc: FakeService) -> None:
    gl = client(svc)
    apply(gl, CONFIG)
    project = gl.projects.get("platform/tools/deployer")
    drift = project.variables.get("KUBECONFIG")
    drift.environment_scope = "*"
    drift.save()
    mark = svc.journal.last().seq
    apply(gl, CONFIG)
    assert writes(svc, mark) == [f"PUT /api/v4/projects/{project.id}/variables/KUBECONFIG"]
    assert read_back(gl, CONFIG) == []


def test_a_drifted_hook_and_schedule_are_the_only_writes(svc: FakeService) -> None:
    gl = client(svc)
    apply(gl, CONFIG)
    project = gl.projects.get("platform/tools/deployer")
    hook = next(h for h in project.hooks.list(get_all=True) if h.url.endswith("/deployer"))
    gl.http_put(f"/projects/{project.id}/hooks/{hook.id}", post_data={"tag_push_events": False})
    schedule = next(s for s in project.pipelineschedules.list(get_all=True) if not s.active)
    gl.http_put(
        f"/projects/{project.id}/pipeline_schedules/{schedule.id}", post_data={"cron": "1 1 * * *"}
    )
    assert len(read_back(gl, CONFIG)) == 2
    mark = svc.journal.last().seq
    apply(gl, CONFIG)
    assert writes(svc, mark) == [
        f"PUT /api/v4/projects/{project.id}/hooks/{hook.id}",
        f"PUT /api/v4/projects/{project.id}/pipeline_schedules/{schedule.id}",
    ]
    assert read_back(gl, CONFIG) == []
