"""The statistics of an entry on a suite, each declared once: ``bench show``, the report's
summary and leaderboards, the site and ``bench compare`` all take them from here.

A :class:`Statistic` names its column, how it aggregates an entry's records on one suite,
which direction is better, and the metric it counts in. "The entry's metric" is the move
set its records say it searched (:func:`entry_metric`): a quarter-turn search's lengths,
gaps and optima are in quarter turns, every other's in face turns. Records are read through
:func:`~cubebench.harness.report.frame.load_runs`, which gives them the optima their suite
holds now, so a run annotated after it was made shows the same gap everywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from ..metrics import bootstrap_mean_ci, wilson_interval
from .formatting import natural_key, suite_key


def entry_metric(group: pd.DataFrame) -> str:
    """``qtm`` where most of the entry's records say it searched quarter turns, else
    ``htm`` (the solvers' default; records of solvers that do not say)."""
    return "qtm" if (group["metric"] == "qtm").mean() > 0.5 else "htm"


def in_metric(group: pd.DataFrame, kind: str) -> pd.Series:
    """The records' ``length``, ``gap`` or ``optimal`` in the entry's metric."""
    return group[f"{kind}_{entry_metric(group)}"]


def _solved(group: pd.DataFrame) -> pd.DataFrame:
    return group[group["solved"]]


def _mean(values: pd.Series) -> float:
    values = values.dropna().astype(float)
    return float(values.mean()) if len(values) else np.nan


def _rate_bound(side: int) -> Callable[[pd.DataFrame], float]:
    def bound(group: pd.DataFrame) -> float:
        return 100 * wilson_interval(int(group["solved"].sum()), len(group))[side]

    return bound


def _htm_bound(side: int) -> Callable[[pd.DataFrame], float]:
    def bound(group: pd.DataFrame) -> float:
        lengths = _solved(group)["length_htm"].to_numpy(float)
        return bootstrap_mean_ci(lengths)[side] if lengths.size else np.nan

    return bound


def _gaps(group: pd.DataFrame) -> pd.Series:
    return in_metric(_solved(group), "gap").dropna() if group["solved"].any() else pd.Series()


def _optimal_share(group: pd.DataFrame) -> float:
    gaps = _gaps(group)
    return 100 * float((gaps == 0).mean()) if len(gaps) else np.nan


def _median(values: pd.Series) -> float:
    values = values.dropna().astype(float)
    return float(np.median(values)) if len(values) else np.nan


@dataclass(frozen=True)
class Statistic:
    """One column of an entry's summary on a suite."""

    name: str
    of: Callable[[pd.DataFrame], float]  # the entry's records on one suite -> the value
    better: Literal["higher", "lower"] | None  # which way is better; None: a count
    counts_in: Literal["cubes", "share", "HTM", "QTM", "entry's metric", "seconds", "effort"]
    doc: str


SUMMARY: tuple[Statistic, ...] = (
    Statistic("n", len, None, "cubes", "cubes attempted"),
    Statistic("solved %", lambda g: 100 * float(g["solved"].mean()) if len(g) else np.nan,
              "higher", "share", "cubes solved, verified by the harness"),
    Statistic("CI low %", _rate_bound(0), None, "share", "95% Wilson interval, low end"),
    Statistic("CI high %", _rate_bound(1), None, "share", "95% Wilson interval, high end"),
    Statistic("mean HTM", lambda g: _mean(_solved(g)["length_htm"]), "lower", "HTM",
              "mean face-turn length of the solved cubes"),
    Statistic("HTM CI low", _htm_bound(0), None, "HTM", "its 95% bootstrap interval, low"),
    Statistic("HTM CI high", _htm_bound(1), None, "HTM", "its 95% bootstrap interval, high"),
    Statistic("median HTM", lambda g: _median(_solved(g)["length_htm"]), "lower", "HTM",
              "median face-turn length of the solved cubes"),
    Statistic("mean QTM", lambda g: _mean(_solved(g)["length_qtm"]), "lower", "QTM",
              "mean quarter-turn length of the solved cubes"),
    Statistic("n with optimum", lambda g: int(in_metric(g, "optimal").notna().sum()), None,
              "cubes", "cubes whose optimum in the entry's metric is proved"),
    Statistic("mean gap", lambda g: _mean(_gaps(g)), "lower", "entry's metric",
              "mean length above the optimum, on the solved cubes whose optimum is proved"),
    Statistic("optimal %", _optimal_share, "higher", "share",
              "share of those solved at the optimum"),
    Statistic("median s", lambda g: _median(g["wall_s"]), "lower", "seconds",
              "median wall-clock seconds a cube, every attempt"),
    Statistic("median CPU s", lambda g: _median(g["cpu_s"]), "lower", "seconds",
              "median CPU seconds a cube (the solver's, its children's too), every attempt; "
              "none for runs recorded before CPU time was"),
    Statistic("p90 s", lambda g: float(g["wall_s"].quantile(0.9)), "lower", "seconds",
              "90th percentile of the seconds a cube"),
    Statistic("max s", lambda g: float(g["wall_s"].max()), "lower", "seconds",
              "the longest attempt"),
    Statistic("mean nodes", lambda g: _mean(g["nodes"]), None, "effort",
              "nodes expanded a cube"),
    Statistic("mean model calls", lambda g: _mean(g["model_calls"]), None, "effort",
              "model evaluations a cube"),
)  # fmt: skip
"""What a summary row holds, in its column order (``summary.csv``, ``bench show``)."""

BY_NAME = {s.name: s for s in SUMMARY}


def summarize(data: pd.DataFrame, statuses: bool = False) -> pd.DataFrame:
    """A row per entry (label) and suite, a column per :data:`SUMMARY` statistic; with
    ``statuses``, the count of each status other than solved (``bench show``)."""
    rows = []
    groups = sorted(
        data.groupby(["label", "suite"], sort=False),
        key=lambda kv: (natural_key(str(kv[0][0])), suite_key(str(kv[0][1]))),
    )
    for (label, suite), group in groups:
        row: dict[str, object] = {"solver": label, "suite": suite}
        row |= {s.name: s.of(group) for s in SUMMARY}
        if statuses:
            counts = group.loc[~group["solved"], "status"].value_counts()
            row["other"] = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
        rows.append(row)
    columns = ["solver", "suite", *BY_NAME] + (["other"] if statuses else [])
    return pd.DataFrame(rows, columns=columns)
