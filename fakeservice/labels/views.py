"""JSON shapes of labels: the basic label (embedded with ``with_labels_details``) and the
label of the labels endpoints (counts with ``with_counts``)."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from fakeservice.labels.models import PROJECT, Label, text_color

# Areas that hold labelled records register a counter: (label, kind) -> count, where kind is
# ``open_issues``, ``closed_issues`` or ``open_merge_requests``.
Counter = Callable[[Any, Label, str], int]
_counters: dict[str, Counter] = {}


def register_counter(kind: str, counter: Counter) -> None:
    _counters.setdefault(kind, counter)


def label_basic(label: Label) -> dict[str, Any]:
    return {
        "id": label.id,
        "name": label.name,
        "color": label.color,
        "description": label.description,
        "description_html": html.escape(label.description) if label.description else "",
        "text_color": text_color(label.color),
    }


def label_view(store: Any, label: Label, *, with_counts: bool = False) -> dict[str, Any]:
    out = label_basic(label)
    if with_counts:
        for kind in ("open_issues", "closed_issues", "open_merge_requests"):
            counter = _counters.get(kind)
            out[f"{kind}_count"] = counter(store, label, kind) if counter else 0
    out["subscribed"] = False
    if label.owner_kind == PROJECT:
        out["priority"] = label.priority
    out["is_project_label"] = label.owner_kind == PROJECT
    return out
