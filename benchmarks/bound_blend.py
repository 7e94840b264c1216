"""Would a pattern database's lower bound, added to the learned value, shorten the beam's paths?

Run: ``python benchmarks/bound_blend.py --suite .cubebench/dev/random-dev.jsonl --limit 50
[--alphas 0,0.25] [--width 65536] [--starts 2] [--time-limit 120] [--out FILE.jsonl]``.
For every weight ``alpha`` the ``cayley-mlp`` beam (quarter turns, ``mitm_radius=7``) scores
a state by its learned distance plus ``alpha`` times the corner pattern database's distance
of the state or of its inverse, whichever is larger: an exact distance of the corners alone,
which a walk-length regression cannot see once its values saturate far from solved.
Each weight is the solver's ``--set value_bound=ALPHA``, its starts as ``starts`` runs them
(the cube, then its inverse for a path two moves shorter), every weight in one process.
Prints the mean length and median seconds a weight; ``bench compare``-style pairing is left
to the caller (``--out`` keeps every length).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from cubebench.harness import Budget
from cubebench.harness.cube import apply_sequence, facelets_to_state, is_solved
from cubebench.harness.registry import make_solver
from cubebench.harness.suites.catalog import load_suite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", required=True, help="development cubes (a JSONL path)")
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--skip", type=int, default=0, help="begin after this many cubes")
    parser.add_argument("--alphas", default="0,0.25", help="weights of the bound")
    parser.add_argument("--width", type=int, default=65536)
    parser.add_argument("--starts", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=120, help="seconds a cube")
    parser.add_argument("--out", type=Path, help="append one JSON line a weight here")
    args = parser.parse_args()
    alphas = [float(a) for a in args.alphas.split(",")]
    if any(a < 0 for a in alphas):
        parser.error(f"--alphas {args.alphas}: weights must be at least 0")
    cubes = load_suite(args.suite).instances[args.skip : args.skip + args.limit]
    for alpha in alphas:
        settings = {"beam_width": args.width, "mitm_radius": 7, "starts": args.starts}
        solver = make_solver("cayley-mlp", {**settings, "value_bound": alpha})
        lengths, seconds = [], []
        for instance in cubes:
            cube = facelets_to_state(instance.facelets)
            began = time.monotonic()
            with solver.inference():
                best = solver.solve(cube, Budget(wall_seconds=args.time_limit)).moves
            if not best or not is_solved(apply_sequence(cube, best)):
                raise SystemExit(f"cube {instance.id}: unsolved with alpha={alpha}")
            lengths.append(len(best))
            seconds.append(time.monotonic() - began)
        row = {
            "alpha": alpha,
            "width": args.width,
            "starts": args.starts,
            "cubes": len(lengths),
            "mean_qtm": round(statistics.fmean(lengths), 3),
            "median_s": round(statistics.median(seconds), 2),
            "lengths": lengths,
        }
        print(json.dumps({k: v for k, v in row.items() if k != "lengths"}), flush=True)
        if args.out:
            with args.out.open("a") as out:
                print(json.dumps(row), file=out)


if __name__ == "__main__":
    main()
