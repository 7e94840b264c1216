"""The optimal solver's speed: table build time and size, nodes a second, and the time a cube
takes on a suite, on one core.

    python benchmarks/perf/optimal.py --suite depth-16-v1 --limit 20 --metric htm
    python benchmarks/perf/optimal.py --build --metric qtm      # also time a fresh table build
    python benchmarks/perf/optimal.py --suite depth-17-v1 --limit 10 --known-scramble

Every answer is checked (solved, and as long as the proof says); a cube whose search runs out
of ``--time-limit`` counts as unsolved and its time as the limit, so the median and p90 are
honest lower bounds when any cube ran out. Times depend on the machine: the CPU is printed
with them.
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path

import numpy as np

from cubebench.harness.cube import (
    apply_sequence,
    facelets_to_state,
    invert_sequence,
    is_solved,
    length_qtm,
    parse_moves,
)
from cubebench.harness.records.provenance import machine_info
from cubebench.harness.solver import Budget
from cubebench.harness.suites.catalog import load_suite
from cubebench.solvers.optimal.solver import OptimalSettings, OptimalSolver
from cubebench.solvers.patterns import tables


def _build(metric: str, size: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        tables.load(size, metric, Path(folder))
        took = time.perf_counter() - start
        mb = sum(p.stat().st_size for p in Path(folder).glob("*.npy")) / 1e6
    print(f"build {size} {metric}: {took:.1f} s, {mb:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", default="depth-16-v1")
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--metric", choices=("htm", "qtm"), default="htm")
    parser.add_argument("--tables", choices=("small", "large", "xlarge", "dense"), default="large")
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--build", action="store_true", help="time a fresh table build too")
    parser.add_argument(
        "--json", type=Path, help="write each cube's length, nodes and seconds here"
    )
    parser.add_argument(
        "--against", type=Path, help="an earlier --json of the same cubes: print the ratios"
    )
    parser.add_argument(
        "--known-scramble",
        action="store_true",
        help="hand the solver each scramble's inverse as a known solution, as the annotation does",
    )
    args = parser.parse_args()
    print(f"CPU: {machine_info()['cpu']} ({platform.machine()}), one core for the search")
    if args.build:
        _build(args.metric, args.tables)
    start = time.perf_counter()
    solver = OptimalSolver(OptimalSettings(metric=args.metric, tables=args.tables))
    print(f"load (tables read and checked, search compiled): {time.perf_counter() - start:.1f} s")
    times, rates, lengths, unsolved, rows, agree = [], [], [], 0, [], 0
    for instance in load_suite(args.suite, limit=args.limit).instances[: args.limit]:
        state = facelets_to_state(instance.facelets)
        known = None
        if args.known_scramble and instance.scramble:
            known = invert_sequence(parse_moves(instance.scramble))
        start = time.perf_counter()
        attempt = solver.solve(state, Budget(wall_seconds=args.time_limit), known=known)
        took = time.perf_counter() - start
        times.append(took)
        rates.append(attempt.nodes_expanded / max(took, 1e-9))
        row = {"id": instance.id, "nodes": attempt.nodes_expanded, "seconds": round(took, 3)}
        rows.append(row)
        if not attempt.moves and not is_solved(state):
            unsolved += 1
            print(f"#{instance.id}: out of time, {attempt.info['gave_up']}, {took:.1f} s")
            continue
        moves = list(attempt.moves)
        assert is_solved(apply_sequence(state, moves))
        length = len(moves) if args.metric == "htm" else length_qtm(moves)
        assert attempt.info[f"optimal_{args.metric}"] == length
        lengths.append(length)
        row["length"] = length
        annotated = getattr(instance, f"optimal_{args.metric}")
        assert annotated is None or annotated == length, (instance.id, annotated, length)
        agree += annotated is not None
        nodes = attempt.nodes_expanded
        print(f"#{instance.id}: {length} {args.metric}, {nodes:,} nodes, {took:.2f} s")
    t = np.array(times)
    print(
        f"{args.suite} {args.metric} ({args.tables}): {len(t) - unsolved}/{len(t)} proved within "
        f"{args.time_limit:g} s; mean optimum {np.mean(lengths) if lengths else float('nan'):.2f}; "
        f"time median {np.median(t):.2f} s, p90 {np.percentile(t, 90):.2f} s, max {t.max():.2f} s; "
        f"{np.median(rates) / 1e6:.1f} M nodes/s (median over cubes)"
    )
    print(f"lengths equal to the suite's annotated optima: {agree} (every one annotated)")
    for length in sorted(set(lengths)):  # as the peers report it: by optimal length
        at = np.array([r["seconds"] for r in rows if r.get("length") == length])
        print(
            f"  {length} {args.metric}: {len(at)} cubes, mean {at.mean():.2f} s, max {at.max():.2f}"
        )
    if args.json:
        meta = {"suite": args.suite, "metric": args.metric, "tables": args.tables}
        args.json.write_text(json.dumps({**meta, "cpu": machine_info()["cpu"], "cubes": rows}))
    if args.against:
        _ratios(rows, json.loads(args.against.read_text())["cubes"])


def _ratios(rows: list[dict], before: list[dict]) -> None:
    """This run's nodes and seconds over an earlier run's, on the cubes both proved."""
    old = {r["id"]: r for r in before if "length" in r}
    both = [(r, old[r["id"]]) for r in rows if "length" in r and r["id"] in old]
    if not both:
        print("no cube proved in both runs")
        return
    for key in ("nodes", "seconds"):
        ratio = np.array([r[key] / max(o[key], 1e-9) for r, o in both])
        total = sum(r[key] for r, _ in both) / sum(o[key] for _, o in both)
        print(
            f"{key} against the earlier run on {len(both)} cubes: total {total:.3f}, "
            f"median {np.median(ratio):.3f}, range {ratio.min():.3f}-{ratio.max():.3f}"
        )


if __name__ == "__main__":
    main()
