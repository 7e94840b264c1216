"""cubebench's ``optimal`` (the ``dense`` tables) beside vcube's ``vc-optimal`` on the same
cubes, in face turns: one core each, side by side.

vcube (github.com/Voltara/vcube) is an optimal face-turn solver in C++ with AVX2; its
coordinate ``112`` (2.4 GiB) is the coset space of the ``dense`` table, so the two differ
in the walk and its implementation, not in the table's information. Build it as its README
says (with g++ rather than clang, drop ``constexpr`` from ``edgecube``'s constructor in
``src/cube.h``), generate its table once (``vc-optimal --coord=112 --no-input``), and, so that
its table lands on 2 MB pages as ours does, reserve them first (``vm.nr_hugepages``: 1,300
for ``112``); without them it runs on 4 KB pages and takes about 1.7 times as long.

    python benchmarks/perf/optimal_vs_vcube.py --vcube ~/vcube/vc-optimal --scrambles s18.txt

``--scrambles``: one move sequence a line (nissy-core's ``benchmarks/scrambles/`` has 25
random states at each optimal length). vcube runs pinned to core 0 from its own folder (it
reads its tables from ``tables/`` there), this process on core 1; every solution of either
is replayed here, and the lengths must agree.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from pathlib import Path

import numpy as np

from cubebench.harness.cube import SOLVED, NotationError, apply_sequence, is_solved, parse_moves
from cubebench.harness.records.provenance import machine_info
from cubebench.harness.solver import Budget
from cubebench.solvers.optimal.solver import OptimalSettings, OptimalSolver


def start_vcube(binary: Path, coord: str, scrambles: list[str]) -> subprocess.Popen[str]:
    """vcube on core 0, one worker, answers in input order."""
    command = ["taskset", "-c", "0", str(binary.resolve()), f"--coord={coord}", "-w", "1", "-O"]
    process = subprocess.Popen(
        command,
        cwd=binary.parent,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdin is not None
    process.stdin.write("".join(s + "\n" for s in scrambles))
    process.stdin.close()
    return process


def read_vcube(process: subprocess.Popen[str], states: list[np.ndarray]) -> list[tuple[int, float]]:
    """(length, seconds) of each cube, every solution replayed on the harness's cube."""
    assert process.stdout is not None
    out: list[tuple[int, float]] = []
    for line in process.stdout:  # "<sequence> <seconds> <length> <moves>"
        fields = line.split()
        index, seconds, length = int(fields[0]), float(fields[1]), int(fields[2])
        moves = parse_moves(" ".join(fields[3:]))
        assert len(moves) == length and is_solved(apply_sequence(states[index], moves)), line
        out.append((length, seconds))
    if process.wait() != 0 or len(out) != len(states):
        raise SystemExit(f"vcube answered {len(out)} of {len(states)} cubes")
    return out


def ours(states: list[np.ndarray], time_limit: float) -> list[tuple[int, float]]:
    """(length, seconds) of each cube from ``optimal`` on this process's core."""
    solver = OptimalSolver(OptimalSettings(metric="htm", tables="dense"))
    out = []
    for state in states:
        start = time.perf_counter()
        attempt = solver.solve(state, Budget(wall_seconds=time_limit))
        took = time.perf_counter() - start
        moves = list(attempt.moves)
        if not moves:
            raise SystemExit(f"optimal ran out of {time_limit:g} s on a cube")
        assert is_solved(apply_sequence(state, moves))
        out.append((len(moves), took))
    return out


def row(name: str, answers: list[tuple[int, float]]) -> str:
    t = np.array([s for _, s in answers])
    return (
        f"| {name} | {np.median(t):.2f} | {t.mean():.2f} | {np.percentile(t, 90):.2f} | "
        f"{t.max():.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vcube", type=Path, required=True, help="the built vc-optimal")
    parser.add_argument("--scrambles", type=Path, required=True, help="a move sequence a line")
    parser.add_argument("--coord", default="112", help="vcube's table (112: 2.4 GiB)")
    parser.add_argument("--time-limit", type=float, default=900.0)
    args = parser.parse_args()
    if not args.vcube.is_file():
        parser.error(f"--vcube {args.vcube}: no such program")
    if not args.scrambles.is_file():
        parser.error(f"--scrambles {args.scrambles}: no such file")
    lines = [s.strip() for s in args.scrambles.read_text().splitlines() if s.strip()]
    try:
        states = [apply_sequence(SOLVED, parse_moves(s)) for s in lines]
    except NotationError as exc:
        parser.error(f"--scrambles {args.scrambles}: {exc}")
    machine = machine_info()
    print(f"{machine['cpu']}, {machine['cores']} cores; one core each, side by side")
    os.sched_setaffinity(0, {1})
    vcube = start_vcube(args.vcube, args.coord, lines)
    mine = ours(states, args.time_limit)
    theirs = read_vcube(vcube, states)
    if [n for n, _ in mine] != [n for n, _ in theirs]:
        raise SystemExit(f"lengths differ: {[n for n, _ in mine]} against {theirs}")
    print(f"{len(states)} cubes, lengths agree: {sorted(set(n for n, _ in mine))}")
    print("| solver | median s | mean s | p90 s | max s |")
    print("|---|---|---|---|---|")
    print(row("optimal (dense, 2.52 GB)", mine))
    print(row(f"vcube {args.coord}", theirs))


if __name__ == "__main__":
    main()
