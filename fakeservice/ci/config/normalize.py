"""Normalisation of a valid configuration's visible jobs into :class:`JobDef` records:
``default:``, legacy globals, ``inherit``, variables, rules, ``parallel`` expansion.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

import attrs

from .durations import parse_duration, parse_expire_in
from .records import ArtifactsSpec, EnvironmentSpec, JobDef, Need, RetrySpec, Rule, TriggerSpec
from .validate import _job_kind
from .values import _commands, _flatten, _scalar_text
from .vocabulary import (
    DEFAULT_ARTIFACTS_EXPIRE_IN,
    DEFAULT_ONLY,
    DEFAULT_STAGE,
    LEGACY_GLOBALS,
    ROOT_KEYS,
)


def _variables(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    result: dict[str, str] = {}
    for key, item in value.items():
        if isinstance(item, dict):
            result[key] = _scalar_text(item.get("value"))
        else:
            result[key] = _scalar_text(item)
    return result


def _needs(value: Any) -> tuple[Need, ...] | None:
    if value is None:
        return None
    items = value if isinstance(value, list) else [value]
    needs: list[Need] = []
    for item in items:
        if isinstance(item, str):
            needs.append(Need(item))
        elif isinstance(item, dict) and "job" in item:
            needs.append(
                Need(
                    _scalar_text(item["job"]),
                    artifacts=item.get("artifacts", True) is not False,
                    optional=item.get("optional", False) is True,
                )
            )
    return tuple(needs)


def _rules(value: Any) -> tuple[Rule, ...] | None:
    if value is None:
        return None
    rules: list[Rule] = []
    for raw in _flatten(value):
        if not isinstance(raw, dict):
            continue
        exists = raw.get("exists")
        if isinstance(exists, dict):
            exists = exists.get("paths")
        start_in = raw.get("start_in")
        rules.append(
            Rule(
                if_=raw.get("if"),
                changes="changes" in raw,
                exists=None if exists is None else tuple(_flatten(exists)),
                when=raw.get("when"),
                allow_failure=raw.get("allow_failure"),
                variables=_variables(raw.get("variables")),
                needs=_needs(raw["needs"]) if "needs" in raw else None,
                start_in=parse_duration(start_in) if start_in is not None else None,
                interruptible=raw.get("interruptible"),
                keys=tuple(raw),
            )
        )
    return tuple(rules)


def _policy(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if isinstance(value, list):
        return {"refs": list(value)}
    if isinstance(value, dict):
        return {k: list(v) if isinstance(v, list) else v for k, v in value.items()}
    return None


def _artifacts(value: Any) -> ArtifactsSpec | None:
    if not isinstance(value, dict):
        return None
    expire_in = value.get("expire_in")
    reports: dict[str, tuple[str, ...]] = {}
    for kind, paths in (value.get("reports") or {}).items():
        if isinstance(paths, str):
            reports[kind] = (paths,)
        elif isinstance(paths, list):
            reports[kind] = tuple(str(p) for p in paths)
        elif isinstance(paths, dict) and "path" in paths:
            reports[kind] = (str(paths["path"]),)
    return ArtifactsSpec(
        paths=tuple(value.get("paths") or ()),
        exclude=tuple(value.get("exclude") or ()),
        name=None if value.get("name") is None else _scalar_text(value["name"]),
        untracked=value.get("untracked") is True,
        when=value.get("when") or "on_success",
        expire_in=None if expire_in is None else _scalar_text(expire_in),
        expire_in_seconds=(
            DEFAULT_ARTIFACTS_EXPIRE_IN if expire_in is None else parse_expire_in(expire_in)
        ),
        reports=reports,
        expose_as=value.get("expose_as"),
        public=value.get("public", True) is not False,
    )


def _environment(value: Any) -> EnvironmentSpec | None:
    if isinstance(value, str):
        return EnvironmentSpec(value)
    if isinstance(value, dict) and value.get("name"):
        return EnvironmentSpec(
            _scalar_text(value["name"]),
            url=value.get("url"),
            action=value.get("action") or "start",
            on_stop=value.get("on_stop"),
            deployment_tier=value.get("deployment_tier"),
        )
    return None


def _retry(value: Any) -> RetrySpec | None:
    if value is None:
        return None
    if isinstance(value, dict):
        when = value.get("when", "always")
        codes = value.get("exit_codes") or ()
        return RetrySpec(
            int(value.get("max", 0)),
            tuple(when if isinstance(when, list) else [when]),
            tuple(codes if isinstance(codes, list) else [codes]),
        )
    return RetrySpec(int(value))


def _trigger(value: Any) -> TriggerSpec | None:
    if isinstance(value, str):
        return TriggerSpec(project=value)
    if not isinstance(value, dict):
        return None
    include = value.get("include")
    items: list[dict[str, Any]] = []
    for item in [] if include is None else include if isinstance(include, list) else [include]:
        items.append({"local": item} if isinstance(item, str) else dict(item))
    return TriggerSpec(
        project=value.get("project"),
        branch=value.get("branch"),
        strategy=value.get("strategy"),
        include=tuple(items),
        forward=dict(value.get("forward") or {}),
    )


def _image(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("name")
    return None if value is None else _scalar_text(value)


def _services(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(n for n in (_image(v) for v in value) if n is not None)


def _allowed(setting: Any, key: str) -> bool:
    if isinstance(setting, list):
        return key in setting
    return setting is not False


def _parallel_variants(
    name: str, value: Any
) -> list[tuple[str, dict[str, str], tuple[int, int] | None]]:
    """``(job name, extra variables, (index, total))`` for each job ``parallel`` makes."""
    parallel = value.get("parallel")
    if isinstance(parallel, int) and not isinstance(parallel, bool):
        return [(f"{name} {i}/{parallel}", {}, (i, parallel)) for i in range(1, parallel + 1)]
    if isinstance(parallel, dict) and isinstance(parallel.get("matrix"), list):
        variants: list[tuple[str, dict[str, str], tuple[int, int] | None]] = []
        for entry in parallel["matrix"]:
            keys = list(entry)
            choices = [v if isinstance(v, list) else [v] for v in entry.values()]
            for combination in itertools.product(*choices):
                values = [_scalar_text(v) for v in combination]
                variants.append(
                    (f"{name}: [{', '.join(values)}]", dict(zip(keys, values, strict=True)), None)
                )
        total = len(variants)
        return [(n, v, (i, total)) for i, (n, v, _) in enumerate(variants, start=1)]
    return [(name, {}, None)]


def _expand_names(
    names: tuple[str, ...] | None, groups: Mapping[str, list[str]]
) -> tuple[str, ...] | None:
    if names is None:
        return None
    return tuple(expanded for name in names for expanded in groups.get(name, [name]))


def _expand_needs(
    needs: tuple[Need, ...] | None, groups: Mapping[str, list[str]]
) -> tuple[Need, ...] | None:
    if needs is None:
        return None
    return tuple(
        attrs.evolve(need, name=expanded)
        for need in needs
        for expanded in groups.get(need.name, [need.name])
    )


def _normalize(
    config: dict[str, Any], stages: tuple[str, ...], has_workflow_rules: bool
) -> list[JobDef]:
    defaults: dict[str, Any] = {k: config[k] for k in LEGACY_GLOBALS if config.get(k) is not None}
    if isinstance(config.get("default"), dict):
        defaults.update({k: v for k, v in config["default"].items() if v is not None})
    global_variables = _variables(config.get("variables"))
    visible = [
        (name, value)
        for name, value in config.items()
        if name not in ROOT_KEYS and _job_kind(name, value) in ("build", "bridge")
    ]
    groups: dict[str, list[str]] = {}
    for name, value in visible:
        if value.get("parallel") is not None:
            groups[name] = [variant for variant, _, _ in _parallel_variants(name, value)]
    jobs: list[JobDef] = []
    for name, value in visible:
        kind = _job_kind(name, value) or "build"
        inherit = value.get("inherit") if isinstance(value.get("inherit"), dict) else {}
        inherit_default = inherit.get("default", True)
        inherit_variables = inherit.get("variables", True)

        def inherited(
            key: str, value: dict[str, Any] = value, setting: Any = inherit_default
        ) -> Any:
            if key in value:
                return value[key]
            return defaults.get(key) if _allowed(setting, key) else None

        when = value.get("when") or "on_success"
        raw_af = value.get("allow_failure")
        if isinstance(raw_af, bool):
            allow_failure, exit_codes = raw_af, ()
        elif isinstance(raw_af, dict):
            codes = raw_af.get("exit_codes")
            allow_failure, exit_codes = False, tuple(codes if isinstance(codes, list) else [codes])
        else:
            allow_failure, exit_codes = when == "manual", ()
        rules = _rules(value.get("rules"))
        if rules is not None or has_workflow_rules:
            only, except_ = _policy(value.get("only")), _policy(value.get("except"))
        else:
            only = _policy(value.get("only")) or {"refs": list(DEFAULT_ONLY["refs"])}
            except_ = _policy(value.get("except"))
        inherited_vars = {
            k: v for k, v in global_variables.items() if _allowed(inherit_variables, k)
        }
        stage = value.get("stage") or DEFAULT_STAGE
        timeout = inherited("timeout")
        start_in = value.get("start_in")
        for job_name, matrix_vars, parallel in _parallel_variants(name, value):
            jobs.append(
                JobDef(
                    name=job_name,
                    kind=kind,
                    stage=stage,
                    stage_idx=stages.index(stage) if stage in stages else -1,
                    index=len(jobs),
                    when=when,
                    allow_failure=allow_failure,
                    allow_failure_exit_codes=exit_codes,
                    script=_commands(value.get("script")) if kind == "build" else (),
                    before_script=_commands(inherited("before_script")) if kind == "build" else (),
                    after_script=_commands(inherited("after_script")) if kind == "build" else (),
                    tags=tuple(inherited("tags") or ()) if kind == "build" else (),
                    image=_image(inherited("image")) if kind == "build" else None,
                    services=_services(inherited("services")) if kind == "build" else (),
                    variables={**_variables(value.get("variables")), **matrix_vars},
                    inherited_variables=inherited_vars,
                    rules=rules,
                    only=only,
                    except_=except_,
                    needs=_expand_needs(_needs(value.get("needs")), groups)
                    if "needs" in value
                    else None,
                    dependencies=_expand_names(
                        None if value.get("dependencies") is None else tuple(value["dependencies"]),
                        groups,
                    ),
                    artifacts=_artifacts(inherited("artifacts")) if kind == "build" else None,
                    environment=_environment(value.get("environment")),
                    coverage=_coverage(value.get("coverage")),
                    retry=_retry(inherited("retry")) if kind == "build" else None,
                    timeout=None if timeout is None else parse_duration(timeout),
                    start_in=parse_duration(start_in) if when == "delayed" and start_in else None,
                    trigger=_trigger(value.get("trigger")) if kind == "bridge" else None,
                    interruptible=inherited("interruptible"),
                    resource_group=value.get("resource_group"),
                    parallel=parallel,
                    group=name,
                )
            )
    return jobs


def _coverage(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    match = re.fullmatch(r"/(.*)/[ismU]*", value, re.DOTALL)
    return match.group(1) if match else value
