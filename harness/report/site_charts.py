"""The report's figures as the site's interactive charts, from the very tables the PNG
figures plot (:data:`~cubebench.harness.report.figures.FIGURES`): a tooltip on every point
naming the entry, the value and its interval, and a legend that hides and shows an entry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pandas as pd
from matplotlib.colors import to_hex

from .charts import Chart, Point, Series, thin
from .stats import entry_metric
from .style import palette

OPTIMUM_COLOUR = "#222222"


def _metrics(data: pd.DataFrame) -> dict[str, str]:
    return {str(label): entry_metric(g) for label, g in data.groupby("label", sort=False)}


def _rate(name: str, table: pd.DataFrame, unit: str) -> list[Series]:
    """Solve rate by depth; the interval drawn for the entries that ran every depth's cubes
    (a few cubes a depth give bars that hide the rest; their tooltips still say it)."""
    out = []
    most = table["n"].max() if len(table) else 0
    for label, g in table.groupby("label"):
        full = g["n"].max() >= most
        points = tuple(
            Point(
                float(r.depth),
                100 * r.rate,
                f"{label}, {unit} {r.depth}: {100 * r.rate:.0f}% solved of {r.n} "
                f"(95% CI {100 * r.low:.0f}–{100 * r.high:.0f}%)",
                100 * r.low if full else None,
                100 * r.high if full else None,
            )
            for r in g.itertuples(index=False)
        )
        out.append(Series(str(label), "", points))
    return out


def _by_depth(table: pd.DataFrame, column: str, text: str) -> list[Series]:
    """One series an entry of ``column`` against depth; ``text`` formats the value."""
    return [
        Series(
            str(label),
            "",
            tuple(
                Point(
                    float(r.depth),
                    getattr(r, column),
                    f"{label}, depth {r.depth}: {text.format(getattr(r, column))}",
                )
                for r in g.itertuples(index=False)
            ),
        )
        for label, g in table.groupby("label")
    ]


def _length(table: pd.DataFrame) -> list[Series]:
    out = _by_depth(table, "length_htm", "mean {:.2f} HTM (solved cubes)")
    optimum = table.dropna(subset=["optimum"]).drop_duplicates("depth").sort_values("depth")
    if len(optimum):
        points = tuple(
            Point(float(d), float(o), f"optimum, depth {d}: mean {o:.2f} HTM (exact)", size=3)
            for d, o in zip(optimum["depth"], optimum["optimum"], strict=True)
        )
        out.append(Series("optimum", OPTIMUM_COLOUR, points, dashed=True))
    return out


def _time(table: pd.DataFrame) -> list[Series]:
    return _by_depth(table, "wall_s", "median {:.3g} s a cube")


def _lengths(table: pd.DataFrame) -> list[Series]:
    out = []
    for label, g in table.groupby("label"):
        share = g["length_htm"].value_counts(normalize=True).sort_index() * 100
        points = tuple(
            Point(float(length), float(pct),
                  f"{label}: {pct:.1f}% of its {len(g)} solved cubes in {length} HTM")
            for length, pct in share.items()
        )  # fmt: skip
        out.append(Series(str(label), "", points))
    return out


def _pareto(table: pd.DataFrame, column: str, metric: str) -> list[Series]:
    return [
        Series(
            str(r.label),
            "",
            (
                Point(
                    r.median_s,
                    getattr(r, column),
                    f"{r.label}: median {r.median_s:.3g} s a cube, mean "
                    f"{getattr(r, column):.2f} {metric} (solved), solved {100 * r.rate:.0f}%",
                    size=3 + 5 * r.rate,
                ),
            ),
            line=False,
        )
        for r in table.itertuples(index=False)
    ]


def _cactus(table: pd.DataFrame) -> list[Series]:
    out = []
    for label, g in table.groupby("label"):
        points = [
            Point(r.seconds, 100 * r.share,
                  f"{label}: {r.solved_within} cubes ({100 * r.share:.1f}%) solved within "
                  f"{r.seconds:.3g} s each", size=2.5)
            for r in g.itertuples(index=False)
        ]  # fmt: skip
        out.append(Series(str(label), "", tuple(thin(points)), step=True))
    return out


def _distance(table: pd.DataFrame) -> list[Series]:
    out = []
    named = table.rename(columns={"optimal %": "optimal"})
    for label, g in named.groupby("solver"):
        points = tuple(
            Point(float(r.distance), r.optimal,
                  f"{label}: {r.optimal:.1f}% optimal of {r.n} cubes at optimal "
                  f"distance {r.distance} {r.metric}")
            for r in g.itertuples(index=False)
        )  # fmt: skip
        out.append(Series(str(label), "", points))
    return out


def by_distance(data: pd.DataFrame) -> list[Chart]:
    """Solve rate and mean length by exact optimal distance, each in the metric the entry
    searched (cubes with a known optimum; a length on the diagonal is optimal)."""
    rows = []
    for label, group in data.groupby("label", sort=False):
        metric = entry_metric(group)
        known = group[group[f"optimal_{metric}"].notna()]
        for distance, cubes in known.groupby(f"optimal_{metric}"):
            solved = cubes[cubes["solved"]]
            mean = solved[f"length_{metric}"].mean() if len(solved) else float("nan")
            rows.append((str(label), metric, int(distance), len(cubes), len(solved), mean))
    if not rows:
        return []
    table = pd.DataFrame(rows, columns=["label", "metric", "distance", "n", "solved", "mean"])
    rate, length = [], []
    for label, g in table.groupby("label"):
        unit = g["metric"].iloc[0].upper()
        rate.append(Series(str(label), "", tuple(
            Point(float(r.distance), 100 * r.solved / r.n,
                  f"{label}: {r.solved} of {r.n} solved at optimal distance {r.distance} {unit}")
            for r in g.itertuples(index=False))))  # fmt: skip
        length.append(Series(str(label), "", tuple(
            Point(float(r.distance), r.mean,
                  f"{label}: mean {r.mean:.2f} {unit} over {r.solved} solved cubes at optimal "
                  f"distance {r.distance} (gap {r.mean - r.distance:.2f})")
            for r in g.itertuples(index=False) if r.solved)))  # fmt: skip
    span = sorted(table["distance"].unique())
    length.append(Series("optimum", OPTIMUM_COLOUR, tuple(
        Point(float(d), float(d), f"optimum: {d} moves at distance {d}", size=3) for d in span
    ), dashed=True))  # fmt: skip
    return [
        Chart("solved_by_distance", "Solve rate by optimal distance (cubes with a known "
              "optimum, the entry's metric)", "optimal distance", "solved (%)", tuple(rate),
              y_range=(-2, 102)),
        Chart("length_by_distance", "Mean length by optimal distance, beside the optimum "
              "(solved cubes, the entry's metric)", "optimal distance",
              "mean length (solved)", tuple(length)),
    ]  # fmt: skip


_Builder = Callable[[pd.DataFrame], list[Series]]
_SPECS: dict[str, list[tuple[str, str, str, _Builder, dict]]] = {
    "solve_rate_vs_depth": [("", "scramble depth (face turns)", "solved (%)",
                             lambda t: _rate("", t, "depth"), {"y_range": (-2, 102)})],
    "solve_rate_vs_qdepth": [("", "scramble depth (quarter turns)", "solved (%)",
                              lambda t: _rate("", t, "quarter-turn depth"),
                              {"y_range": (-2, 102)})],
    "length_vs_depth": [("", "scramble depth", "mean length (HTM, solved)", _length, {})],
    "time_vs_depth": [("", "scramble depth", "median seconds a cube (log)", _time,
                       {"log_y": True})],
    "random_lengths": [("", "solution length (HTM)", "% of solved cubes", _lengths, {})],
    "pareto": [
        ("-htm", "median seconds a cube (log)", "mean length (HTM, solved)",
         lambda t: _pareto(t, "mean_htm", "HTM"), {"log_x": True}),
        ("-qtm", "median seconds a cube (log)", "mean length (QTM, solved)",
         lambda t: _pareto(t, "mean_qtm", "QTM"), {"log_x": True}),
    ],
    "cactus": [("", "seconds a cube (log)", "% of its cubes solved within",
                _cactus, {"log_x": True, "y_range": (-2, 102)})],
    "optimal_by_distance": [("", "optimal distance (the entry's metric)",
                             "% solved optimally", _distance, {"y_range": (-2, 102)})],
}  # fmt: skip
"""Per figure: its charts (a suffix, the axes, the series from the figure's table, options)."""


def charts(figures: dict[str, tuple[str, list, pd.DataFrame]], data: pd.DataFrame) -> list[Chart]:
    """The interactive charts of the figures a report drew (name -> caption, files, table),
    each entry in its PNG colour."""
    colours = {k: to_hex(v) for k, v in palette(sorted(data["label"].unique())).items()}
    metrics = _metrics(data)
    out = []
    for name, (caption, paths, table) in figures.items():
        for suffix, x_label, y_label, build, options in _SPECS.get(name, []):
            series = tuple(
                Series(
                    s.name,
                    s.colour or colours.get(s.name, "#555555"),
                    s.points,
                    metrics.get(s.name, ""),
                    s.line,
                    s.dashed,
                    s.step,
                )
                for s in build(table)
            )
            if not any(s.points for s in series):
                continue
            what = f"{caption}, {suffix[1:].upper()}" if suffix else caption
            out.append(
                Chart(name + suffix, what, x_label, y_label, series, png=paths[0].name, **options)
            )
    for chart in by_distance(data):
        series = tuple(
            Series(s.name, s.colour or colours.get(s.name, "#555555"), s.points,
                   metrics.get(s.name, ""), s.line, s.dashed, s.step)
            for s in chart.series
        )  # fmt: skip
        out.append(replace(chart, series=series))
    return out
