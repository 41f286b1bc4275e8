"""A small schema language for YAML documents, checked on composed nodes (so every
problem keeps its line) and able to describe itself as Markdown.

Kinds: scalars (:data:`STR`, :data:`INT`, :data:`NUM`, :data:`BOOL`, :data:`TIME`,
:data:`DATE`, :class:`Choice`, :class:`Range`), :class:`ListOf`, :class:`MapOf` (free
keys), :class:`Record` (known keys, with rules such as "exactly one of"),
:class:`Variant` (a record chosen by a key it contains), :class:`OneOf` and
:class:`Nullable`. A :class:`Record` may take extra fields from a callable, which is how
areas plug their sections in.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs
import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from fakeservice.scenarios.problems import Problem, line_of

TAG = "tag:yaml.org,2002:"
STR_TAG, INT_TAG, FLOAT_TAG = TAG + "str", TAG + "int", TAG + "float"
BOOL_TAG, NULL_TAG, TIME_TAG = TAG + "bool", TAG + "null", TAG + "timestamp"
NUMBER_TAGS = frozenset({INT_TAG, FLOAT_TAG})

Out = list[Problem]


def value_of(node: yaml.Node) -> Any:
    """The Python value of a node (safe constructors only)."""
    try:
        return SafeConstructor().construct_object(node, deep=True)
    except (ConstructorError, ValueError):
        return node.value if isinstance(node, yaml.ScalarNode) else None


def describe_node(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    names = {
        STR_TAG: "a string",
        INT_TAG: "an integer",
        FLOAT_TAG: "a number",
        BOOL_TAG: "a boolean",
        NULL_TAG: "nothing (null)",
        TIME_TAG: "a timestamp",
    }
    return names.get(node.tag, "a value")


def problem(out: Out, node: yaml.Node | None, where: str, message: str) -> None:
    out.append(Problem(message=message, where=where, line=line_of(node)))


def join(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


class Kind:
    """Something a node may be; ``label`` names it in messages and docs."""

    label = "a value"

    def check(self, node: yaml.Node, where: str, out: Out) -> None:
        raise TypeError(f"{type(self).__name__} cannot check")

    def fits(self, node: yaml.Node) -> bool:
        """Whether the node has this kind's shape (its value may still be wrong)."""
        return True

    def children(self) -> Iterable[Kind]:
        """The kinds nested in this one (for walking the schema)."""
        return ()


@attrs.frozen
class Scalar(Kind):
    label: str
    tags: frozenset[str]
    parse: Callable[[Any], Any] | None = None

    def fits(self, node: yaml.Node) -> bool:
        return isinstance(node, yaml.ScalarNode) and node.tag in self.tags

    def check(self, node: yaml.Node, where: str, out: Out) -> None:
        if not self.fits(node):
            problem(out, node, where, f"expected {self.label}, got {describe_node(node)}")
            return
        if self.parse is not None:
            try:
                self.parse(value_of(node))
            except (TypeError, ValueError):
                problem(out, node, where, f"expected {self.label}, got {node.value!r}")


def _iso_time(value: Any) -> None:
    if isinstance(value, dt.date):
        return
    from fakeservice.core.clock import parse_iso

    parse_iso(str(value))


def _iso_date(value: Any) -> None:
    if isinstance(value, dt.date):
        return
    dt.date.fromisoformat(str(value))


class IdRef(Kind):
    """A record id (an integer, 1 or more) or a string holding one or a ``${variable}``."""

    label = "an id or a ${variable}"

    def fits(self, node: yaml.Node) -> bool:
        return isinstance(node, yaml.ScalarNode) and node.tag in (INT_TAG, STR_TAG)

    def check(self, node: yaml.Node, where: str, out: Out) -> None:
        if not self.fits(node):
            problem(out, node, where, f"expected {self.label}, got {describe_node(node)}")
            return
        text = str(node.value).strip()
        if node.tag == STR_TAG and "${" in text:
            return
        if not text.isdigit() or int(text) < 1:
            problem(out, node, where, f"must be {self.label} (got {node.value!r})")


class AnyKind(Kind):
    label = "any value"

    def check(self, node: yaml.Node, where: str, out: Out) -> None:
        return None


STR = Scalar("a string", frozenset({STR_TAG, INT_TAG, FLOAT_TAG}))
INT = Scalar("an integer", frozenset({INT_TAG}))
NUM = Scalar("a number", NUMBER_TAGS)
BOOL = Scalar("true or false", frozenset({BOOL_TAG}))
TIME = Scalar("an ISO 8601 time", frozenset({STR_TAG, TIME_TAG}), _iso_time)
DATE = Scalar("a date (YYYY-MM-DD)", frozenset({STR_TAG, TIME_TAG}), _iso_date)
ANY = AnyKind()
ID_REF = IdRef()


@attrs.frozen
class Range(Kind):
    """A number (``integer=True``: an integer) within bounds; ``above=True`` excludes the
    minimum itself (``a number above 0``)."""

    minimum: float | None = None
    maximum: float | None = None
    integer: bool = True
    above: bool = False

    @property
    def label(self) -> str:  # type: ignore[override]
        base = "an integer" if self.integer else "a number"
        if self.minimum is not None and self.above:
            return f"{base} above {self.minimum:g}"
        if self.minimum is not None and self.maximum is not None:
            return f"{base} from {self.minimum:g} to {self.maximum:g}"
        if self.minimum is not None:
            return f"{base}, {self.minimum:g} or more"
        return base

    def fits(self, node: yaml.Node) -> bool:
        return (INT if self.integer else NUM).fits(node)

    def check(self, node: yaml.Node, where: str, out: Out) -> None:
        base = INT if self.integer else NUM
        before = len(out)
        base.check(node, where, out)
        if len(out) != before:
            return
        value = value_of(node)
        low = self.minimum is not None and (
            value <= self.minimum if self.above else value < self.minimum
        )
        high = self.maximum is not None and value > self.maximum
        if low or high:
            problem(out, node, where, f"must be {self.label} (got {node.value})")


@attrs.frozen
class Choice(Kind):
    values: tuple[str, ...]
    case_sensitive: bool = False

    @property
    def label(self) -> str:  # type: ignore[override]
        return "one of " + ", ".join(self.values)

    def fits(self, node: yaml.Node) -> bool:
        return STR.fits(node)

    def check(self, node: yaml.Node, where: str, out: Out) -> None:
        if not self.fits(node):
            problem(out, node, where, f"expected {self.label}, got {describe_node(node)}")
            return
        value = str(node.value)
        pool = self.values if self.case_sensitive else tuple(v.lower() for v in self.values)
        if (value if self.case_sensitive else value.lower()) not in pool:
            hint = _suggest(value, self.values)
            problem(out, node, where, f"must be {self.label} (got {value!r}){hint}")


@attrs.frozen
class Nullable(Kind):
    inner: Kind

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"{self.inner.label}, or null"

    def fits(self, node: yaml.Node) -> bool:
        is_null = isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG
        return is_null or self.inner.fits(node)

    def check(self, node: yaml.Node, where: str, out: Out) -> None:
        if isinstance(node, yaml.ScalarNode) and node.tag == NULL_TAG:
            return
        self.inner.check(node, where, out)

    def children(self) -> Iterable[Kind]:
        return (self.inner,)


@attrs.frozen
class OneOf(Kind):
    """The first alternative whose shape fits decides; its problems are reported."""

    options: tuple[Kind, ...]

    @property
    def label(self) -> str:  # type: ignore[override]
        return " or ".join(option.label for option in self.options)

    def fits(self, node: yaml.Node) -> bool:
        return any(option.fits(node) for option in self.options)

    def check(self, node: yaml.Node, where: str, out: Out) -> None:
        for option in self.options:
            if option.fits(node):
                option.check(node, where, out)
                return
        problem(out, node, where, f"expected {self.label}, got {describe_node(node)}")

    def children(self) -> Iterable[Kind]:
        return self.options


@attrs.frozen
class ListOf(Kind):
    item: Kind

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"a list of {_plural(self.item)}"

    def fits(self, node: yaml.Node) -> bool:
        return isinstance(node, yaml.SequenceNode)

    def check(self, node: yaml.Node, where: str, out: Out) -> None:
        if not isinstance(node, yaml.SequenceNode):
            problem(out, node, where, f"expected {self.label}, got {describe_node(node)}")
            return
        for index, child in enumerate(node.value):
            self.item.check(child, join(where, index), out)

    def children(self) -> Iterable[Kind]:
        return (self.item,)


@attrs.frozen
class MapOf(Kind):
    """A mapping with free keys (``keys``, when given, limits them) and values of one kind."""

    value: Kind
    keys: tuple[str, ...] | None = None

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"a mapping of {_plural(self.value)}"

    def fits(self, node: yaml.Node) -> bool:
        return isinstance(node, yaml.MappingNode)

    def check(self, node: yaml.Node, where: str, out: Out) -> None:
        if not isinstance(node, yaml.MappingNode):
            problem(out, node, where, f"expected {self.label}, got {describe_node(node)}")
            return
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if self.keys is not None and key not in self.keys:
                problem(out, key_node, where, f"unknown key {key!r}{_suggest(key, self.keys)}")
                continue
            self.value.check(value_node, join(where, key), out)

    def children(self) -> Iterable[Kind]:
        return (self.value,)


@attrs.frozen
class Field:
    kind: Kind
    doc: str = ""
    required: bool = False


Rule = Callable[[dict[str, yaml.Node], yaml.MappingNode, str, Out], None]


@attrs.define(eq=False)
class Record(Kind):
    """A mapping with known keys. ``extra()`` adds fields registered at run time."""

    name: str
    fields: dict[str, Field]
    doc: str = ""
    rules: Sequence[Rule] = ()
    extra: Callable[[], dict[str, Field]] | None = None

    @property
    def label(self) -> str:  # type: ignore[override]
        article = "an" if self.name[:1].lower() in "aeiou" else "a"
        return f"{article} {self.name} mapping"

    def fits(self, node: yaml.Node) -> bool:
        return isinstance(node, yaml.MappingNode)

    def all_fields(self) -> dict[str, Field]:
        if self.extra is None:
            return self.fields
        return {**self.fields, **self.extra()}

    def check(self, node: yaml.Node, where: str, out: Out) -> None:
        if not isinstance(node, yaml.MappingNode):
            problem(out, node, where, f"expected {self.label}, got {describe_node(node)}")
            return
        # the registered fields are looked up beside the record's own (they win, as in
        # all_fields) rather than merged with them for every mapping checked
        extra = self.extra() if self.extra is not None else {}
        own = self.fields
        given: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key in given:
                problem(out, key_node, join(where, key), f"key {key!r} appears twice")
                continue
            given[key] = value_node
            field = extra.get(key) or own.get(key)
            if field is None:
                fields = self.all_fields()
                hint = _suggest_nested(key, fields) or _suggest(key, list(fields))
                problem(out, key_node, join(where, key), f"unknown key {key!r}{hint}")
                continue
            field.kind.check(value_node, join(where, key), out)
        for key, field in own.items():  # in all_fields' order: own keys, then extra ones
            if key not in given and extra.get(key, field).required:
                problem(out, node, where, f"{key} is required")
        for key, field in extra.items():
            if field.required and key not in given and key not in own:
                problem(out, node, where, f"{key} is required")
        for rule in self.rules:
            rule(given, node, where, out)

    def children(self) -> Iterable[Kind]:
        return [field.kind for field in self.all_fields().values()]


@attrs.define(eq=False)
class Variant(Kind):
    """A record chosen by a key the mapping contains (``generate`` -> generated users)."""

    choices: list[tuple[str, Record]]
    default: Record

    @property
    def label(self) -> str:  # type: ignore[override]
        return self.default.label

    def fits(self, node: yaml.Node) -> bool:
        return isinstance(node, yaml.MappingNode)

    def check(self, node: yaml.Node, where: str, out: Out) -> None:
        if isinstance(node, yaml.MappingNode):
            keys = {str(k.value) for k, _ in node.value}
            for key, record in self.choices:
                if key in keys:
                    record.check(node, where, out)
                    return
        self.default.check(node, where, out)

    def children(self) -> Iterable[Kind]:
        return [self.default, *(record for _, record in self.choices)]


# -- rules ---------------------------------------------------------------------------------
def exactly_one(*names: str, what: str = "one of") -> Rule:
    def rule(given: dict[str, yaml.Node], node: yaml.MappingNode, where: str, out: Out) -> None:
        present = [n for n in names if n in given]
        if len(present) != 1:
            got = f" (got {', '.join(present)})" if present else ""
            problem(out, node, where, f"needs exactly {what} {', '.join(names)}{got}")

    return rule


def at_least_one(*names: str) -> Rule:
    def rule(given: dict[str, yaml.Node], node: yaml.MappingNode, where: str, out: Out) -> None:
        if not any(n in given for n in names):
            problem(out, node, where, f"needs at least one of {', '.join(names)}")

    return rule


def exclusive(*names: str) -> Rule:
    def rule(given: dict[str, yaml.Node], node: yaml.MappingNode, where: str, out: Out) -> None:
        present = [n for n in names if n in given]
        if len(present) > 1:
            problem(out, node, where, f"{', '.join(present)} cannot be used together")

    return rule


def only_with(name: str, *dependents: str) -> Rule:
    def rule(given: dict[str, yaml.Node], node: yaml.MappingNode, where: str, out: Out) -> None:
        if name in given:
            return
        for dependent in dependents:
            if dependent in given:
                problem(out, given[dependent], join(where, dependent), f"only used with {name}")

    return rule


def all_or_none(*names: str) -> Rule:
    def rule(given: dict[str, yaml.Node], node: yaml.MappingNode, where: str, out: Out) -> None:
        present = [n for n in names if n in given]
        if present and len(present) != len(names):
            problem(out, node, where, f"{', '.join(names)} go together")

    return rule


# -- helpers -------------------------------------------------------------------------------
MAX_NESTED_DEPTH = 2
MAX_NESTED_HINTS = 3


def _suggest(word: str, options: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _mappings_in(kind: Kind) -> list[Record]:
    """The records a value of ``kind`` may directly be (not inside lists or maps)."""
    if isinstance(kind, Record):
        return [kind]
    if isinstance(kind, Nullable):
        return _mappings_in(kind.inner)
    if isinstance(kind, OneOf):
        return [record for option in kind.options for record in _mappings_in(option)]
    if isinstance(kind, Variant):
        return [kind.default, *(record for _, record in kind.choices)]
    return []


def nested_paths(key: str, fields: dict[str, Field]) -> list[str]:
    """Dotted paths below ``fields`` whose last key is ``key`` (``ci.pipelines`` for
    ``pipelines`` on a project), the shallowest ones, sorted."""
    level: list[tuple[str, dict[str, Field]]] = [("", fields)]
    for _ in range(MAX_NESTED_DEPTH):
        found: set[str] = set()
        below: list[tuple[str, dict[str, Field]]] = []
        for prefix, known in level:
            for name, field in known.items():
                for record in _mappings_in(field.kind):
                    inner = record.all_fields()
                    path = f"{prefix}{name}."
                    if key in inner:
                        found.add(path + key)
                    below.append((path, inner))
        if found:
            return sorted(found)
        level = below
    return []


def _suggest_nested(word: str, fields: dict[str, Field]) -> str:
    paths = nested_paths(word, fields)[:MAX_NESTED_HINTS]
    if not paths:
        return ""
    quoted = [repr(path) for path in paths]
    listed = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return f" (did you mean {listed}?)"


def _plural(kind: Kind) -> str:
    """The label of several values of ``kind`` (``integers from 1 to 5``, ``user mappings``)."""
    if isinstance(kind, OneOf):
        return " or ".join(_plural(option) for option in kind.options)
    if isinstance(kind, Nullable):
        return f"{_plural(kind.inner)}, or nulls"
    if isinstance(kind, ListOf):
        return f"lists of {_plural(kind.item)}"
    if isinstance(kind, MapOf):
        return f"mappings of {_plural(kind.value)}"
    label = kind.label
    if isinstance(kind, Range):
        base = "an integer" if kind.integer else "a number"
        return base.split(" ", 1)[1] + "s" + label[len(base) :]
    for article in ("an ", "a "):
        if label.startswith(article):
            return label[len(article) :] + "s"
    return label


def type_label(kind: Kind) -> str:
    """A short type name for reference tables."""
    label = kind.label
    for article in ("an ", "a "):
        if label.startswith(article):
            return label[len(article) :]
    return label


def records_of(root: Kind) -> list[Record]:
    """Every record reachable from ``root``, depth first, each once."""
    found: list[Record] = []
    seen: set[int] = set()

    def walk(kind: Kind) -> None:
        if id(kind) in seen:
            return
        seen.add(id(kind))
        if isinstance(kind, Record):
            found.append(kind)
        for child in kind.children():
            walk(child)

    walk(root)
    return found


def describe_markdown(root: Record, *, heading: str = "###") -> str:
    """A reference of every record reachable from ``root`` (keys areas registered
    included), one table per record."""
    parts: list[str] = []
    for record in records_of(root):
        parts.append(f"{heading} `{record.name}`\n")
        if record.doc:
            parts.append(record.doc + "\n")
        parts.append("| key | type | description |\n|---|---|---|")
        for key, field in record.all_fields().items():
            required = " **(required)**" if field.required else ""
            doc = field.doc.replace("|", "\\|")
            parts.append(f"| `{key}` | {type_label(field.kind)} | {doc}{required} |")
        parts.append("")
    return "\n".join(parts)
