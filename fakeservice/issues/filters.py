"""The list filters issues and merge requests share (seed 001 §4.2): their declared
parameters and the predicate they make.

Records need ``project_id``, ``state``, ``author_id``, ``assignee_ids``, ``label_ids``,
``milestone_id``, ``title``, ``description``, ``created_at`` and ``updated_at`` (merge
requests add ``reviewer_ids``, ``draft``, ``source_branch``, ``target_branch``).
``None``/``Any`` work wherever the service accepts them; ``not[...]`` negates each
given filter; label names match case-insensitively among the project's and its
ancestor groups' labels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from fakeservice.core.store import Store, as_id
from fakeservice.labels import models as labels
from fakeservice.milestones import models as milestones
from fakeservice.notes import awards
from fakeservice.users.models import find_by_username
from fakeservice.web.params import DATETIME, HASH, INT, STR, Array, MutuallyExclusive, Param

Predicate = Callable[[Any], bool]
NONE, ANY = "none", "any"


def _id_or_keyword(value: Any) -> bool:
    text = str(value).strip().lower()
    return text in (NONE, ANY) or as_id(str(value).strip()) is not None


COMMON = (
    Param("labels", Array(STR, scalar=True, comma=True)),
    Param("milestone", STR),
    Param("author_id", INT),
    Param("author_username", STR),
    Param("assignee_id", STR, check=_id_or_keyword),
    Param("assignee_username", Array(STR, scalar=True)),
    Param("my_reaction_emoji", STR),
    Param("search", STR),
    Param("in", STR, check=lambda v: set(v.split(",")) <= {"title", "description"}),
    Param("created_after", DATETIME),
    Param("created_before", DATETIME),
    Param("updated_after", DATETIME),
    Param("updated_before", DATETIME),
    Param("not", HASH),
)
EXCLUSIVE = (
    MutuallyExclusive(("author_id", "author_username")),
    MutuallyExclusive(("assignee_id", "assignee_username")),
)


def iids_param() -> Param:
    return Param("iids", Array(INT, scalar=True))


def _keyword(value: Any) -> str | None:
    text = str(value).strip().lower()
    return text if text in (NONE, ANY) else None


def label_sets(
    store: Store, owners: list[labels.Owner], names: Iterable[str]
) -> list[set[int]] | str:
    """For each name the ids of the labels it names; ``"none"``/``"any"`` for the keywords."""
    names = [n.strip() for n in names if n.strip()]
    if len(names) == 1 and names[0].lower() in (NONE, ANY, "no+label", "no label"):
        return NONE if names[0].lower() != ANY else ANY
    out: list[set[int]] = []
    for name in names:
        found = {
            label.id
            for owner in owners
            if (label := labels.labels(store).by("owner_name", (*owner, name.lower()))) is not None
        }
        out.append(found)
    return out


def _names_predicate(store: Store, names: list[str]) -> Predicate:
    """Across projects: every named label (by name, any owner) is on the record."""
    wanted = [n.strip().lower() for n in names if n.strip()]
    table = labels.labels(store)

    def has_all(record: Any) -> bool:
        have = {label.name.lower() for i in record.label_ids if (label := table.get(i))}
        return all(name in have for name in wanted)

    return has_all


def _labels_predicate(sets: list[set[int]] | str) -> Predicate:
    if sets == NONE:
        return lambda r: not r.label_ids
    if sets == ANY:
        return lambda r: bool(r.label_ids)
    assert isinstance(sets, list)
    return lambda r: all(any(i in s for i in r.label_ids) for s in sets)


def _milestone_predicate(store: Store, owners: list[labels.Owner] | None, value: str) -> Predicate:
    keyword = _keyword(value)
    if keyword == NONE:
        return lambda r: r.milestone_id is None
    if keyword == ANY:
        return lambda r: r.milestone_id is not None
    if owners is None:
        table = milestones.milestones(store)
        return lambda r: (found := table.get(r.milestone_id)) is not None and found.title == value
    ids = {m.id for m in milestones.by_title(store, owners, value)}
    return lambda r: r.milestone_id in ids


def _user_ids(store: Store, names: Iterable[str]) -> set[int]:
    found = (find_by_username(store, str(name)) for name in names)
    return {user.id for user in found if user is not None}


def _people_predicate(attr: str, value: Any, *, usernames: bool, store: Store) -> Predicate:
    """Filter on a list attribute (``assignee_ids``, ``reviewer_ids``) by id or username."""
    if usernames:
        names = value if isinstance(value, list) else [value]
        ids = _user_ids(store, names)
        return lambda r: bool(ids) and ids <= set(getattr(r, attr))
    keyword = _keyword(value)
    if keyword == NONE:
        return lambda r: not getattr(r, attr)
    if keyword == ANY:
        return lambda r: bool(getattr(r, attr))
    wanted = as_id(str(value).strip())
    return lambda r: wanted in getattr(r, attr)


def _author_predicate(store: Store, params: dict[str, Any]) -> Predicate | None:
    if params.get("author_id") is not None:
        author = params["author_id"]
        return lambda r: r.author_id == author
    if params.get("author_username") is not None:
        user = find_by_username(store, str(params["author_username"]))
        author_id = user.id if user is not None else None
        return lambda r: r.author_id == author_id
    return None


def _search_predicate(text: str, fields: str | None) -> Predicate:
    needle = text.lower()
    where = (fields or "title,description").split(",")
    return lambda r: any(needle in (getattr(r, f) or "").lower() for f in where)


def predicates(
    store: Store,
    owners: list[labels.Owner] | None,
    params: dict[str, Any],
    *,
    negated: bool = False,
    user_id: int | None = None,
) -> list[Predicate]:
    """The predicates of the filters given in ``params`` (the ``not`` hash included);
    ``my_reaction_emoji`` is about ``user_id``'s awards."""
    out: list[Predicate] = []
    if params.get("labels"):
        sets = label_sets(store, owners or [], params["labels"])
        if owners is None and isinstance(sets, list):
            out.append(_names_predicate(store, params["labels"]))
        else:
            out.append(_labels_predicate(sets))
    if params.get("milestone") is not None:
        out.append(_milestone_predicate(store, owners, params["milestone"]))
    author = _author_predicate(store, params)
    if author is not None:
        out.append(author)
    for kind in ("assignee", "reviewer"):
        if params.get(f"{kind}_id") is not None:
            out.append(
                _people_predicate(f"{kind}_ids", params[f"{kind}_id"], usernames=False, store=store)
            )
        if params.get(f"{kind}_username") is not None:
            out.append(
                _people_predicate(
                    f"{kind}_ids", params[f"{kind}_username"], usernames=True, store=store
                )
            )
    if params.get("my_reaction_emoji") is not None:
        out.append(awards.reaction_predicate(store, user_id, params["my_reaction_emoji"]))
    if negated:
        return out
    if params.get("search"):
        out.append(_search_predicate(params["search"], params.get("in")))
    for name, attr, after in (
        ("created_after", "created_at", True),
        ("created_before", "created_at", False),
        ("updated_after", "updated_at", True),
        ("updated_before", "updated_at", False),
    ):
        bound = params.get(name)
        if bound is not None:
            out.append(_bound(attr, bound, after))
    negations = params.get("not")
    if isinstance(negations, dict) and negations:
        negative = predicates(store, owners, _not_params(negations), negated=True, user_id=user_id)
        for predicate in negative:
            out.append(lambda r, p=predicate: not p(r))
    return out


def _bound(attr: str, bound: Any, after: bool) -> Predicate:
    if after:
        return lambda r: getattr(r, attr) >= bound
    return lambda r: getattr(r, attr) <= bound


def _not_params(raw: dict[str, Any]) -> dict[str, Any]:
    """The ``not`` hash as typed filter values (unknown keys are ignored)."""
    out: dict[str, Any] = {}
    for key in ("milestone", "author_username", "assignee_id", "reviewer_id", "my_reaction_emoji"):
        if raw.get(key) is not None:
            out[key] = str(raw[key])
    for key in ("assignee_username", "reviewer_username"):
        if raw.get(key) is not None:
            out[key] = raw[key] if isinstance(raw[key], list) else [str(raw[key])]
    if raw.get("labels") is not None:
        value = raw["labels"]
        out["labels"] = value if isinstance(value, list) else str(value).split(",")
    if raw.get("author_id") is not None and as_id(str(raw["author_id"])) is not None:
        out["author_id"] = as_id(str(raw["author_id"]))
    return out


def combine(found: list[Predicate]) -> Predicate | None:
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    return lambda r: all(p(r) for p in found)
