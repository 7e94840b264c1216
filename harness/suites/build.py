"""Regenerate the built-in suites: ``python -m cubebench.harness.suites.build``.

Writes ``harness/suites/data/*.jsonl`` and their registry. The output is deterministic (fixed
seeds), so running it again reproduces the committed files byte for byte; the optimal-distance
table is cached in ``$CUBEBENCH_HOME/cache/oracle`` (default ``~/.cubebench/cache/oracle``).
"""

from __future__ import annotations

import argparse
import time
from functools import partial

from rich.progress import Progress

from ..paths import cache_dir
from .catalog import load_suite, register_builtin
from .cube2_suites import cube2_jobs
from .cube4_suites import cube4_jobs
from .generate import (
    MAX_DEPTH,
    QDEPTH_SEED_OFFSET,
    QTM_MAX_DEPTH,
    RANDOM_STATE_SUITE,
    SUITE_SEED,
    UNIFORM_MOVES,
    UNIFORM_MOVES_SEED,
    UNIFORM_MOVES_SUITE,
    annotate_optimal,
    depth_instances,
    depth_suite_name,
    qdepth_instances,
    qdepth_suite_name,
    random_state_instances,
    uniform_move_instances,
)
from .hard import HARD_META, HARD_SUITE, hard_instances
from .model import Instance, SuiteError, with_proved
from .oracle import DistanceOracle

TABLE_RADIUS = 6
SEARCH_LEVELS = 4  # exact up to TABLE_RADIUS + SEARCH_LEVELS = 10 moves
QTM_TABLE_RADIUS = 7  # 9.2M states; the quarter-turn tree branches less (about 9.4 a level)
QTM_SEARCH_LEVELS = 4  # exact up to 11 quarter turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depths", type=int, nargs="*", default=list(range(1, MAX_DEPTH + 1)))
    parser.add_argument("--no-random-state", action="store_true")
    parser.add_argument("--no-uniform-moves", action="store_true")
    parser.add_argument("--qdepths", type=int, nargs="*", default=list(range(1, QTM_MAX_DEPTH + 1)))
    parser.add_argument("--no-hard", action="store_true")
    parser.add_argument("--no-cube2", action="store_true", help="skip the 2×2×2's suites")
    parser.add_argument("--no-cube4", action="store_true", help="skip the 4×4×4's suites")
    args = parser.parse_args()

    start = time.perf_counter()
    htm_jobs = _htm_jobs(args)
    if htm_jobs:
        oracle = DistanceOracle.cached(TABLE_RADIUS, cache_dir("oracle"), print)
        print(f"distance table: {len(oracle):,} states in {time.perf_counter() - start:.1f} s")
        _build(htm_jobs, oracle, SEARCH_LEVELS, "htm")
    if args.qdepths:
        t0 = time.perf_counter()
        oracle = DistanceOracle.cached(QTM_TABLE_RADIUS, cache_dir("oracle"), print, "qtm")
        print(f"quarter-turn table: {len(oracle):,} states in {time.perf_counter() - t0:.1f} s")
        jobs = [
            (
                qdepth_suite_name(d),
                lambda d=d: qdepth_instances(d),
                {"kind": "qdepth", "qdepth": d, "seed": [SUITE_SEED, QDEPTH_SEED_OFFSET + d]},
            )
            for d in args.qdepths
        ]
        _build(jobs, oracle, QTM_SEARCH_LEVELS, "qtm")
    if not args.no_hard:
        info = register_builtin(HARD_SUITE, _keep_proved(HARD_SUITE, hard_instances()), HARD_META)
        print(f"{HARD_SUITE}: {info.count} instances, sha256 {info.sha256[:12]}…")
    jobs = [] if args.no_cube2 else cube2_jobs()  # exact optima from the 2×2×2's own table
    jobs += [] if args.no_cube4 else cube4_jobs()
    for name, make, meta in jobs:
        info = register_builtin(name, make(), meta)
        print(f"{name}: {info.count} instances, sha256 {info.sha256[:12]}…")
    print(f"total {time.perf_counter() - start:.1f} s")


def _keep_proved(name: str, instances: list[Instance]) -> list[Instance]:
    """Fresh instances with the optima ``bench suites annotate`` proved on the committed
    suite kept (they cost hours; the breadth-first oracle only reaches 10 moves)."""
    try:
        committed = {i.facelets: i for i in load_suite(name).instances}
    except SuiteError:
        return instances
    return [
        with_proved(fresh, committed[fresh.facelets]) if fresh.facelets in committed else fresh
        for fresh in instances
    ]


def _htm_jobs(args: argparse.Namespace) -> list[tuple]:

    jobs = [
        (
            depth_suite_name(d),
            lambda d=d: depth_instances(d),
            {"kind": "depth", "depth": d, "seed": [SUITE_SEED, d]},
        )
        for d in args.depths
    ]
    if not args.no_random_state:
        jobs.append(
            (
                RANDOM_STATE_SUITE,
                random_state_instances,
                {"kind": "random-state", "seed": [SUITE_SEED, 0]},
            )
        )
    if not args.no_uniform_moves:
        jobs.append(
            (
                UNIFORM_MOVES_SUITE,
                uniform_move_instances,
                {
                    "kind": "uniform-moves",
                    "moves": UNIFORM_MOVES,
                    "seed": list(UNIFORM_MOVES_SEED),
                },
            )
        )
    return jobs


def _build(jobs: list[tuple], oracle: DistanceOracle, levels: int, metric: str) -> None:
    with Progress() as progress:
        for name, make, meta in jobs:
            t0 = time.perf_counter()
            instances = make()
            task = progress.add_task(name, total=len(instances))
            instances = annotate_optimal(
                instances,
                oracle,
                levels,
                partial(progress.advance, task),
                metric,
            )
            meta = meta | {f"optimal_{metric}_exact_up_to": oracle.radius + levels}
            info = register_builtin(name, _keep_proved(name, instances), meta)
            progress.console.print(
                f"{name}: {info.count} instances, sha256 {info.sha256[:12]}…, "
                f"{time.perf_counter() - t0:.1f} s"
            )


if __name__ == "__main__":
    main()
