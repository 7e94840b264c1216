"""Summary tables per solver and suite, from the tidy frame."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .formatting import natural_key
from .stats import entry_metric, summarize


def summary_table(data: pd.DataFrame) -> pd.DataFrame:
    """The summary's numbers: a row per entry and suite, the statistics of
    :data:`~cubebench.harness.report.stats.SUMMARY` (``summary.csv``)."""
    return summarize(data)


OPTIMUM_ROW = "optimum (proved)"
BEST_ROW = "best known (entries)"
"""The label of the rows that show the suites' proved optima beside the solvers."""


def optimum_rows(data: pd.DataFrame) -> pd.DataFrame:
    """A row per suite for the proved optima themselves, from the suites' annotations (no
    timed run): over the cubes in ``data`` whose face-turn optimum is proved, their mean
    optimum in each metric (the quarter-turn mean only where every one of them is proved)."""
    rows = []
    for suite, group in data.groupby("suite", sort=True):
        cubes = group.drop_duplicates("instance")
        known = cubes[cubes["optimal_htm"].notna()]
        if known.empty:
            continue
        qtm = known["optimal_qtm"]
        rows.append(
            {
                "solver": OPTIMUM_ROW,
                "suite": suite,
                "n": len(known),
                "n with optimum": len(known),
                "solved %": 100.0,
                "mean HTM": known["optimal_htm"].astype(float).mean(),
                "mean QTM": qtm.astype(float).mean() if qtm.notna().all() else np.nan,
                "mean gap": 0.0,
                "optimal %": 100.0,
            }
        )
    return pd.DataFrame(rows)


def best_known_rows(data: pd.DataFrame) -> pd.DataFrame:
    """A row per suite for the shortest answers found: over the cubes some entry of ``data``
    solved, the mean of each cube's shortest verified answer in each metric (the shortest
    in face turns and the shortest in quarter turns may be different answers). Where no
    optimum is known (the 4×4×4) it is the bound the entries together set."""
    rows = []
    for suite, group in data.groupby("suite", sort=True):
        solved = group[group["status"] == "solved"]
        cubes = group["instance"].nunique()
        if solved.empty:
            continue
        shortest = solved.groupby("instance")[["length_htm", "length_qtm"]].min()
        rows.append(
            {
                "solver": BEST_ROW,
                "suite": suite,
                "n": cubes,
                "solved %": 100.0 * len(shortest) / cubes,
                "mean HTM": shortest["length_htm"].astype(float).mean(),
                "mean QTM": shortest["length_qtm"].astype(float).mean(),
            }
        )
    return pd.DataFrame(rows)


def _suite_order(suite: str, depth: float, qdepth: float) -> tuple:
    """Face-turn depth suites by depth, then quarter-turn ones by depth, then the rest."""
    if not pd.isna(depth):
        return (0, depth, suite)
    return (1, qdepth, suite) if not pd.isna(qdepth) else (2, 0, suite)


def matrix_table(data: pd.DataFrame) -> pd.DataFrame:
    """Solver x suite: solve rate and the mean length of solved cubes, one cell each.

    The first thing a reader wants; the long per-suite table follows it. Lengths are in the
    metric the entry searched (QTM for a quarter-turn search, HTM otherwise). A cell an entry
    ran on fewer cubes than the suite's largest count says how many (``80% of 5 (3.0)``):
    a slow solver may run on the first few cubes of each suite only.
    """
    depth = data.groupby("suite")[["depth", "qdepth"]].first()
    most = data.groupby(["suite", "label"]).size().groupby("suite").max()
    suites = sorted(
        depth.index, key=lambda s: _suite_order(s, depth.loc[s, "depth"], depth.loc[s, "qdepth"])
    )
    rows = []
    groups = sorted(data.groupby("label", sort=False), key=lambda kv: natural_key(str(kv[0])))
    for label, group in groups:
        metric = entry_metric(group)
        column = f"length_{metric}"
        row = {"solver": label, "metric": metric.upper()}
        for suite in suites:
            cell = group[group["suite"] == suite]
            if not len(cell):
                row[suite] = ""
                continue
            solved = cell[cell["solved"]]
            mean = f" ({solved[column].mean():.1f})" if len(solved) else ""
            of = f" of {len(cell)}" if len(cell) < most[suite] else ""
            row[suite] = f"{100 * cell['solved'].mean():.0f}%{of}{mean}"
        rows.append(row)
    return pd.DataFrame(rows, columns=["solver", "metric", *suites])


def by_optimal_distance(data: pd.DataFrame) -> pd.DataFrame:
    """Difficulty: per entry and exact optimal distance (in the metric the entry searched),
    the cubes, the share solved and the share solved optimally. Only cubes whose optimum
    is known count; a peer's claimed lengths count only where ``--claims`` names it.
    Columns: solver, metric, distance, n, solved %, optimal %."""
    rows = []
    groups = sorted(data.groupby("label", sort=False), key=lambda kv: natural_key(str(kv[0])))
    for label, group in groups:
        metric = entry_metric(group)
        optimum = group[f"optimal_{metric}"]
        known = group[optimum.notna()]
        if known.empty:
            continue
        counted = known["solved"]  # a claim counts where the user named it (--claims)
        gap = known[f"gap_{metric}"]
        for distance, cubes in known.groupby(f"optimal_{metric}"):
            index = cubes.index
            rows.append(
                {
                    "solver": label,
                    "metric": metric.upper(),
                    "distance": int(distance),
                    "n": len(cubes),
                    "solved %": 100 * counted[index].mean(),
                    "optimal %": 100 * (counted[index] & (gap[index] == 0)).mean(),
                }
            )
    return pd.DataFrame(
        rows, columns=["solver", "metric", "distance", "n", "solved %", "optimal %"]
    )


def distance_matrix(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`by_optimal_distance` as a report shows it: an entry per row, a distance per
    column, each cell ``% optimal (n)``."""
    if table.empty:
        return table
    cells = table.assign(
        cell=[f"{o:.1f}% ({n})" for o, n in zip(table["optimal %"], table["n"], strict=True)]
    )
    wide = cells.pivot_table(index=["solver", "metric"], columns="distance", values="cell",
                             aggfunc="first").fillna("")  # fmt: skip
    wide.columns = [f"d={c}" for c in wide.columns]
    return wide.reset_index()
