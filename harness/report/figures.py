"""Seaborn figures of a report. Each returns the frame it plotted, so tests check the data.

Colours are fixed per solver label across every figure (one palette, labels sorted).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns
from matplotlib.ticker import MaxNLocator

from ..metrics import wilson_interval
from .budgets import cactus, measured_here, optimal_by_distance
from .style import (
    line,
    log_ticks,
    marker_of,
    outside_legend,
    palette,
    save,
)

RANDOM_SUITE_PREFIX = "random-state"


def _solve_rate_by(
    data: pd.DataFrame, colours: dict, column: str, xlabel: str, title: str
) -> tuple[plt.Figure, pd.DataFrame]:
    depth = data.dropna(subset=[column])
    rows = []
    for (label, d), g in depth.groupby(["label", column]):
        low, high = wilson_interval(int(g["solved"].sum()), len(g))
        rows.append(
            {
                "label": label,
                "depth": int(d),
                "rate": g["solved"].mean(),
                "low": low,
                "high": high,
                "n": len(g),
            }
        )
    table = pd.DataFrame(rows, columns=["label", "depth", "rate", "low", "high", "n"])
    fig, ax = plt.subplots(figsize=(7, 4.2))
    groups = list(table.groupby("label"))
    most = table["n"].max() if len(table) else 0
    for i, (label, g) in enumerate(groups):
        # a small sideways dodge and a marker each: two curves at 100% stay both visible
        x = g["depth"] + 0.08 * (i - (len(groups) - 1) / 2)
        line(ax, x, 100 * g["rate"], label, colours)
        if g["n"].max() < most:  # a few cubes a depth: a band that wide would hide the rest
            ax.lines[-1].set(linestyle="--", label=f"{label} ({g['n'].max()} a depth, no band)")
            continue
        ax.fill_between(x, 100 * g["low"], 100 * g["high"], alpha=0.2, color=colours[label])
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set(xlabel=xlabel, ylabel="solved (%)", title=title, ylim=(-2, 102))
    if len(table):
        outside_legend(ax)
    return fig, table


def solve_rate_vs_depth(data: pd.DataFrame, colours: dict) -> tuple[plt.Figure, pd.DataFrame]:
    return _solve_rate_by(
        data,
        colours,
        "depth",
        "scramble depth (moves; the distance is at most this)",
        "Solve rate by scramble depth (95% Wilson bands)",
    )


def solve_rate_vs_qdepth(data: pd.DataFrame, colours: dict) -> tuple[plt.Figure, pd.DataFrame]:
    """The quarter-turn depth suites (``qdepth-k``): a quarter-turn solver in its own metric."""
    return _solve_rate_by(
        data,
        colours,
        "qdepth",
        "scramble depth (quarter turns; the distance is at most this)",
        "Solve rate by quarter-turn scramble depth (95% Wilson bands)",
    )


def length_vs_depth(data: pd.DataFrame, colours: dict) -> tuple[plt.Figure, pd.DataFrame]:
    solved = data[data["solved"]].dropna(subset=["depth"])
    table = solved.groupby(["label", "depth"], as_index=False)["length_htm"].mean()
    cubes = data.dropna(subset=["depth"]).drop_duplicates(["suite", "instance"])
    known = cubes.groupby("depth")["optimal_htm"].agg(["mean", "count", "size"])
    known = known[known["count"] == known["size"]]  # only depths where every optimum is known
    optimum = pd.DataFrame({"depth": known.index, "optimal_htm": known["mean"].to_numpy()})
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, g in table.groupby("label"):
        line(ax, g["depth"], g["length_htm"], label, colours)
    if len(optimum):
        ax.plot(optimum["depth"], optimum["optimal_htm"], "k--", label="optimum (exact, <= 10)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set(
        xlabel="scramble depth",
        ylabel="mean solution length (HTM, solved cubes)",
        title="Solution length by scramble depth",
    )
    if len(table):
        outside_legend(ax)
    return fig, table.assign(
        optimum=table["depth"].map(dict(zip(optimum["depth"], optimum["optimal_htm"], strict=True)))
    )


def time_vs_depth(data: pd.DataFrame, colours: dict) -> tuple[plt.Figure, pd.DataFrame]:
    table = (
        measured_here(data)
        .dropna(subset=["depth", "wall_s"])
        .groupby(["label", "depth"], as_index=False)["wall_s"]
        .median()
    )
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, g in table.groupby("label"):
        line(ax, g["depth"], g["wall_s"], label, colours)
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    log_ticks(ax.yaxis)
    ax.set(
        xlabel="scramble depth",
        ylabel="median seconds per cube (log)",
        title="Time per cube by scramble depth",
    )
    if len(table):
        outside_legend(ax)
    return fig, table


def random_length_distribution(
    data: pd.DataFrame, colours: dict
) -> tuple[plt.Figure, pd.DataFrame]:
    table = data[data["suite"].str.startswith(RANDOM_SUITE_PREFIX) & data["solved"]][
        ["label", "length_htm"]
    ]
    counts = table["label"].value_counts()
    # the legend says how many cubes each curve counts: 5 beside 100 is not a like shape
    table = table.assign(entry=table["label"].map(lambda label: f"{label} ({counts[label]})"))
    fig, ax = plt.subplots(figsize=(7, 4.2))
    if len(table):
        sns.histplot(
            table,
            x="length_htm",
            hue="entry",
            hue_order=sorted(table["entry"].unique()),
            palette={f"{label} ({n})": colours[label] for label, n in counts.items()},
            discrete=True,
            element="step",
            stat="percent",
            common_norm=False,
            ax=ax,
        )
    ax.set(
        xlabel="solution length (HTM)",
        ylabel="% of solved cubes",
        title="Solution lengths on fully scrambled cubes (random-state)",
    )
    if len(table):
        sns.move_legend(
            ax, "upper left", bbox_to_anchor=(1.02, 1.0), frameon=False, fontsize=8,
            title="entry (solved cubes)", title_fontsize=8,
        )  # fmt: skip
    return fig, table


def pareto(data: pd.DataFrame, colours: dict) -> tuple[plt.Figure, pd.DataFrame]:
    """The time-length frontier on the random-state suite (or all cubes if absent).

    One point per solver entry (median seconds, mean length of its solved cubes), and one
    line per solver through its entries ordered by time: a settings sweep draws that solver's
    frontier. Two panels, HTM and QTM, so quarter-turn searches are read in their metric.
    """
    data = measured_here(data)  # a peer's published times are on its hardware: not this axis
    subset = data[data["suite"].str.startswith(RANDOM_SUITE_PREFIX)]
    scope = "random-state" if len(subset) else "all suites"
    subset = subset if len(subset) else data
    rows = []
    for label, g in subset.groupby("label"):
        solved = g[g["solved"]]
        if len(solved):
            rows.append(
                {
                    "label": label,
                    "family": g["family"].iloc[0],
                    "setting": g["setting"].iloc[0],
                    "median_s": g["wall_s"].median(),
                    "mean_htm": solved["length_htm"].mean(),
                    "mean_qtm": solved["length_qtm"].mean(),
                    "rate": g["solved"].mean(),
                }
            )
    columns = ["label", "family", "setting", "median_s", "mean_htm", "mean_qtm", "rate"]
    table = pd.DataFrame(rows, columns=columns).sort_values(["family", "median_s"])
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
    for ax, column, metric in zip(axes, ("mean_htm", "mean_qtm"), ("HTM", "QTM"), strict=True):
        for _, g in table.groupby("family"):
            if len(g) > 1:  # a sweep: its frontier, grey; the points keep their entries' style
                ax.plot(g["median_s"], g[column], "-", color="0.6", lw=1, zorder=1)
            for _, row in g.iterrows():
                ax.scatter(
                    [row["median_s"]],
                    [row[column]],
                    s=30 + 120 * row["rate"],
                    color=colours[row["label"]],
                    marker=marker_of(row["label"], colours),
                    label=row["label"] if metric == "HTM" else None,
                    zorder=2,
                )
            for _, row in g.iterrows():
                if row["setting"]:  # a sweep: name the setting at each point
                    ax.annotate(
                        row["setting"],
                        (row["median_s"], row[column]),
                        fontsize=6,
                        xytext=(3, 3),
                        textcoords="offset points",
                    )
        ax.set_xscale("log")
        log_ticks(ax.xaxis)
        ax.set(xlabel="median seconds per cube (log)", ylabel=f"mean length ({metric}, solved)")
    fig.suptitle(f"Time versus length ({scope}; marker size = solve rate; timed here only)")
    fig.tight_layout()
    if len(table):
        outside_legend(axes[1], handles_of=axes[0])
    return fig, table.reset_index(drop=True)


def paired_differences(data: pd.DataFrame, baseline: str) -> pd.DataFrame:
    """Per cube both solved: each other entry's HTM length minus the entry labelled
    ``baseline``'s, over every suite they share and every run that measured them.
    Columns: label, suite, instance, difference."""
    columns = ["label", "suite", "instance", "difference"]
    base = data.loc[data["label"] == baseline, ["suite", "instance", "solved", "length_htm"]]
    if base.empty:
        return pd.DataFrame(columns=columns)
    parts = []
    for label, group in data[data["label"] != baseline].groupby("label", sort=True):
        paired = group.merge(base, on=["suite", "instance"], suffixes=("", "_base"))
        paired = paired[paired["solved"] & paired["solved_base"]]
        parts.append(
            pd.DataFrame(
                {
                    "label": label,
                    "suite": paired["suite"].to_numpy(),
                    "instance": paired["instance"].to_numpy(),
                    "difference": (paired["length_htm"] - paired["length_htm_base"]).to_numpy(),
                }
            )
        )
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)


def head_to_head_figure(
    data: pd.DataFrame, colours: dict, baseline: str
) -> tuple[plt.Figure, pd.DataFrame]:
    """The distribution of paired length differences against the baseline, one row each."""
    table = paired_differences(data, baseline)
    labels = sorted(table["label"].unique())
    fig, ax = plt.subplots(figsize=(7, 1.6 + 0.55 * max(len(labels), 1)))
    if labels:
        sns.boxplot(
            data=table,
            x="difference",
            y="label",
            order=labels,
            hue="label",
            palette={label: colours[label] for label in labels},
            fliersize=0,
            width=0.5,
            ax=ax,
            legend=False,
        )
        sns.stripplot(
            data=table, x="difference", y="label", order=labels, color="k", size=2,
            alpha=0.25, jitter=0.2, ax=ax,
        )  # fmt: skip
    ax.axvline(0, color="k", lw=0.8, ls="--")
    if labels:  # a box of identical lengths collapses onto 0: the tick says so in numbers
        summary = table.groupby("label")["difference"].agg(["size", "mean"])
        ax.set_yticks(
            range(len(labels)),
            [f"{lb}\n{summary.loc[lb, 'size']} cubes, mean {summary.loc[lb, 'mean']:+.2f}"
             for lb in labels],
            fontsize=8,
        )  # fmt: skip
    ax.set(
        xlabel=f"HTM length minus {baseline}'s, same cube (negative: shorter)",
        ylabel="",
        title=f"Head to head against {baseline} (cubes both solved)",
    )
    return fig, table


FIGURES: dict[str, tuple[str, Callable]] = {
    "solve_rate_vs_depth": ("Solve rate against scramble depth", solve_rate_vs_depth),
    "solve_rate_vs_qdepth": (
        "Solve rate against quarter-turn scramble depth",
        solve_rate_vs_qdepth,
    ),
    "length_vs_depth": ("Mean solution length against depth, beside the optimum", length_vs_depth),
    "time_vs_depth": ("Time per cube against depth", time_vs_depth),
    "random_lengths": ("Length distribution on fully scrambled cubes", random_length_distribution),
    "pareto": ("Time versus length: each solver's frontier over its settings", pareto),
    "cactus": ("Cubes solved within t seconds a cube, per entry (log t)", cactus),
    "optimal_by_distance": (
        "Share of optimal answers by optimal distance (cubes with a known optimum)",
        optimal_by_distance,
    ),
}


def draw_all(data: pd.DataFrame, folder: Path) -> dict[str, tuple[str, list[Path], pd.DataFrame]]:
    """Draw every figure that has data in these runs.

    A figure with nothing to plot (the depth curves of a random-state-only run, the length
    histogram of a depth-only run) is left out rather than saved as an empty canvas, and a
    file of that name left by an earlier report in the same folder is removed, so the folder
    never shows a figure the report does not describe.
    """
    colours = palette(sorted(data["label"].unique()))
    out = {}
    for name, (title, draw) in FIGURES.items():
        fig, table = draw(data, colours)
        if len(table):
            out[name] = (title, save(fig, folder, name), table)
        else:
            plt.close(fig)
            for stale in (folder / f"{name}.png", folder / f"{name}.svg"):
                stale.unlink(missing_ok=True)
    return out


def draw_head_to_head(
    data: pd.DataFrame, folder: Path, baseline: str
) -> tuple[str, list[Path], pd.DataFrame] | None:
    """Save the head-to-head figure in ``folder``; None (and no file) when no cube pairs."""
    colours = palette(sorted(data["label"].unique()))
    fig, table = head_to_head_figure(data, colours, baseline)
    if not len(table):
        plt.close(fig)
        return None
    caption = f"Paired length differences against {baseline}"
    return caption, save(fig, folder, "head_to_head"), table
