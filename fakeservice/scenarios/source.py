"""Reading scenarios: files, built-in names, YAML text or mappings, into a
:class:`ScenarioDocument` that keeps both the data and the YAML node tree (for lines).

A name that is not an existing path is looked up among the built-in scenarios
(``default``), with or without ``.yaml``. Mappings (from Python or JSON) are turned into
a node tree too, so one validator serves every source (their problems have no line).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import yaml

from fakeservice.scenarios.construct import construct
from fakeservice.scenarios.problems import Problem, ScenarioError

BUILTIN_DIR = Path(__file__).parent / "builtin"
MAX_DEPTH = 64  # far deeper than any scenario needs; deeper input is refused, not recursed
TOO_DEEP = f"the scenario nests deeper than {MAX_DEPTH} levels"


@attrs.frozen
class ScenarioDocument:
    data: dict[str, Any]
    node: yaml.Node | None
    file: str | None = None
    base_dir: Path = attrs.field(factory=Path.cwd)


def _too_deep(data: Any) -> bool:
    """Whether ``data`` nests deeper than :data:`MAX_DEPTH` (iterative: no recursion limit;
    a value reached twice, as through a YAML alias, is walked once)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    seen: set[int] = set()
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        if isinstance(value, dict | list) and id(value) not in seen:
            seen.add(id(value))
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return False


def builtin_names() -> list[str]:
    return sorted(path.stem for path in BUILTIN_DIR.glob("*.yaml"))


def find_file(ref: str | Path, relative_to: Path | None = None) -> Path:
    """The file ``ref`` names: a path (relative to ``relative_to``), or a built-in name."""
    path = Path(ref)
    candidates = [path] if path.is_absolute() or relative_to is None else [relative_to / path]
    if not path.is_absolute() and relative_to is not None:
        candidates.append(Path.cwd() / path)
    name = str(ref)
    candidates += [BUILTIN_DIR / name, BUILTIN_DIR / f"{name}.yaml"]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    known = ", ".join(builtin_names())
    raise ScenarioError(
        [Problem(f"no scenario file {name!r} (and no built-in scenario of that name: {known})")]
    )


# libyaml's loader when PyYAML has it (an order of magnitude faster on big scenarios)
_FAST: type[yaml.CSafeLoader] | None = getattr(yaml, "CSafeLoader", None)


def from_text(text: str, name: str = "<text>", base_dir: Path | None = None) -> ScenarioDocument:
    """Parse YAML text; a syntax error becomes a problem with its line.

    The fast way first: libyaml when PyYAML has it, the data built by
    :func:`~.construct.construct`. A text that fails there is parsed again by PyYAML's
    own loader and constructor, which judge it: problems keep their wording and lines,
    the same whether libyaml is there or not."""
    try:
        node, data = _composed(text, _FAST or yaml.SafeLoader, quick=True)
    except Exception:  # whatever the fast way refuses, the reference loader words
        node, data = _parsed(text, name)
    if _too_deep(data):
        raise ScenarioError([Problem(TOO_DEEP, file=name)])
    if data is None:
        data, node = {}, None
    if not isinstance(data, dict):
        raise ScenarioError(
            [Problem("a scenario must be a mapping at the top level", line=1, file=name)]
        )
    return ScenarioDocument(data, node, name, base_dir or Path.cwd())


def _composed(
    text: str, loader_class: type[yaml.SafeLoader | yaml.CSafeLoader], *, quick: bool
) -> Parsed:
    """The node tree and data of ``text``, built by :func:`~.construct.construct` when
    ``quick``, else by the loader's ``construct_document`` (raises what they raise)."""
    loader = loader_class(io.StringIO(text))
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        return node, construct(loader, node) if quick else loader.construct_document(node)
    finally:
        loader.dispose()


Parsed = tuple[yaml.Node | None, Any]


def _parsed(text: str, name: str) -> Parsed:
    """:func:`_composed` by PyYAML's own loader and constructor, its errors as problems."""
    try:
        return _composed(text, yaml.SafeLoader, quick=False)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        detail = exc.problem or exc.context or "invalid YAML"
        raise ScenarioError([Problem(f"not valid YAML: {detail}", line=line, file=name)]) from exc
    except (yaml.YAMLError, ValueError, OverflowError) as exc:  # a date such as 2024-13-45
        raise ScenarioError([Problem(f"not valid YAML: {exc}", file=name)]) from exc
    except RecursionError as exc:
        raise ScenarioError([Problem(TOO_DEEP, file=name)]) from exc


def from_file(path: str | Path) -> ScenarioDocument:
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(
            [Problem(f"cannot read the file: {exc.strerror}", file=str(file))]
        ) from exc
    except UnicodeDecodeError as exc:
        raise ScenarioError([Problem("the file is not UTF-8 text", file=str(file))]) from exc
    return from_text(text, name=str(file), base_dir=file.parent)


def from_mapping(data: Mapping[str, Any], name: str = "<data>") -> ScenarioDocument:
    plain = dict(data)
    if _too_deep(plain):
        raise ScenarioError([Problem(TOO_DEEP, file=name)])
    dumper = yaml.SafeDumper(io.StringIO())
    try:
        node = dumper.represent_data(plain)
    except yaml.representer.RepresenterError as exc:
        raise ScenarioError([Problem(f"not plain data: {exc}", file=name)]) from exc
    finally:
        dumper.dispose()
    return ScenarioDocument(plain, node, name)


def read(
    source: str | Path | Mapping[str, Any] | ScenarioDocument, relative_to: Path | None = None
) -> ScenarioDocument:
    """A document from any kind of source."""
    if isinstance(source, ScenarioDocument):
        return source
    if isinstance(source, Mapping):
        return from_mapping(source)
    return from_file(find_file(source, relative_to))
