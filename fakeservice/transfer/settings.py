"""The project settings an export carries (``tree/project.json``) and how an import applies
them (and ``override_params``, which win over the archive's values)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fakeservice.projects.models import ACCESS_LEVEL_VALUES, FEATURES, Project

VISIBILITIES = ("private", "internal", "public")
# name -> the type its value must have (bool before int: a bool is an int in Python)
SETTINGS: dict[str, type | tuple[type, ...]] = {
    "description": (str, type(None)),
    "visibility": str,
    "default_branch": (str, type(None)),
    "topics": list,
    "ci_config_path": (str, type(None)),
    "build_timeout": int,
    "request_access_enabled": bool,
    "lfs_enabled": bool,
    "shared_runners_enabled": bool,
    "public_jobs": bool,
    "only_allow_merge_if_pipeline_succeeds": bool,
    "only_allow_merge_if_all_discussions_are_resolved": bool,
    "remove_source_branch_after_merge": bool,
    "merge_method": str,
    "squash_option": str,
    "auto_devops_enabled": bool,
    "emails_enabled": bool,
}


def dump(project: Project) -> dict[str, Any]:
    out: dict[str, Any] = {"name": project.name, "path": project.path}
    for name in SETTINGS:
        value = getattr(project, name)
        out[name] = list(value) if isinstance(value, list) else value
    out["features"] = dict(sorted(project.features.items()))
    return out


def _fits(name: str, value: Any) -> bool:
    kind = SETTINGS[name]
    if isinstance(value, bool) and kind is int:
        return False
    if not isinstance(value, kind):
        return False
    if name == "visibility":
        return value in VISIBILITIES
    if name == "topics":
        return all(isinstance(topic, str) for topic in value)
    return not (name == "build_timeout" and not 600 <= value <= 2_592_000)


def changes(data: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """The settings to set on the imported project: the archive's valid values, then the
    overrides (``override_params``) converted from form text where needed."""
    out = {name: data[name] for name in SETTINGS if name in data and _fits(name, data[name])}
    features = data.get("features")
    if isinstance(features, Mapping):
        out["features"] = {
            name: level
            for name, level in features.items()
            if name in FEATURES and level in ACCESS_LEVEL_VALUES
        }
    for name, value in overrides.items():
        if name not in SETTINGS or name == "default_branch":
            continue
        value = _from_text(SETTINGS[name], value)
        if _fits(name, value):
            out[name] = value
    return out


def _from_text(kind: type | tuple[type, ...], value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if kind is bool:
        return {"true": True, "false": False}.get(value.strip().lower(), value)
    if kind is int and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    if kind is list:
        return [part.strip() for part in value.split(",") if part.strip()]
    return value
