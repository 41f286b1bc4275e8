"""Namespace lookups for the namespaces API: extra indexes over the namespaces table, the
path suggestion rule of ``GET /namespaces/:id/exists``; the owner-only counters are kept
by :mod:`fakeservice.namespaces.totals`, installed with the indexes.

The namespaces table itself (user namespaces and groups) belongs to the groups area; this
module only adds the indexes its endpoints read.
"""

from __future__ import annotations

import re

from fakeservice.core.sharing import folded
from fakeservice.core.store import Store
from fakeservice.groups.models import Namespace, find_namespace, namespaces
from fakeservice.namespaces import totals

_FORBIDDEN = re.compile(r"[^a-zA-Z0-9_\-.]")
_EMAIL_TAIL = re.compile(r"@.*\Z", re.DOTALL)
TOP = 0  # the partition of top-level namespaces (user namespaces and root groups)


def _parent_key(ns: Namespace) -> int:
    return ns.parent_id if ns.parent_id is not None else TOP


def install(store: Store) -> None:
    table = namespaces(store)
    totals.install(store)
    table.add_sorted("all_by_id", lambda n: "all")
    table.add_sorted("siblings_by_name", _parent_key, lambda n: (folded(n.name),))


def _sibling_has(store: Store, index: str, parent: int, value: str) -> bool:
    part = namespaces(store).sorted[index].part(parent)
    at = part.bisect_left((value,))
    return at < len(part) and part[at][0] == value


def _path_under(store: Store, parent: int, path: str) -> bool:
    """Whether a namespace directly under ``parent`` (:data:`TOP` for the top level) has
    ``path`` (case-insensitively), found by its full path."""
    table = namespaces(store)
    if parent == TOP:
        full_path = path
    else:
        found = table.get(parent)
        if found is None:
            return False
        full_path = f"{found.full_path}/{path}"
    return table.by("full_path", full_path.lower()) is not None


def path_taken(store: Store, path: str, parent_id: int | None) -> bool:
    """Whether a namespace directly under ``parent_id`` (top level when None) has ``path``."""
    return _path_under(store, parent_id or TOP, path)


def clean_path(path: str) -> str:
    """A valid path made from ``path`` as the service cleans one: the part before an ``@``,
    only letters, digits, ``_``, ``-`` and ``.``, no trailing ``.``/``.git``/``.atom``, no
    leading ``-``; ``blank`` when nothing is left."""
    out = _FORBIDDEN.sub("", _EMAIL_TAIL.sub("", path))
    while True:
        before = out
        out = out.removesuffix(".").removesuffix(".git").removesuffix(".atom")
        if out == before:
            break
    out = out.lstrip("-")
    return out or "blank"


def suggest_path(store: Store, path: str, parent_id: int | None) -> str:
    """The first of ``clean``, ``clean1``, ``clean2``... that no namespace under the same
    parent uses as its path or its name (case-insensitively)."""
    base = clean_path(path)
    parent = parent_id or TOP
    counter = 0
    candidate = base
    while _path_under(store, parent, candidate) or _sibling_has(
        store, "siblings_by_name", parent, candidate.lower()
    ):
        counter += 1
        candidate = f"{base}{counter}"
    return candidate


def lookup(store: Store, key: str) -> Namespace | None:
    """A namespace by integer id or by full path (case-insensitive)."""
    text = str(key)
    if text.isascii() and text.isdigit():
        return namespaces(store).get(int(text))
    return find_namespace(store, text)
