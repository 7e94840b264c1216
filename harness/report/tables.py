"""Summary tables per solver and suite, from the tidy frame."""

from __future__ import annotations

import numpy as np
import pandas as pd

from harness.metrics import bootstrap_mean_ci, wilson_interval


def summary_table(data: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (label, suite), group in data.groupby(["label", "suite"], sort=True):
        n, solved = len(group), int(group["solved"].sum())
        low, high = wilson_interval(solved, n)
        lengths = group.loc[group["solved"], "length_htm"].to_numpy(float)
        len_low, len_high = bootstrap_mean_ci(lengths)
        gaps = group.loc[group["solved"], "gap_htm"].dropna()
        rows.append(
            {
                "solver": label,
                "suite": suite,
                "n": n,
                "solved %": 100 * solved / n,
                "CI low %": 100 * low,
                "CI high %": 100 * high,
                "mean HTM": lengths.mean() if lengths.size else np.nan,
                "HTM CI": f"{len_low:.2f}–{len_high:.2f}" if lengths.size else "",
                "median HTM": float(np.median(lengths)) if lengths.size else np.nan,
                "mean QTM": group.loc[group["solved"], "length_qtm"].mean(),
                "mean gap": gaps.mean() if len(gaps) else np.nan,
                "optimal %": 100 * (gaps == 0).mean() if len(gaps) else np.nan,
                "median s": group["wall_s"].median(),
                "p90 s": group["wall_s"].quantile(0.9),
                "max s": group["wall_s"].max(),
                "mean nodes": group["nodes"].mean(),
                "mean model calls": group["model_calls"].mean(),
            }
        )
    return pd.DataFrame(rows)
