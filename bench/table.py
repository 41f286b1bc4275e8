"""The one table ``make bench`` prints: rows of figures, each a ratio against its
small-state twin or a floor, with the target it must meet.

A bench script joins the table by defining ``bench_rows() -> list[Row]`` (see
``bench/run.py``, which discovers every ``bench/bench_*.py``).
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Row:
    """One measure: ``value`` (in ``unit``) and, when it has one, its ``ratio`` against
    ``twin`` (the small-state twin or a floor) and the ``target`` the ratio (or, without
    a ratio, the value) must not exceed."""

    area: str
    measure: str
    value: float
    unit: str
    ratio: float | None = None
    twin: str = ""
    target: float | None = None

    @property
    def met(self) -> bool | None:
        if self.target is None:
            return None
        figure = self.ratio if self.ratio is not None else self.value
        return figure <= self.target


def ratio_row(
    area: str, measure: str, big: float, small: float, unit: str, twin: str, target: float
) -> Row:
    """``big`` against ``small`` (its twin), with ``target`` the highest allowed ratio."""
    return Row(area, measure, big, unit, big / small if small else None, twin, target)


def render(rows: list[Row]) -> str:
    """The rows as one aligned text table (also valid Markdown)."""
    header = ("area", "measure", "value", "ratio", "against", "target", "met")
    lines = [header]
    for row in rows:
        ratio = f"{row.ratio:.2f}" if row.ratio is not None else ""
        target = f"≤ {row.target:g}" if row.target is not None else ""
        met = {True: "yes", False: "NO", None: ""}[row.met]
        lines.append(
            (row.area, row.measure, f"{row.value:.3g} {row.unit}", ratio, row.twin, target, met)
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for index, line in enumerate(lines):
        out.append(
            "| " + " | ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) + " |"
        )
        if index == 0:
            out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)
