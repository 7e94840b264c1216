"""cubebench's ``optimal`` beside Michael Reid's optimal solver, in quarter turns, on the same
cubes: one core each, side by side, each through ``bench run`` (so every answer is replayed
and each solver's time is taken by the harness the same way).

    python benchmarks/perf/optimal_vs_reid.py --suite qdepth-14-v1 --limit 20
    python benchmarks/perf/optimal_vs_reid.py --deepcubea ../shared/data/deepcubea-cube3-test.jsonl

``--deepcubea FILE``: the DeepCubeA test set's 20 cubes nearest to solved (by the optimal
quarter-turn lengths its authors published), imported as a suite of their own. Both runs
start together, ``optimal`` pinned to core 0 and ``reid-optimal`` to core 1, and the table
gives, for each: cubes proved, median and p90 seconds a cube, nodes a second, and whether
the lengths agree cube for cube. Reid's program prints the nodes of each depth it completes,
not of the last one, which it leaves at its first solution: its nodes (and nodes a second)
are lower bounds.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from cubebench.harness.records.provenance import machine_info
from cubebench.harness.records.store import RunStore

ENTRIES = {
    "optimal": ["-s", "optimal", "--set", "metric=qtm"],
    "reid-optimal": ["-s", "reid-optimal"],
}


def nearest(path: Path, count: int, home: Path) -> str:
    """Import the ``count`` cubes of the DeepCubeA set nearest to solved as a suite."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    rows.sort(key=lambda r: (r["optimal_qtm"], r["id"]))
    text = home / "deepcubea-nearest.txt"
    text.write_text("".join(r["facelets"] + "\n" for r in rows[:count]))
    name = f"deepcubea-nearest-{count}"
    bench = [sys.executable, "-m", "cubebench.harness.cli.main"]
    subprocess.run([*bench, "suites", "import", "text", str(text), "--name", name], check=True)
    return name


def side_by_side(suite: str, limit: int, out: Path, time_limit: float) -> dict[str, Path]:
    bench = [sys.executable, "-m", "cubebench.harness.cli.main", "run"]
    running = {}
    for core, (entry, args) in enumerate(ENTRIES.items()):
        run_id = f"{entry}-{suite}"
        command = ["taskset", "-c", str(core), *bench, *args, "--suite", f"{suite}:{limit}"]
        command += ["--workers", "1", "--time-limit", str(time_limit), "--no-report"]
        command += ["--out", str(out), "--run-id", run_id]
        running[entry] = (subprocess.Popen(command), out / run_id)
    for process, _ in running.values():
        process.wait()
    return {entry: folder for entry, (_, folder) in running.items()}


def table(folders: dict[str, Path]) -> None:
    records = {
        entry: sorted(RunStore(folder).read_records(), key=lambda r: r.instance)
        for entry, folder in folders.items()
    }
    lengths = {
        entry: [r.length_qtm if r.status == "solved" else None for r in rows]
        for entry, rows in records.items()
    }
    agree = lengths["optimal"] == lengths["reid-optimal"]
    print("| solver | proved | median s | p90 s | max s | nodes a second | lengths |")
    print("|---|---|---|---|---|---|---|")
    for entry, rows in records.items():
        solved = [r for r in rows if r.status == "solved"]
        wall = np.array([r.wall_s for r in rows])
        rate = sum(r.nodes for r in solved) / max(sum(r.wall_s for r in solved), 1e-9)
        bound = " (lower bound)" if entry == "reid-optimal" else ""
        print(
            f"| {entry} | {len(solved)} of {len(rows)} | {np.median(wall):.2f} | "
            f"{np.percentile(wall, 90):.2f} | {wall.max():.2f} | {rate / 1e6:.2f} M{bound} | "
            f"{'agree' if agree else 'DIFFER'} |"
        )
    print("lengths:", lengths["optimal"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", default="qdepth-14-v1")
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--deepcubea", type=Path, help="the DeepCubeA set (JSON Lines)")
    parser.add_argument("--time-limit", type=float, default=900.0)
    parser.add_argument("--out", type=Path, default=None, help="where the two runs go")
    args = parser.parse_args()
    machine = machine_info()
    print(f"{machine['cpu']}, {machine['cores']} cores; one core each, side by side")
    out = args.out or Path(tempfile.mkdtemp(prefix="optimal-vs-reid-"))
    suite = args.suite
    if args.deepcubea is not None:
        suite = nearest(args.deepcubea, args.limit, out)
    table(side_by_side(suite, args.limit, out, args.time_limit))


if __name__ == "__main__":
    main()
