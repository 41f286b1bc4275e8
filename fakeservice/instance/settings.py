"""Application settings (``GET``/``PUT /application/settings``): the documented subset the
fake keeps, declared once with their types and defaults, and the model validation of an
update (every message as the real service words it, ``{"message": {field: [...]}}``).

``repository_storages_weighted`` maps storage names to weights from 0 to 100; only the
instance's declared storages may appear (``can't include: <names>``). New projects go to
the storage with the highest weight (ties by name).
"""

from __future__ import annotations

import datetime as dt
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

# name -> (lowest, highest) for the integer settings.
BOUNDS: dict[str, tuple[int, int]] = {
    "default_projects_limit": (0, MAX_INT),
    "max_attachment_size": (1, MAX_INT),
    "max_import_size": (0, MAX_INT),
    "max_export_size": (0, MAX_INT),
    "max_artifacts_size": (1, MAX_INT),
    "session_expire_delay": (1, MAX_INT),
}


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
            errors.setdefault(name, []).append(f"must be greater than or equal to {low}")
        elif value > high:
            errors.setdefault(name, []).append(f"must be less than or equal to {high}")
    if "repository_storages_weighted" in changes:
        found = weights_errors(store, changes["repository_storages_weighted"])
        if found:
            errors["repository_storages_weighted"] = found
    return errors


def normalized(changes: Mapping[str, Any]) -> dict[str, Any]:
    """The declared settings among ``changes``, ready to validate and store."""
    out = {name: changes[name] for name in SETTINGS if name in changes}
    weights = out.get("repository_storages_weighted")
    if isinstance(weights, Mapping):
        out["repository_storages_weighted"] = _coerced_weights(weights)
    for name in ("default_projects_limit",):
        if name in out and out[name] is None:
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
