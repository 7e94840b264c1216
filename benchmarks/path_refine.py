"""Would searching again from a state along the found path shorten it?

Run: ``python benchmarks/path_refine.py --suite .cubebench/dev/random-dev.jsonl --limit 50
[--at 2,4,6] [--width 65536] [--out FILE.jsonl]``. For every cube, ``cayley-mlp`` first
solves it as the DeepCubeA set is run (W = ``--width``, two starts, ``mitm_radius=7``, one
thread); then, for each k of ``--at``, the state k moves along that path, and its inverse,
are searched again by a fresh beam of the same width for a rest at least two moves shorter
than the path's. The whole width then goes to one state's subtree, where the first search
spread it over thousands, and the inverse is valued with other errors; any shorter rest,
joined to the first k moves, is replayed on the cube. It prints how many paths a re-search
shortened and what each re-search cost. Development cubes only: never a benchmark suite.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from cubebench.harness import Budget, move_set
from cubebench.harness.cube import apply_sequence, facelets_to_state, is_solved
from cubebench.harness.registry import make_solver
from cubebench.harness.suites.catalog import load_suite
from cubebench.solvers.search import CheckedModel, beam_search
from cubebench.solvers.search.meet import meet_table
from cubebench.solvers.search.models import SearchLimits
from cubebench.solvers.search.starts import Start, map_back, start_state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", required=True, help="development cubes (a JSONL path)")
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--skip", type=int, default=0, help="begin after this many cubes")
    parser.add_argument("--at", default="2,4,6", help="moves along the path to search from")
    parser.add_argument("--width", type=int, default=65536)
    parser.add_argument("--out", type=Path, help="append one JSON line a cube here")
    args = parser.parse_args()
    at = [int(k) for k in args.at.split(",")]
    if any(k < 1 for k in at):
        parser.error(f"--at {args.at}: every position must be at least 1")
    settings = {"beam_width": args.width, "mitm_radius": 7, "starts": 2, "threads": 1}
    solver = make_solver("cayley-mlp", settings)
    moves, meet = move_set("qtm"), meet_table("qtm", 7)
    shortened, costs = 0, {k: [] for k in at}
    cubes = load_suite(args.suite).instances[args.skip : args.skip + args.limit]
    for instance in cubes:
        cube = facelets_to_state(instance.facelets)
        with solver.inference():
            path = tuple(solver.solve(cube, Budget(wall_seconds=120)).moves)
        if not is_solved(apply_sequence(cube, path)):
            print(f"cube {instance.id}: unsolved in 120 s, left out")
            continue
        record: dict = {"id": instance.id, "length": len(path), "again": []}
        best = len(path)
        for k in at:
            rest = len(path) - k - 2  # the longest rest that would shorten the path
            for inverse in (True, False):
                start = Start(0, inverse)
                began = time.monotonic()
                limits = SearchLimits(max_depth=rest)
                model = CheckedModel(solver.value, "value", 16384, limits)
                with solver.inference():
                    found = beam_search(
                        start_state(apply_sequence(cube, path[:k]), start),
                        model,
                        args.width,
                        "value",
                        moves,
                        meet,
                    ).moves
                took = time.monotonic() - began
                costs[k].append(took)
                length = None
                if found is not None:
                    joined = path[:k] + map_back(found, start)
                    if not is_solved(apply_sequence(cube, joined)):
                        raise SystemExit(f"cube {instance.id}: a re-search does not solve it")
                    length = len(joined)
                    best = min(best, length)
                record["again"].append({"k": k, "inverse": inverse, "length": length})
        shortened += best < len(path)
        if args.out:
            with args.out.open("a") as out:
                print(json.dumps({**record, "best": best}), file=out)
    print(f"{len(cubes)} cubes: {shortened} paths shortened by a re-search")
    for k, seconds in costs.items():
        print(f"  from {k} moves along: median {statistics.median(seconds):.2f} s a re-search")


if __name__ == "__main__":
    main()
