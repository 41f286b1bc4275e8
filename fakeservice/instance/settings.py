"""Application settings (``GET``/``PUT /application/settings``): the documented subset the
fake keeps, declared once with their types and defaults, and the model validation of an
update (every message as the real service words it, ``{"message": {field: [...]}}``).

``repository_storages_weighted`` maps storage names to weights from 0 to 100; only the
instance's declared storages may appear (``can't include: <names>``). New projects go to
the storage with the highest weight (ties by name).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from fakeservice.core.store import Store
from fakeservice.instance.models import instance
from fakeservice.web.params import BOOL, HASH, INT, STR, Array, Param

VISIBILITY_LEVELS = ("private", "internal", "public")
IMPORT_SOURCES = (
    "github",
    "bitbucket",
    "bitbucket_server",
    "fogbugz",
    "git",
    "gitlab_project",
    "gitea",
    "manifest",
)
MAX_INT = 2**31 - 1
EMAIL_CONFIRMATION = ("off", "soft", "hard")


def _bool(name: str, default: bool, description: str) -> tuple[Param, Any]:
    return Param(name, BOOL, description=description), default


def _int(name: str, default: int, description: str, **kw: Any) -> tuple[Param, Any]:
    return Param(name, INT, description=description, **kw), default


def _str(name: str, default: str | None, description: str, **kw: Any) -> tuple[Param, Any]:
    return Param(name, STR, description=description, **kw), default


# Settings client code commonly sets, beyond the storage and size ones.
EXTRA_SETTINGS: tuple[tuple[Param, Any], ...] = (
    _bool("password_authentication_enabled_for_git", True, "Git over HTTP with passwords"),
    _bool("require_admin_approval_after_user_signup", True, "New sign-ups wait for approval"),
    _bool("send_user_confirmation_email", False, "Confirmation email on sign-up"),
    _str("email_confirmation_setting", "off", "off, soft or hard", values=EMAIL_CONFIRMATION),
    _bool("user_default_external", False, "New users are external"),
    _bool("can_create_group", True, "New users may create top-level groups"),
    _bool("require_two_factor_authentication", False, "Everyone needs two-factor auth"),
    _int("two_factor_grace_period", 48, "Hours before two-factor auth is enforced"),
    _bool("admin_mode", False, "Administrators re-authenticate for admin actions"),
    _str("sign_in_text", None, "Text on the sign-in page"),
    _str("after_sign_up_text", None, "Text shown after sign-up"),
    _str("help_page_text", None, "Text on the help page"),
    _bool("enforce_terms", False, "Users must accept the terms"),
    _str("terms", None, "The terms of service (Markdown)"),
    (Param("domain_allowlist", Array(STR, comma=True), description="Sign-up domains allowed"), []),
    _bool("domain_denylist_enabled", False, "Whether domain_denylist applies"),
    (Param("domain_denylist", Array(STR, comma=True), description="Sign-up domains refused"), []),
    _int("default_branch_protection", 2, "0 to 4: who may push and merge", values=(0, 1, 2, 3, 4)),
    _int("default_project_creation", 2, "0 to 3: who may create projects", values=(0, 1, 2, 3)),
    _str("default_ci_config_path", None, "Default CI configuration file"),
    _bool("auto_devops_enabled", True, "Auto DevOps for new projects"),
    _bool("protected_ci_variables", True, "New CI/CD variables are protected"),
    _bool("keep_latest_artifact", True, "Keep the latest artifacts of each ref"),
    _int("ci_max_includes", 150, "Most includes in a CI configuration"),
    _int("max_yaml_size_bytes", 2097152, "Largest CI configuration (bytes)"),
    _int("max_yaml_depth", 100, "Deepest CI configuration"),
    _int("max_pages_size", 100, "Largest Pages site (MB)"),
    _int("snippet_size_limit", 52428800, "Largest snippet (bytes)"),
    _int("container_registry_token_expire_delay", 5, "Registry token lifetime (minutes)"),
    _int("deletion_adjourned_period", 7, "Days before a delayed deletion happens"),
    _bool("deactivate_dormant_users", False, "Deactivate users inactive for a period"),
    _int("deactivate_dormant_users_period", 90, "Days of inactivity before deactivation"),
    _bool(
        "allow_local_requests_from_web_hooks_and_services", False, "Hooks may call local addresses"
    ),
    _bool("allow_local_requests_from_system_hooks", True, "System hooks may call local addresses"),
    _bool("throttle_authenticated_api_enabled", False, "Rate-limit signed-in API requests"),
    _int(
        "throttle_authenticated_api_requests_per_period", 7200, "Signed-in API requests per period"
    ),
    _int("throttle_authenticated_api_period_in_seconds", 3600, "Signed-in API period (seconds)"),
    _bool("throttle_unauthenticated_api_enabled", False, "Rate-limit anonymous API requests"),
    _int(
        "throttle_unauthenticated_api_requests_per_period",
        3600,
        "Anonymous API requests per period",
    ),
    _int("throttle_unauthenticated_api_period_in_seconds", 3600, "Anonymous API period (seconds)"),
    _str("personal_access_token_prefix", "glpat-", "Prefix of new personal access tokens"),
    _bool("mirror_available", True, "Project maintainers may set up mirrors"),
    _bool("hide_third_party_offers", False, "Hide offers from third parties"),
    _bool("usage_ping_enabled", True, "Send usage statistics"),
    _bool("version_check_enabled", True, "Check for new versions"),
    _int("local_markdown_version", 0, "Bump to invalidate cached Markdown"),
)

# name -> (declared parameter, default value); the order is the order of the answer.
SETTINGS: dict[str, tuple[Param, Any]] = {
    param.name: (param, default)
    for param, default in (
        (Param("default_projects_limit", INT, description="Projects a user may create"), 100000),
        (Param("signup_enabled", BOOL, description="Whether people can sign up"), True),
        (
            Param("password_authentication_enabled_for_web", BOOL, description="Web passwords"),
            True,
        ),
        (Param("gravatar_enabled", BOOL, description="Use Gravatar avatars"), True),
        (
            Param("default_project_visibility", STR, values=VISIBILITY_LEVELS),
            "private",
        ),
        (Param("default_group_visibility", STR, values=VISIBILITY_LEVELS), "private"),
        (Param("default_snippet_visibility", STR, values=VISIBILITY_LEVELS), "private"),
        (
            Param("restricted_visibility_levels", Array(STR, comma=True), values=VISIBILITY_LEVELS),
            [],
        ),
        (
            Param("import_sources", Array(STR, comma=True), values=IMPORT_SOURCES),
            list(IMPORT_SOURCES),
        ),
        (Param("max_attachment_size", INT, description="Attachment limit (MB)"), 100),
        (Param("max_import_size", INT, description="Import archive limit (MB, 0: none)"), 0),
        (Param("max_export_size", INT, description="Export archive limit (MB, 0: none)"), 0),
        (Param("max_artifacts_size", INT, description="Job artifacts limit (MB)"), 100),
        (Param("project_export_enabled", BOOL, description="Whether projects export"), True),
        (Param("home_page_url", STR, description="Where anonymous visitors go"), None),
        (Param("after_sign_out_path", STR, description="Where users go after sign-out"), None),
        (Param("default_branch_name", STR, description="New repositories' branch"), None),
        (Param("session_expire_delay", INT, description="Session length (minutes)"), 10080),
        (
            Param("shared_runners_enabled", BOOL, description="Shared runners for new projects"),
            True,
        ),
        (Param("user_oauth_applications", BOOL, description="Users may add OAuth apps"), True),
        *EXTRA_SETTINGS,
        (
            Param(
                "repository_storages_weighted",
                HASH,
                description="Storage name to weight (0 to 100) for new repositories",
            ),
            None,
        ),
    )
}
PARAMS: tuple[Param, ...] = tuple(param for param, _ in SETTINGS.values())

# name -> (lowest, highest) for the integer settings; a lowest of 1 is worded as the
# service words ``greater than 0``.
BOUNDS: dict[str, tuple[int, int]] = {
    **{
        name: (0, MAX_INT)
        for name in (
            "default_projects_limit",
            "max_import_size",
            "max_export_size",
            "two_factor_grace_period",
            "ci_max_includes",
            "max_pages_size",
        )
    },
    **{
        name: (1, MAX_INT)
        for name in (
            "max_attachment_size",
            "max_artifacts_size",
            "session_expire_delay",
            "max_yaml_size_bytes",
            "max_yaml_depth",
            "snippet_size_limit",
            "container_registry_token_expire_delay",
            "throttle_authenticated_api_requests_per_period",
            "throttle_authenticated_api_period_in_seconds",
            "throttle_unauthenticated_api_requests_per_period",
            "throttle_unauthenticated_api_period_in_seconds",
        )
    },
    "deletion_adjourned_period": (1, 90),
    "local_markdown_version": (0, 65535),
    "deactivate_dormant_users_period": (0, MAX_INT),
}
_TOKEN_PREFIX = re.compile(r"^[a-zA-Z0-9_+=/@:.-]+$")


def default_weights(storages: tuple[str, ...]) -> dict[str, int]:
    """The first storage takes every new repository (100), the others none (0)."""
    return {name: (100 if index == 0 else 0) for index, name in enumerate(storages)}


def current(store: Store) -> dict[str, Any]:
    """Every setting's value (defaults filled in), in declaration order."""
    record = instance(store)
    out: dict[str, Any] = {}
    for name, (_, default) in SETTINGS.items():
        value = record.settings.get(name, default)
        out[name] = list(value) if isinstance(value, list) else value
    if out["repository_storages_weighted"] is None:
        out["repository_storages_weighted"] = default_weights(record.storages)
    else:
        out["repository_storages_weighted"] = dict(out["repository_storages_weighted"])
    return out


def weights_errors(store: Store, weights: Any) -> list[str]:
    """The messages of an invalid ``repository_storages_weighted`` hash."""
    if not isinstance(weights, Mapping):
        return ["must be a hash of storage names to weights"]
    errors: list[str] = []
    unknown = [str(name) for name in weights if name not in instance(store).storages]
    if unknown:
        errors.append(f"can't include: {', '.join(unknown)}")
    for name, value in weights.items():
        if value is None or value == "":
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            errors.append(f"value for '{name}' must be an integer")
        elif not 0 <= value <= 100:
            errors.append(f"value for '{name}' must be between 0 and 100")
    return errors


def _coerced_weights(weights: Mapping[str, Any]) -> dict[str, Any]:
    """Form values arrive as text: integers in text become integers."""
    out: dict[str, Any] = {}
    for name, value in weights.items():
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value.strip())
        out[str(name)] = value
    return out


def model_errors(store: Store, changes: Mapping[str, Any]) -> dict[str, list[str]]:
    """Validation messages of ``changes`` by field (empty when valid)."""
    errors: dict[str, list[str]] = {}
    for name, (low, high) in BOUNDS.items():
        value = changes.get(name)
        if value is None:
            continue
        if value < low:
            wording = "greater than 0" if low == 1 else f"greater than or equal to {low}"
            errors.setdefault(name, []).append(f"must be {wording}")
        elif value > high:
            errors.setdefault(name, []).append(f"must be less than or equal to {high}")
    _rule_errors(store, changes, errors)
    if "repository_storages_weighted" in changes:
        found = weights_errors(store, changes["repository_storages_weighted"])
        if found:
            errors["repository_storages_weighted"] = found
    return errors


def _rule_errors(store: Store, changes: Mapping[str, Any], errors: dict[str, list[str]]) -> None:
    """The cross-field and format rules, on the settings as they would be after ``changes``."""
    after = {**current(store), **changes}

    def add(name: str, message: str) -> None:
        errors.setdefault(name, []).append(message)

    visibility = ("default_project_visibility", "default_group_visibility")
    if any(k in changes for k in (*visibility, "restricted_visibility_levels")):
        for name in visibility:
            if after[name] in (after["restricted_visibility_levels"] or []):
                add(name, "cannot be set to a restricted visibility level")
    path = changes.get("default_ci_config_path")
    if path:
        if ".." in path or path.startswith("/"):
            add("default_ci_config_path", "cannot include leading slash or directory traversal.")
        if len(path) > 255:
            add("default_ci_config_path", "is too long (maximum is 255 characters)")
    prefix = changes.get("personal_access_token_prefix")
    if prefix:
        if not _TOKEN_PREFIX.match(prefix):
            add(
                "personal_access_token_prefix",
                "can contain only letters of the Base64 alphabet (RFC4648) with the addition "
                "of '@', ':' and '.'",
            )
        if len(prefix) > 20:
            add("personal_access_token_prefix", "is too long (maximum is 20 characters)")
    if after["enforce_terms"] and not str(after["terms"] or "").strip():
        add("terms", "You need to set terms to be enforced")
    period = after["deactivate_dormant_users_period"]
    if after["deactivate_dormant_users"] and period is not None and period < 90:
        add(
            "deactivate_dormant_users_period",
            f"'{period}' days of inactivity must be greater than or equal to 90",
        )


def normalized(changes: Mapping[str, Any]) -> dict[str, Any]:
    """The declared settings among ``changes``, ready to validate and store."""
    out = {name: changes[name] for name in SETTINGS if name in changes}
    weights = out.get("repository_storages_weighted")
    if isinstance(weights, Mapping):
        out["repository_storages_weighted"] = _coerced_weights(weights)
    for name, (param, _) in SETTINGS.items():
        if name in out and out[name] is None and (param.type in (BOOL, INT) or param.values):
            del out[name]
    return out


def apply(store: Store, changes: Mapping[str, Any], now: dt.datetime) -> None:
    """Store validated ``changes`` (see :func:`model_errors`)."""
    record = instance(store)
    record.settings.update(changes)
    record.settings["updated_at"] = now


def preferred_storage(store: Store, exclude: str | None = None) -> str:
    """The storage new repositories go to: highest weight, ties by name; ``exclude`` is
    skipped while another storage has a weight above zero."""
    weights = current(store)["repository_storages_weighted"]
    names = instance(store).storages
    ranked = sorted(names, key=lambda name: (-int(weights.get(name) or 0), name))
    for name in ranked:
        if name != exclude and int(weights.get(name) or 0) > 0:
            return name
    for name in ranked:
        if name != exclude:
            return name
    return ranked[0]
