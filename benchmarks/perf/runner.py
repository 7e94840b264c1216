"""Harness overhead per instance, worker scaling, and the local executor against Ray.

Run: ``python benchmarks/perf/runner.py [--executors]``. Overhead is measured as the extra wall
time of a run of N instant instances over a run of one (so worker start-up cancels out),
divided by N-1. ``--executors`` runs a 100 ms-per-cube CPU-bound fake solver with 2
workers through both executors (Ray started once, beforehand, with 2 CPUs, so its start-up
is not counted) and prints throughput and overhead per instance of each.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cubebench.harness.runner import RunConfig, SolverSpec, run


def _timed(
    solver: str, limit: int, workers: int, out: Path, run_id: str, executor: str = "local"
) -> float:
    config = RunConfig(
        solvers=(SolverSpec(solver),),
        suites=("depth-10-v1",),
        limit=limit,
        workers=workers,
        out=str(out),
        executor=executor,
    )
    start = time.perf_counter()
    run(config, show_progress=False, run_id=run_id)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--instances", type=int, default=1000)
    parser.add_argument("--spin-instances", type=int, default=200)
    parser.add_argument("--executors", action="store_true", help="local against Ray")
    args = parser.parse_args()
    if args.executors:
        compare_executors(args.spin_instances)
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        one = _timed("benchmarks.perf.fake_solvers:Instant", 1, 1, out, "one")
        many = _timed("benchmarks.perf.fake_solvers:Instant", args.instances, 1, out, "many")
        overhead_ms = 1000 * (many - one) / (args.instances - 1)
        print(
            f"overhead per instance: {overhead_ms:.2f} ms "
            f"({args.instances} instant instances in {many:.2f} s, one in {one:.2f} s)"
        )
        n = args.spin_instances
        base1 = _timed("benchmarks.perf.fake_solvers:Spin", 1, 1, out, "s0")
        t1 = _timed("benchmarks.perf.fake_solvers:Spin", n, 1, out, "s1") - base1
        base2 = _timed("benchmarks.perf.fake_solvers:Spin", 2, 2, out, "s00")
        t2 = _timed("benchmarks.perf.fake_solvers:Spin", n, 2, out, "s2") - base2
        print(
            f"CPU-bound (40 ms/cube), {n} cubes after start-up: 1 worker {t1:.2f} s, "
            f"2 workers {t2:.2f} s, speed-up {t1 / t2:.2f}x"
        )


def compare_executors(n: int) -> None:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    solver = "benchmarks.perf.fake_solvers:Spin100"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        rates = {}
        for executor in ("local", "ray"):
            base = _timed(solver, 2, 2, out, f"{executor}-base", executor)
            total = _timed(solver, n + 2, 2, out, f"{executor}-n", executor)
            instant_1 = _timed(
                "benchmarks.perf.fake_solvers:Instant", 1, 1, out, f"{executor}-i1", executor
            )
            instant_n = _timed(
                "benchmarks.perf.fake_solvers:Instant", 201, 1, out, f"{executor}-in", executor
            )
            rates[executor] = n / (total - base)
            print(
                f"{executor:5s}: 100 ms/cube, 2 workers: {n} cubes in {total - base:.2f} s after "
                f"start-up = {rates[executor]:.2f} cubes/s (ideal 20); overhead per instant "
                f"instance {1000 * (instant_n - instant_1) / 200:.2f} ms; start-up {base:.2f} s"
            )
        print(f"ray / local throughput: {rates['ray'] / rates['local']:.2f}")
    ray.shutdown()


if __name__ == "__main__":
    main()
