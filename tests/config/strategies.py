"""Hypothesis strategies over a settings table: a value each row accepts, and a request
writing a few rows at once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from fakeservice.web.params import BOOL, HASH, INT, STR
from fakeservice.web.settings_table import Setting, SettingsTable


def setting_value(setting: Setting) -> st.SearchStrategy[Any]:
    if setting.values is not None:
        return st.sampled_from(setting.values)
    if setting.type is BOOL:
        return st.booleans()
    if setting.type is INT:
        return st.integers(min_value=0, max_value=40_000_000)
    if setting.type is STR:
        return st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=40)
    if setting.type is HASH:
        return st.fixed_dictionaries({"allow_force_push": st.booleans()})
    return st.lists(st.sampled_from(["alpha", "beta", "gamma"]), max_size=4)


def setting_changes(
    table: SettingsTable, names: Sequence[str], max_size: int
) -> st.SearchStrategy[dict[str, Any]]:
    """A request body writing between one and ``max_size`` of ``names``."""
    return st.lists(
        st.sampled_from(list(names)), min_size=1, max_size=max_size, unique=True
    ).flatmap(
        lambda chosen: st.fixed_dictionaries(
            {name: setting_value(table.by_name[name]) for name in chosen}
        )
    )
