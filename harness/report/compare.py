"""``bench compare BASE NEW``: what changed between two runs of the same suites.

Pairs are matched by solver label and suite, and instances by id, so every difference is
paired: McNemar's exact test for the solve rate, a paired bootstrap for the length on the
cubes both runs solved. ``--fail-if`` turns a threshold into an exit code for CI.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from cubebench.harness.metrics import mcnemar_exact, paired_bootstrap_diff
from cubebench.harness.report.frame import load_runs
from cubebench.harness.report.rules import Rule, ThresholdError


def compare_runs(base: Path, new: Path) -> pd.DataFrame:
    """One row per (solver label, suite) present in both runs."""
    data, runs = load_runs([base, new])  # refuses different suite hashes
    base_id, new_id = (r.run_id for r in runs)
    if base_id == new_id:
        raise ThresholdError("BASE and NEW are the same run")
    rows = []
    for (solver, suite), group in data.groupby(["solver", "suite"]):
        a = group[group["run"] == base_id].set_index("instance")
        b = group[group["run"] == new_id].set_index("instance")
        common = a.index.intersection(b.index)
        if common.empty:
            continue
        a, b = a.loc[common], b.loc[common]
        only_a = int((a["solved"] & ~b["solved"]).sum())
        only_b = int((b["solved"] & ~a["solved"]).sum())
        both = a["solved"] & b["solved"]
        mean, low, high = paired_bootstrap_diff(
            a.loc[both, "length_htm"].to_numpy(float), b.loc[both, "length_htm"].to_numpy(float)
        )
        base_time, new_time = a["wall_s"].median(), b["wall_s"].median()
        rows.append(
            {
                "solver": solver,
                "suite": suite,
                "n": len(common),
                "base_rate": 100 * a["solved"].mean(),
                "new_rate": 100 * b["solved"].mean(),
                "solve_rate_diff_pp": 100 * (b["solved"].mean() - a["solved"].mean()),
                "mcnemar_p": mcnemar_exact(only_a, only_b),
                "length_diff": mean,
                "length_ci": f"{low:.2f}–{high:.2f}" if both.any() else "",
                "base_median_s": base_time,
                "new_median_s": new_time,
                "time_change_pct": 100 * (new_time / base_time - 1) if base_time else np.nan,
            }
        )
    return pd.DataFrame(rows)


def failures(table: pd.DataFrame, rules: list[Rule]) -> list[str]:
    """Every (rule, row) pair where the rule's threshold is crossed."""
    out = []
    for rule in rules:
        for _, row in table.iterrows():
            if rule.crossed(row.to_dict()):
                out.append(
                    f"{row['solver']} on {row['suite']}: {rule.metric} {rule.op} "
                    f"{rule.value:+g}{rule.unit}"
                )
    return out
