"""The group settings ``POST /groups`` and ``PUT /groups/:id`` accept, declared once as data
(see :mod:`fakeservice.web.settings_table`): sharing, creation levels, two-factor, default
branch and its protection, e-mails, LFS, access requests, shared runners, the paid-tier
locks and the wiki level. ``emails_enabled`` is the newer spelling of ``emails_disabled``
(which wins when both are sent, as the service translates it last)."""

from __future__ import annotations

from typing import Any

from fakeservice.groups.models import VISIBILITIES
from fakeservice.web.params import BOOL, HASH, INT, STR, ParamType
from fakeservice.web.settings_table import Alias, Setting, SettingsTable, between, too_long

PROJECT_CREATION_LEVELS = ("noone", "owner", "maintainer", "developer", "administrator")
SHARED_RUNNERS = (
    "enabled",
    "disabled_and_overridable",
    "disabled_and_unoverridable",
    "disabled_with_override",
)
COUNT = between(0, 2**31 - 1)
BRANCH_PROTECTION_DEFAULTS = {
    "allowed_to_push": [{"access_level": 40}],
    "allow_force_push": False,
    "allowed_to_merge": [{"access_level": 40}],
    "developer_can_initial_push": False,
}


def _attr(name: str, type_: ParamType, default: Any = None, **kw: Any) -> Setting:
    return Setting(name, type_, default, store="attr", **kw)


def _detail(name: str, type_: ParamType, default: Any = None, **kw: Any) -> Setting:
    return Setting(name, type_, default, detail=True, **kw)


SETTINGS: tuple[Setting, ...] = (
    _attr("description", STR, "", validate=too_long(500)),
    _attr("visibility", STR, "private", values=VISIBILITIES),
    _attr("share_with_group_lock", BOOL, False),
    _attr("require_two_factor_authentication", BOOL, False),
    _attr("two_factor_grace_period", INT, 48, validate=COUNT),
    _attr("project_creation_level", STR, "developer", values=PROJECT_CREATION_LEVELS),
    _attr("auto_devops_enabled", BOOL),
    _attr("subgroup_creation_level", STR, "maintainer", values=("owner", "maintainer")),
    _attr("emails_disabled", BOOL, False),
    _attr("mentions_disabled", BOOL),
    _attr("lfs_enabled", BOOL, True),
    Setting("default_branch", STR),
    _attr("default_branch_protection", INT, 2, values=(0, 1, 2, 3, 4)),
    _attr("request_access_enabled", BOOL, True),
    _attr("file_template_project_id", INT, plan="premium"),
    _detail("default_branch_protection_defaults", HASH, BRANCH_PROTECTION_DEFAULTS),
    _detail("shared_runners_setting", STR, "enabled", values=SHARED_RUNNERS),
    _detail("prevent_sharing_groups_outside_hierarchy", BOOL, False),
    _detail("enabled_git_access_protocol", STR, "all", values=("ssh", "http", "all")),
    _detail("show_diff_preview_in_email", BOOL, True),
    _detail("math_rendering_limits_enabled", BOOL, True),
    _detail("lock_math_rendering_limits_enabled", BOOL, False),
    _detail("max_artifacts_size", INT, admin=True, validate=COUNT),
    _detail(
        "wiki_access_level",
        STR,
        "enabled",
        values=("disabled", "private", "enabled"),
        plan="premium",
    ),
    _detail("membership_lock", BOOL, False, plan="premium"),
    _detail("prevent_forking_outside_group", BOOL, False, plan="premium"),
    _detail("ip_restriction_ranges", STR, plan="premium"),
    _detail("allowed_email_domains_list", STR, plan="premium"),
    _detail("shared_runners_minutes_limit", INT, admin=True, validate=COUNT),
    _detail("extra_shared_runners_minutes_limit", INT, admin=True, validate=COUNT),
)
ALIASES: tuple[Alias, ...] = (Alias("emails_enabled", BOOL, "emails_disabled", lambda v: not v),)
TABLE = SettingsTable(SETTINGS, ALIASES)
