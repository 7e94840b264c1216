"""Time-budget views of a report, as the solver competitions show them: how many cubes each
entry solves within t seconds (the cactus plot), and which entry reaches the shortest mean
length within 1, 10 or 60 seconds a cube, with the hardware each was timed on.

Times are the records' own (measured inside the worker, around ``solve``); the hardware
column says which machine and how many processes solved at once, and published rows, whose
times come from their authors' hardware, are never put on this axis.
"""

from __future__ import annotations

from operator import itemgetter

import matplotlib.pyplot as plt
import pandas as pd

from .style import log_ticks, marker_of, outside_legend


def measured_here(data: pd.DataFrame) -> pd.DataFrame:
    """The rows timed by the harness: an imported peer's run keeps its authors' times, on
    their hardware, which never go on this time axis."""
    if "hardware" not in data:
        return data
    return data[~data["hardware"].astype(str).str.startswith("published:")]


BUDGETS_S = (1.0, 10.0, 60.0)
"""The time budgets a cube of the budget table: a second, ten, a minute."""


def cactus(data: pd.DataFrame, colours: dict) -> tuple[plt.Figure, pd.DataFrame]:
    """Cubes solved within t seconds, per entry (the solver competitions' cactus plot): for
    each entry its solved cubes sorted by time, the k-th at the time of its k-th fastest.
    A curve further right and lower solves as many cubes in less time. Columns: label,
    seconds, solved_within (count), share (of the entry's cubes)."""
    rows = []
    for label, g in measured_here(data).groupby("label"):
        times = sorted(g.loc[g["solved"], "wall_s"].dropna())
        rows += [
            {"label": label, "seconds": t, "solved_within": k, "share": k / len(g)}
            for k, t in enumerate(times, start=1)
        ]
    table = pd.DataFrame(rows, columns=["label", "seconds", "solved_within", "share"])
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, g in table.groupby("label"):
        ax.step(
            g["seconds"], 100 * g["share"], where="post", color=colours[label], label=label,
            marker=marker_of(label, colours), markevery=max(1, len(g) // 8), ms=4,
        )  # fmt: skip
    ax.set_xscale("log")
    log_ticks(ax.xaxis)
    ax.set(
        xlabel="seconds per cube (log)",
        ylabel="% of its cubes solved within that time",
        title="Solved within a time budget, every suite of the report",
        ylim=(-2, 102),
    )
    if len(table):
        outside_legend(ax)
    return fig, table


def within_budgets(data: pd.DataFrame, budgets: tuple[float, ...] = BUDGETS_S) -> pd.DataFrame:
    """Per fully scrambled suite (every suite where a report has none) and metric, one row;
    per budget t a cell: among the entries that attempted the suite's most cubes and solved
    all of them with a median time of at most t a cube, the shortest mean length, who
    reaches it, and its median time. An entry measured at several settings (a sweep) takes
    part with each, so a cell is the best its frontier reaches within t. The hardware
    column names where each winner was timed."""
    data = measured_here(data)
    random = data[data["suite"].str.startswith("random-state")]
    chosen = random if len(random) else data
    rows = []
    for suite, g in chosen.groupby("suite", sort=False):
        counts = g.groupby("label").size()
        entries = [
            {
                "label": label,
                "median_s": float(e["wall_s"].median()),
                "HTM": float(e["length_htm"].mean()),
                "QTM": float(e["length_qtm"].mean()),
                "hardware": str(e["hardware"].iloc[0]) if "hardware" in e else "",
            }
            for label, e in g.groupby("label")
            if len(e) == counts.max() and e["solved"].all()  # the same cubes, all solved
        ]
        for metric in ("HTM", "QTM"):
            row: dict = {"suite": suite, "cubes": int(counts.max()), "metric": metric}
            winners = []
            for t in budgets:
                fits = [e for e in entries if e["median_s"] <= t]
                best = min(fits, key=itemgetter(metric, "median_s"), default=None)
                row[f"within {t:g} s"] = (
                    f"{best[metric]:.2f} {best['label']} ({best['median_s']:.3g} s)"
                    if best
                    else "none"
                )
                if best:
                    winners.append(best)
            row["hardware"] = "; ".join(dict.fromkeys(e["hardware"] for e in winners))
            rows.append(row)
    return pd.DataFrame(rows)


def optimal_by_distance(data: pd.DataFrame, colours: dict) -> tuple[plt.Figure, pd.DataFrame]:
    """Difficulty: each entry's share of optimal answers at each exact optimal distance (the
    table of :func:`~cubebench.harness.report.tables.by_optimal_distance`), one line each."""
    from .tables import by_optimal_distance

    table = by_optimal_distance(data)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, g in table.groupby("solver"):
        ax.plot(
            g["distance"], g["optimal %"], color=colours[label], marker=marker_of(label, colours),
            ms=4, label=f"{label} ({g['metric'].iloc[0]})",
        )  # fmt: skip
    ax.set(
        xlabel="optimal distance (the metric each entry searched)",
        ylabel="% of those cubes solved optimally",
        title="Optimal answers by optimal distance",
        ylim=(-2, 102),
    )
    if len(table):
        outside_legend(ax)
    return fig, table
