"""Harness overhead per instance, and worker scaling on a CPU-bound solver.

Run: ``python benchmarks/runner.py``. Overhead is measured as the extra wall time of a run
of N instant instances over a run of one (so worker start-up cancels out), divided by N-1.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.runner import RunConfig, SolverSpec, run


def _timed(solver: str, limit: int, workers: int, out: Path, run_id: str) -> float:
    config = RunConfig(
        solvers=(SolverSpec(solver),),
        suites=("depth-10-v1",),
        limit=limit,
        workers=workers,
        out=str(out),
    )
    start = time.perf_counter()
    run(config, show_progress=False, run_id=run_id)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--instances", type=int, default=1000)
    parser.add_argument("--spin-instances", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        one = _timed("benchmarks.fake_solvers:Instant", 1, 1, out, "one")
        many = _timed("benchmarks.fake_solvers:Instant", args.instances, 1, out, "many")
        overhead_ms = 1000 * (many - one) / (args.instances - 1)
        print(
            f"overhead per instance: {overhead_ms:.2f} ms "
            f"({args.instances} instant instances in {many:.2f} s, one in {one:.2f} s)"
        )
        n = args.spin_instances
        base1 = _timed("benchmarks.fake_solvers:Spin", 1, 1, out, "s0")
        t1 = _timed("benchmarks.fake_solvers:Spin", n, 1, out, "s1") - base1
        base2 = _timed("benchmarks.fake_solvers:Spin", 2, 2, out, "s00")
        t2 = _timed("benchmarks.fake_solvers:Spin", n, 2, out, "s2") - base2
        print(
            f"CPU-bound (40 ms/cube), {n} cubes after start-up: 1 worker {t1:.2f} s, "
            f"2 workers {t2:.2f} s, speed-up {t1 / t2:.2f}x"
        )


if __name__ == "__main__":
    main()
