"""Solution lengths of two solvers on the same cubes, paired by instance.

``bench compare`` pairs two runs of the *same* solver (a regression check); this pairs two
different solvers measured on one suite, e.g. the learned reference against ``kociemba``:

    python benchmarks/paired_lengths.py results/kociemba-random-all \\
        results/policy-mlp-w65536-random-all --suite random-state-v1

Only cubes that both solved are compared. The difference is NEW minus BASE (negative: NEW
is shorter), with the harness's paired bootstrap interval.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from cubebench.harness.metrics import paired_bootstrap_diff
from cubebench.harness.report.frame import load_runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="run folder of the reference solver")
    parser.add_argument("new", type=Path, help="run folder of the solver compared with it")
    parser.add_argument("--suite", required=True, help="suite both runs measured")
    args = parser.parse_args()

    data, _ = load_runs([args.base, args.new])  # refuses differently hashed suites
    data = data[data["suite"] == args.suite]
    base_run, new_run = args.base.name, args.new.name
    sides = {}
    for run, folder in ((base_run, args.base), (new_run, args.new)):
        rows = data[data["run"] == run]
        if rows.empty or rows["solver"].nunique() != 1:
            raise SystemExit(f"{folder}: need exactly one solver on suite {args.suite!r}")
        sides[run] = rows.set_index("instance")
    base, new = sides[base_run], sides[new_run]
    both = base.index.intersection(new.index)
    both = both[base.loc[both, "solved"].to_numpy() & new.loc[both, "solved"].to_numpy()]
    a = base.loc[both, "length_htm"].to_numpy(float)  # (n,)
    b = new.loc[both, "length_htm"].to_numpy(float)  # (n,)
    mean, low, high = paired_bootstrap_diff(a, b)
    print(f"suite {args.suite}: {len(both)} cubes solved by both")
    print(f"  {base['solver'].iloc[0]:>14}: mean {a.mean():.2f} HTM")
    print(f"  {new['solver'].iloc[0]:>14}: mean {b.mean():.2f} HTM")
    shorter, equal = int(np.sum(b < a)), int(np.sum(b == a))
    print(f"  new shorter on {shorter}, equal on {equal}, longer on {len(both) - shorter - equal}")
    print(f"  mean difference (new - base): {mean:+.2f} HTM, 95% CI {low:+.2f} to {high:+.2f}")


if __name__ == "__main__":
    main()
