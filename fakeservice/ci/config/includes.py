"""Expansion of ``include`` (local, project, artifact, remote, template, component) and
the ``includes`` records of the lint answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import attrs
import yaml

from .errors import _ConfigError
from .expressions import _valid_expression, evaluate_expression
from .values import _plain, _scalar_text, _stringify_keys, deep_merge
from .vocabulary import (
    INCLUDE_ACCESSORS,
    INCLUDE_EXTRA_KEYS,
    MAX_INCLUDE_DEPTH,
    MAX_INCLUDES,
    ArtifactReader,
    LocalReader,
    ProjectReader,
)
from .yaml_loader import _load_yaml, _too_big


@attrs.frozen(slots=True)
class _Source:
    kind: str  # local, project, remote, template, component, artifact
    location: str
    project: str | None = None
    ref: str | None = None
    job: str | None = None
    rules: Any = None

    @property
    def identity(self) -> tuple[str, str, str | None, str | None]:
        return (self.kind, self.location.lstrip("/"), self.project, self.ref)


class _Includer:
    """Expands ``include`` recursively; records what was included for the lint answer."""

    def __init__(
        self,
        *,
        read_local: LocalReader | None,
        read_project: ProjectReader | None,
        read_artifact: ArtifactReader | None,
        project_path: str | None,
        sha: str | None,
        project_url: str | None,
        variables: Mapping[str, str] | None,
    ) -> None:
        self.read_local = read_local
        self.read_project = read_project
        self.read_artifact = read_artifact
        self.project_path = project_path
        self.sha = sha
        self.project_url = project_url
        self.variables = variables
        self.records: list[dict[str, Any]] = []
        self.seen: set[tuple[str, str, str | None, str | None]] = set()

    def expand(
        self, data: dict[str, Any], depth: int = 0, within: tuple[str, str | None] | None = None
    ) -> dict[str, Any]:
        if "include" not in data:
            return data
        raw = data["include"]
        rest = {k: v for k, v in data.items() if k != "include"}
        items = [] if raw is None else raw if isinstance(raw, list) else [raw]
        merged: dict[str, Any] = {}
        for item in items:
            for source in self._sources(item, within):
                if not self._included(source):
                    continue
                if source.identity in self.seen:
                    continue
                self.seen.add(source.identity)
                if len(self.seen) > MAX_INCLUDES:
                    raise _ConfigError(f"Maximum of {MAX_INCLUDES} nested includes are allowed!")
                if depth >= MAX_INCLUDE_DEPTH:
                    raise _ConfigError(
                        f"Maximum of {MAX_INCLUDE_DEPTH} nested includes are allowed!"
                    )
                loaded = self._load(source)
                self.records.append(self._record(source))
                nested_within = (source.project, source.ref) if source.project else within
                merged = deep_merge(merged, self.expand(loaded, depth + 1, nested_within))
        return deep_merge(merged, rest)

    def _included(self, source: _Source) -> bool:
        if not source.rules or self.variables is None or not isinstance(source.rules, list):
            return True
        for raw in source.rules:
            if not isinstance(raw, dict):
                continue
            condition = raw.get("if")
            if condition is not None and not (
                _valid_expression(condition) and evaluate_expression(condition, self.variables)
            ):
                continue
            return raw.get("when", "always") != "never"
        return False

    def _sources(self, item: Any, within: tuple[str, str | None] | None) -> list[_Source]:
        if isinstance(item, str):
            if re.match(r"https?://", item):
                return [_Source("remote", item)]
            return [self._local(item, within)]
        if isinstance(item, dict):
            accessors = [k for k in item if k in INCLUDE_ACCESSORS]
            unknown = [k for k in item if k not in INCLUDE_ACCESSORS + INCLUDE_EXTRA_KEYS]
            if len(accessors) != 1 or unknown:
                raise _ConfigError(
                    f"Include `{_ruby_json(item)}` needs to match exactly one accessor!"
                )
            accessor = accessors[0]
            rules = item.get("rules")
            if accessor == "local":
                source = self._local(_scalar_text(item["local"]), within)
                return [attrs.evolve(source, rules=rules)]
            if accessor == "project":
                files = item.get("file")
                names = files if isinstance(files, list) else [files]
                ref = None if item.get("ref") is None else _scalar_text(item["ref"])
                return [
                    _Source(
                        "project",
                        _scalar_text(name),
                        _scalar_text(item["project"]),
                        ref,
                        rules=rules,
                    )
                    for name in names
                ]
            if accessor == "artifact":
                return [
                    _Source(
                        "artifact",
                        _scalar_text(item["artifact"]),
                        job=_scalar_text(item.get("job")),
                    )
                ]
            return [_Source(accessor, _scalar_text(item[accessor]), rules=rules)]
        raise _ConfigError(f"Include `{_ruby_json(item)}` needs to match exactly one accessor!")

    @staticmethod
    def _local(location: str, within: tuple[str, str | None] | None) -> _Source:
        if within is not None:
            return _Source("project", location, within[0], within[1])
        return _Source("local", location)

    def _load(self, source: _Source) -> dict[str, Any]:
        if source.kind in ("local", "project", "artifact") and not source.location.endswith(
            (".yml", ".yaml")
        ):
            raise _ConfigError(f"Included file `{source.location}` does not have YAML extension!")
        content = self._fetch(source)
        try:
            loaded = _load_yaml(content)
        except yaml.YAMLError:
            loaded = None
        if not isinstance(loaded, dict) or not loaded or _too_big(loaded):
            raise _ConfigError(
                f"Included file `{source.location}` does not have valid YAML syntax!"
            )
        return _stringify_keys(loaded)

    def _fetch(self, source: _Source) -> str:
        path = source.location.lstrip("/")
        if source.kind == "local":
            if self.read_local is None:
                raise _ConfigError(f"Local file `{source.location}` does not have project!")
            content = self.read_local(path)
            if content is None:
                raise _ConfigError(f"Local file `{source.location}` does not exist!")
            if not content.strip():
                raise _ConfigError(f"Local file `{source.location}` is empty!")
            return content
        if source.kind == "project":
            project = source.project or ""
            if self.read_project is None:
                raise _ConfigError(
                    f"Project `{project}` not found or access denied! Make sure any includes "
                    "in the pipeline configuration are correctly defined."
                )
            content = self.read_project(project, source.ref, path)
            if content is None:
                raise _ConfigError(f"Project `{project}` file `{source.location}` does not exist!")
            if not content.strip():
                raise _ConfigError(f"Project `{project}` file `{source.location}` is empty!")
            return content
        if source.kind == "artifact":
            content = None
            if self.read_artifact is not None:
                content = self.read_artifact(source.job or "", path)
            if content is None:
                raise _ConfigError(
                    f"Job `{source.job}` not found in parent pipeline or does not have artifacts!"
                )
            return content
        if source.kind == "remote":
            raise _ConfigError(
                f"Remote file `{source.location}` could not be fetched because of a socket error!"
            )
        if source.kind == "template":
            raise _ConfigError(f"Template file `{source.location}` is not a valid location!")
        raise _ConfigError(f"Component '{source.location}' - content not found")

    def _record(self, source: _Source) -> dict[str, Any]:
        path = source.location.lstrip("/")
        blob = raw = None
        extra: dict[str, Any] = {}
        kind = source.kind
        if source.kind == "local" and self.project_url and self.sha:
            blob = f"{self.project_url}/-/blob/{self.sha}/{path}"
            raw = f"{self.project_url}/-/raw/{self.sha}/{path}"
        elif source.kind == "project":
            kind = "file"
            extra = {"project": source.project, "ref": source.ref or "HEAD"}
        elif source.kind == "remote":
            raw = source.location
        elif source.kind == "artifact":
            extra = {"job_name": source.job}
        return {
            "type": kind,
            "location": source.location,
            "blob": blob,
            "raw": raw,
            "extra": extra,
            "context_project": self.project_path,
            "context_sha": self.sha,
        }


def _ruby_json(value: Any) -> str:
    return json.dumps(_plain(value), separators=(",", ":"), default=str)
