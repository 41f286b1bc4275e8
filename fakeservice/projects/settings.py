"""The project settings the create and edit endpoints accept, declared once as data.

Each :class:`Setting` names one attribute of ``POST /projects``, ``POST /projects/user/:id``
and ``PUT /projects/:id``: its parameter type and allowed values, its default, where it is
kept (a :class:`~fakeservice.projects.models.Project` attribute, a feature access level or
the project's ``settings`` mapping), its model validation (the service's messages), whether
only administrators may set it, and the least plan that honours it. Older names (the
``*_enabled`` booleans, ``tag_list``, ``public_builds``, ``emails_disabled``) are
:class:`Alias` rows that write the setting they stand for. The endpoints' parameters, the
parsing of a request and the settings fields of the project view all come from these rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fakeservice.core.store import Store
from fakeservice.web.params import BOOL, HASH, INT, STR, Array, ParamType
from fakeservice.web.settings_table import (
    Alias,
    Setting,
    SettingsTable,
    between,
    licensed,
    too_long,
)

LEVEL_ORDER = {"disabled": 0, "private": 10, "enabled": 20, "public": 30}
THREE_LEVELS = ("disabled", "private", "enabled")
FOUR_LEVELS = ("disabled", "private", "enabled", "public")
REPOSITORY_CHILDREN = ("merge_requests", "builds", "forking")
MINUTE, DAY = 60, 86400
MONTH, YEAR = 2629746, 31556952  # the Rails calendar month and year
LIST = Array(STR, scalar=True, comma=True)
TOPIC_LIMIT = 255


def _build_timeout(value: Any) -> list[str]:
    if value is not None and not 10 * MINUTE <= value < MONTH:
        return ["needs to be between 10 minutes and 1 month"]
    return []


def _ci_config_path(value: Any) -> list[str]:
    if isinstance(value, str) and (".." in value or value.startswith("/")):
        return ["cannot include leading slash or directory traversal."]
    return too_long(255)(value)


def _enabled(value: bool) -> str:
    return "enabled" if value else "disabled"


def _feature(name: str, values: tuple[str, ...] = THREE_LEVELS, plan: str = "free") -> Setting:
    return Setting(
        f"{name}_access_level",
        STR,
        default="enabled",
        values=values,
        store="feature",
        error_key=f"project_feature.{name}_access_level",
        plan=plan,
    )


def _attr(name: str, type_: ParamType, **kw: Any) -> Setting:
    return Setting(name, type_, store="attr", **kw)


SETTINGS: tuple[Setting, ...] = (
    _attr("description", STR, validate=too_long(2000)),
    _attr("visibility", STR, default="private", values=("private", "internal", "public")),
    _attr("default_branch", STR),
    _attr("topics", LIST, default=[]),
    _feature("issues"),
    _feature("repository"),
    _feature("merge_requests"),
    _feature("forking"),
    _feature("wiki"),
    _feature("builds"),
    _feature("snippets"),
    _feature("pages", FOUR_LEVELS),
    _feature("analytics"),
    _feature("container_registry"),
    _feature("security_and_compliance"),
    _feature("releases"),
    _feature("environments"),
    _feature("feature_flags"),
    _feature("infrastructure"),
    _feature("monitor"),
    _feature("model_experiments"),
    _feature("model_registry"),
    _feature("package_registry", FOUR_LEVELS),
    _feature("requirements", plan="ultimate"),
    _attr("emails_enabled", BOOL, default=True),
    _attr("shared_runners_enabled", BOOL, default=True),
    Setting("group_runners_enabled", BOOL, default=True),
    _attr("lfs_enabled", BOOL, default=True),
    _attr("request_access_enabled", BOOL, default=True),
    _attr("public_jobs", BOOL, default=True),
    _attr("ci_config_path", STR, validate=_ci_config_path),
    _attr("build_timeout", INT, default=3600, validate=_build_timeout),
    Setting("auto_cancel_pending_pipelines", STR, "enabled", ("enabled", "disabled")),
    Setting(
        "ci_default_git_depth",
        INT,
        20,
        validate=between(0, 1000),
        error_key="ci_cd_settings.default_git_depth",
    ),
    Setting(
        "ci_delete_pipelines_in_seconds",
        INT,
        validate=between(DAY, YEAR),
        error_key="ci_cd_settings.delete_pipelines_in_seconds",
    ),
    Setting("ci_forward_deployment_enabled", BOOL, True),
    Setting("ci_forward_deployment_rollback_allowed", BOOL, True),
    Setting("ci_allow_fork_pipelines_to_run_in_parent_project", BOOL, True),
    Setting("ci_separated_caches", BOOL, True),
    Setting("ci_job_token_scope_enabled", BOOL, False),
    Setting("ci_push_repository_for_job_token_allowed", BOOL, False),
    Setting(
        "ci_id_token_sub_claim_components",
        Array(STR, scalar=True),
        ["project_path", "ref_type", "ref"],
    ),
    Setting(
        "ci_pipeline_variables_minimum_override_role",
        STR,
        "developer",
        ("no_one_allowed", "developer", "maintainer", "owner"),
    ),
    Setting(
        "ci_restrict_pipeline_cancellation_role",
        STR,
        "developer",
        ("developer", "maintainer", "no_one"),
        plan="premium",
    ),
    Setting("restrict_user_defined_variables", BOOL, False),
    Setting("build_git_strategy", STR, "fetch", ("fetch", "clone")),
    Setting("keep_latest_artifact", BOOL, True),
    Setting("runner_token_expiration_interval", INT, validate=between(0, 2**31 - 1)),
    Setting("max_artifacts_size", INT, admin=True, validate=between(0, 2**31 - 1)),
    _attr("auto_devops_enabled", BOOL, default=False),
    Setting(
        "auto_devops_deploy_strategy",
        STR,
        "continuous",
        ("continuous", "manual", "timed_incremental"),
    ),
    _attr("only_allow_merge_if_pipeline_succeeds", BOOL, default=False),
    Setting("allow_merge_on_skipped_pipeline", BOOL, False),
    _attr("only_allow_merge_if_all_discussions_are_resolved", BOOL, default=False),
    Setting("only_allow_merge_if_all_status_checks_passed", BOOL, False, plan="ultimate"),
    _attr("remove_source_branch_after_merge", BOOL, default=True),
    Setting("printing_merge_request_link_enabled", BOOL, True),
    _attr("merge_method", STR, default="merge", values=("merge", "rebase_merge", "ff")),
    _attr(
        "squash_option",
        STR,
        default="default_off",
        values=("never", "always", "default_on", "default_off"),
    ),
    Setting("resolve_outdated_diff_discussions", BOOL, False),
    Setting("enforce_auth_checks_on_uploads", BOOL, True),
    Setting("suggestion_commit_message", STR, validate=too_long(255)),
    Setting("merge_commit_template", STR, validate=too_long(500)),
    Setting("squash_commit_template", STR, validate=too_long(500)),
    Setting(
        "issue_branch_template",
        STR,
        validate=too_long(255),
        error_key="project_setting.issue_branch_template",
    ),
    Setting("warn_about_potentially_unwanted_characters", BOOL, True),
    Setting("autoclose_referenced_issues", BOOL, True),
    Setting("mr_default_target_self", BOOL, False),
    Setting("service_desk_enabled", BOOL, False),
    Setting("show_default_award_emojis", BOOL, True),
    Setting("show_diff_preview_in_email", BOOL, True),
    Setting("container_expiration_policy_attributes", HASH, shown=False),
    Setting("issues_template", STR, plan="premium"),
    Setting("merge_requests_template", STR, plan="premium"),
    Setting("approvals_before_merge", INT, 0, plan="premium", validate=between(0, 2**31 - 1)),
    Setting("merge_pipelines_enabled", BOOL, False, plan="premium"),
    Setting("merge_trains_enabled", BOOL, False, plan="premium"),
    Setting("merge_trains_skip_train_allowed", BOOL, False, plan="premium"),
    Setting("external_authorization_classification_label", STR, plan="premium"),
    Setting("prevent_merge_without_jira_issue", BOOL, False, plan="ultimate"),
    _attr("repository_storage", STR, default="default", admin=True, shown=False),
)
ALIASES: tuple[Alias, ...] = (
    Alias("issues_enabled", BOOL, "issues_access_level", _enabled),
    Alias("merge_requests_enabled", BOOL, "merge_requests_access_level", _enabled),
    Alias("wiki_enabled", BOOL, "wiki_access_level", _enabled),
    Alias("jobs_enabled", BOOL, "builds_access_level", _enabled),
    Alias("snippets_enabled", BOOL, "snippets_access_level", _enabled),
    Alias("container_registry_enabled", BOOL, "container_registry_access_level", _enabled),
    Alias("packages_enabled", BOOL, "package_registry_access_level", _enabled),
    Alias("requirements_enabled", BOOL, "requirements_access_level", _enabled),
    Alias(
        "security_and_compliance_enabled", BOOL, "security_and_compliance_access_level", _enabled
    ),
    Alias("emails_disabled", BOOL, "emails_enabled", lambda v: not v, last=True),
    Alias("public_builds", BOOL, "public_jobs", bool),
    Alias("tag_list", LIST, "topics", list),
)
# the access level each older ``*_enabled`` boolean of the view reads
ENABLED_VIEWS = {a.name: a.target for a in ALIASES if a.convert is _enabled}

TABLE = SettingsTable(SETTINGS, ALIASES)
BY_NAME = TABLE.by_name
PARAMS = TABLE.params


def clean_topics(topics: list[str]) -> list[str]:
    """Topics stripped, without blanks, the first spelling of each (case-insensitively)."""
    out: list[str] = []
    seen: set[str] = set()
    for topic in topics:
        name = topic.strip()
        if name and name.lower() not in seen:
            seen.add(name.lower())
            out.append(name)
    return out


def requested(store: Store, params: Mapping[str, Any], *, is_admin: bool) -> dict[str, Any]:
    """The settings a request writes (see :meth:`SettingsTable.requested`), topics cleaned."""
    out = TABLE.requested(store, params, is_admin=is_admin)
    if "topics" in out:
        out["topics"] = clean_topics(out["topics"] or [])
    return out


def errors_of(project: Any, changes: Mapping[str, Any]) -> dict[str, list[str]]:
    """Model validation of the settings ``changes`` would give ``project`` (None: a new
    one): each row's own, then :func:`project_errors`."""
    errors = TABLE.errors(changes)
    for key, found in project_errors(project, changes).items():
        errors.setdefault(key, []).extend(found)
    return errors


def project_errors(project: Any, changes: Mapping[str, Any]) -> dict[str, list[str]]:
    """Rules across rows: topic names not too long, and no repository child feature
    above the repository."""
    errors: dict[str, list[str]] = {}
    if any(len(topic) > TOPIC_LIMIT for topic in changes.get("topics") or []):
        errors.setdefault("topics", []).append(f"is too long (maximum is {TOPIC_LIMIT} characters)")

    def level(feature: str) -> int:
        name = f"{feature}_access_level"
        if name in changes:
            return LEVEL_ORDER[changes[name]]
        current = project.features.get(feature, "enabled") if project is not None else "enabled"
        return LEVEL_ORDER[current]

    for child in REPOSITORY_CHILDREN:
        if level(child) > level("repository"):
            errors.setdefault(f"project_feature.{child}_access_level", []).append(
                "cannot have higher visibility level than repository access level"
            )
    return errors


attributes_of = TABLE.attributes_of
apply = TABLE.apply
EXPIRATION_POLICY = {
    "cadence": "1d",
    "enabled": False,
    "keep_n": 10,
    "older_than": "90d",
    "name_regex": ".*",
    "name_regex_keep": None,
    "next_run_at": None,
}


def render(store: Store, project: Any, out: dict[str, Any]) -> None:
    """Write every shown setting (and each older ``*_enabled`` boolean) into ``out``."""
    TABLE.render(store, project, out, detail=True)
    for name, target in ENABLED_VIEWS.items():
        if licensed(store, BY_NAME[target].plan):
            out[name] = out[target] != "disabled"
    out["emails_disabled"] = not project.emails_enabled
    out["tag_list"] = list(project.topics)
    policy = project.settings.get("container_expiration_policy_attributes") or {}
    out["container_expiration_policy"] = {**EXPIRATION_POLICY, **policy}
