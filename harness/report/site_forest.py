"""Each entry against the baseline as a forest plot: for a suite (or all pooled), a row per
entry with three panels, the solve-rate difference, and the paired length difference in
face turns and in quarter turns with their 95% intervals.

A filled solve-rate point marks McNemar's exact p below 0.05 (open: not significant). The
numbers behind a point are a click away: each point carries them in ``data-info``, and the
page's script writes them under the plot; hovering shows a shorter tip.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pandas as pd

from .charts import nice_ticks, tick_text
from .compare import POOLED
from .formatting import suite_key
from .site_html import esc, slug
from .stats import entry_metric

_LABEL_W, _PANEL_W, _GAP, _ROW_H, _HEAD = 270, 220, 24, 24, 40
_PANELS = (
    ("solve_rate_diff_pp", None, None, "solved, points vs baseline"),
    ("length_diff", "length_ci_low", "length_ci_high", "HTM length vs baseline"),
    ("length_qtm_diff", "length_qtm_ci_low", "length_qtm_ci_high", "QTM length vs baseline"),
)
SIGNIFICANT = 0.05


def forest(table: pd.DataFrame, data: pd.DataFrame, baseline: str) -> str:
    """The forest plot of :func:`~cubebench.harness.report.compare.baseline_matrix`'s
    ``table``: a suite picker (pooled first) and one plot per suite, the pooled one shown."""
    if table.empty:
        return ""
    metrics = {str(k): entry_metric(g) for k, g in data.groupby("label", sort=False)}
    suites = sorted(dict.fromkeys(table["suite"]), key=lambda s: (s != POOLED, suite_key(s)))
    options = "".join(
        f"<option value='{esc(slug(s))}'>{esc('all suites, pooled' if s == POOLED else s)}</option>"
        for s in suites
    )
    panels = [
        _plot(table[table["suite"] == s], s, baseline, metrics, shown=(i == 0))
        for i, s in enumerate(suites)
    ]
    return (
        "<div class='forest'><label>Suite <select class='forest-suite'>"
        f"{options}</select></label>{''.join(panels)}"
        "<output class='readout' aria-live='polite'>Click a point for its numbers.</output></div>"
    )


def _range(
    rows: pd.DataFrame, value: str, low: str | None, high: str | None
) -> tuple[float, float]:
    columns = [c for c in (value, low, high) if c]
    values = [float(v) for c in columns for v in rows[c] if not pd.isna(v) and math.isfinite(v)]
    span = max((abs(v) for v in values), default=1.0) or 1.0
    return -1.1 * span, 1.1 * span


def _plot(rows: pd.DataFrame, suite: str, baseline: str, metrics: dict, shown: bool) -> str:
    rows = rows.sort_values("entry", key=lambda c: c.str.lower())
    height = _HEAD + _ROW_H * len(rows) + 8
    width = _LABEL_W + 3 * (_PANEL_W + _GAP)
    parts = []
    for p, (value, low, high, title) in enumerate(_PANELS):
        x0 = _LABEL_W + p * (_PANEL_W + _GAP)
        lo, hi = _range(rows, value, low, high)

        def sx(v: float, x0: float = x0, lo: float = lo, hi: float = hi) -> float:
            return x0 + (v - lo) / (hi - lo) * _PANEL_W

        parts.append(
            f"<text class='axis' x='{x0 + _PANEL_W / 2:.0f}' y='14' text-anchor='middle'>"
            f"{esc(title)}</text>"
        )
        for t in nice_ticks(lo, hi, False, most=5):
            parts.append(
                f"<line class='grid' x1='{sx(t):.1f}' x2='{sx(t):.1f}' y1='{_HEAD - 8}' "
                f"y2='{height - 6}'/><text class='tick' x='{sx(t):.1f}' y='{_HEAD - 12}' "
                f"text-anchor='middle'>{tick_text(t)}</text>"
            )
        parts.append(
            f"<line class='zero' x1='{sx(0):.1f}' x2='{sx(0):.1f}' y1='{_HEAD - 8}' "
            f"y2='{height - 6}'/>"
        )
        for i, row in enumerate(rows.itertuples(index=False)):
            y = _HEAD + _ROW_H * i + _ROW_H / 2
            parts.append(_point(row, suite, baseline, value, low, high, sx, y, metrics))
    for i, row in enumerate(rows.itertuples(index=False)):
        y = _HEAD + _ROW_H * i + _ROW_H / 2
        entry = str(row.entry)
        parts.append(
            f"<text class='row-label' x='{_LABEL_W - 8}' y='{y + 4:.0f}' text-anchor='end' "
            f"data-entry='{esc(entry)}' data-metric='{metrics.get(entry, '')}'>"
            f"{esc(entry if len(entry) <= 36 else entry[:35] + '…')}</text>"
        )
    hidden = "" if shown else " hidden"
    return (
        f"<div class='forest-panel' data-suite='{esc(slug(suite))}'{hidden}>"
        f"<svg viewBox='0 0 {width} {height}' role='img' aria-label='Against {esc(baseline)}, "
        f"{esc(suite)}' xmlns='http://www.w3.org/2000/svg'>{''.join(parts)}</svg></div>"
    )


def _point(
    row: Any,
    suite: str,
    baseline: str,
    value: str,
    low: str | None,
    high: str | None,
    sx: Callable[[float], float],
    y: float,
    metrics: dict[str, str],
) -> str:
    entry = str(row.entry)
    data = row._asdict()
    v = data.get(value)
    if v is None or pd.isna(v):
        return ""
    attrs = f"data-entry='{esc(entry)}' data-metric='{metrics.get(entry, '')}'"
    bar = ""
    if low and high and not pd.isna(data.get(low)) and not pd.isna(data.get(high)):
        bar = (
            f"<line class='ci' x1='{sx(data[low]):.1f}' x2='{sx(data[high]):.1f}' "
            f"y1='{y:.1f}' y2='{y:.1f}'/>"
        )
    if value == "solve_rate_diff_pp":
        p = data["mcnemar_p"]
        significant = not pd.isna(p) and p < SIGNIFICANT
        tip = f"{entry}, {suite}: solved {v:+.1f} points vs {baseline} (McNemar p {p:.2g})"
        fill = "point significant" if significant else "point open"
    else:
        metric = "QTM" if "qtm" in value else "HTM"
        tip = (
            f"{entry}, {suite}: {v:+.2f} {metric} a cube vs {baseline} "
            f"[{data[low]:+.2f}, {data[high]:+.2f}] on {data['both_solved']} cubes both solved"
        )
        fill = "point"
    info = _info(data, suite, baseline)
    return (
        f"<g class='forest-row' {attrs}>{bar}<circle class='{fill}' cx='{sx(v):.1f}' "
        f"cy='{y:.1f}' r='5' tabindex='0' data-tip='{esc(tip)}' data-info='{esc(info)}'>"
        f"<title>{esc(tip)}</title></circle></g>"
    )


def _info(row: dict, suite: str, baseline: str) -> str:
    """Every number behind one entry's row, for the readout."""

    def ci(name: str) -> str:
        diff = row.get(f"{name}_diff")
        if diff is None or pd.isna(diff):
            return "no cube both solved"
        return f"{diff:+.2f} [{row[f'{name}_ci_low']:+.2f}, {row[f'{name}_ci_high']:+.2f}]"

    return (
        f"{row['entry']} against {baseline} on {suite}: {row['n']} cubes both attempted; "
        f"solved {row['new_rate']:.1f}% vs {row['base_rate']:.1f}% "
        f"({row['solve_rate_diff_pp']:+.1f} points; only this entry {row['only_new']}, only "
        f"{baseline} {row['only_base']}; McNemar exact p {row['mcnemar_p']:.3g}); on the "
        f"{row['both_solved']} cubes both solved, length difference HTM {ci('length')}, QTM "
        f"{ci('length_qtm')} (95% bootstrap), shorter on {row['new_shorter']}, longer on "
        f"{row['base_shorter']}."
    )
