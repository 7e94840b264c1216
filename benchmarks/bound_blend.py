"""Would a pattern database's lower bound, added to the learned value, shorten the beam's paths?

Run: ``python benchmarks/bound_blend.py --suite .cubebench/dev/random-dev.jsonl --limit 50
[--alphas 0,0.25] [--width 65536] [--starts 2] [--time-limit 120] [--out FILE.jsonl]``.
For every weight ``alpha`` the ``cayley-mlp`` beam (quarter turns, ``mitm_radius=7``) scores
a state by its learned distance plus ``alpha`` times the corner pattern database's distance
of the state or of its inverse, whichever is larger: an exact distance of the corners alone,
which a walk-length regression cannot see once its values saturate far from solved.
The same as ``--set value_bound=ALPHA``, with every weight in one process. Starts run as
``starts`` does: the cube, then its inverse for a path two moves shorter.
Prints the mean length and median seconds a weight; ``bench compare``-style pairing is left
to the caller (``--out`` keeps every length).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

from cubebench.harness import move_set
from cubebench.harness.cube import apply_sequence, facelets_to_state, is_solved
from cubebench.harness.registry import make_solver
from cubebench.harness.suites.catalog import load_suite
from cubebench.solvers.optimal.bounds import corner_bound
from cubebench.solvers.search import CheckedModel, beam_search
from cubebench.solvers.search.meet import meet_table
from cubebench.solvers.search.models import SearchLimits
from cubebench.solvers.search.starts import Start, map_back, start_state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", required=True, help="development cubes (a JSONL path)")
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--skip", type=int, default=0, help="begin after this many cubes")
    parser.add_argument("--alphas", default="0,0.25", help="weights of the bound")
    parser.add_argument("--width", type=int, default=65536)
    parser.add_argument("--starts", type=int, choices=(1, 2), default=2)
    parser.add_argument("--time-limit", type=float, default=120, help="seconds a cube")
    parser.add_argument("--out", type=Path, help="append one JSON line a weight here")
    args = parser.parse_args()
    alphas = [float(a) for a in args.alphas.split(",")]
    if any(a < 0 for a in alphas):
        parser.error(f"--alphas {args.alphas}: weights must be at least 0")
    solver = make_solver("cayley-mlp", {"beam_width": args.width, "mitm_radius": 7})
    moves, meet = move_set("qtm"), meet_table("qtm", 7)

    def bound(states: np.ndarray) -> np.ndarray:  # (54, N) -> (N,)
        return corner_bound(states, "qtm")

    cubes = load_suite(args.suite).instances[args.skip : args.skip + args.limit]
    for alpha in alphas:
        lengths, seconds = [], []
        value = solver.value if alpha == 0 else (lambda s, a=alpha: solver.value(s) + a * bound(s))
        for instance in cubes:
            cube = facelets_to_state(instance.facelets)
            began, best = time.monotonic(), None
            with solver.inference():
                for k in range(args.starts):
                    start = Start(0, bool(k))
                    deadline = began + args.time_limit
                    longest = 40 if best is None else len(best) - 2
                    limits = SearchLimits(deadline=deadline, max_depth=longest)
                    model = CheckedModel(value, "value", 16384, limits)
                    found = beam_search(
                        start_state(cube, start), model, args.width, "value", moves, meet
                    ).moves
                    if found is not None and (best is None or len(found) < len(best)):
                        best = map_back(found, start)
            if best is None or not is_solved(apply_sequence(cube, best)):
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
