"""Would polishing solutions shorten them? Segments of a run's solutions against the optimum.

Run: ``python benchmarks/polish.py results/RUN [--solver LABEL] [--longest 12]``. For every
solved record of the run (quarter-turn searches), every contiguous segment of 2..``longest``
moves is replaced, in thought, by the shortest sequence with the same effect: the segment
applied to the solved cube gives a state whose distance to solved the meet-in-the-middle
oracle knows exactly (table of all states within 7 quarter turns, plus a search of up to
``longest - 9`` levels from the state). A solution with a segment longer than its distance
could be shortened without any search; the script counts those segments and the moves a
best set of non-overlapping replacements would save. Beam searches with a meet-in-the-middle
finish are locally optimal when it finds none, and polishing then has nothing to give.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from cubebench.harness import SOLVED, apply_sequence, parse_moves
from cubebench.solvers.search.meet import meet_table


def segment_savings(moves: list[int], longest: int, oracle) -> tuple[int, int]:
    """(shortenable segments, moves saved by the best non-overlapping replacements)."""
    n = len(moves)
    saving = {}
    for length in range(2, min(longest, n) + 1):
        levels = max(0, length - 2 - oracle.radius)  # a shorter segment is >= 2 shorter
        for start in range(n - length + 1):
            state = apply_sequence(SOLVED.reshape(54, 1), moves[start : start + length])
            distance, exact = oracle.distances(state, max_levels=levels)
            if exact[0] and distance[0] < length:
                saving[start, start + length] = length - int(distance[0])
    best = [0] * (n + 1)  # best[j]: most moves saved within the first j moves
    for end in range(1, n + 1):
        best[end] = max([best[end - 1]] + [best[s] + v for (s, e), v in saving.items() if e == end])
    return len(saving), best[n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("run", type=Path)
    parser.add_argument("--solver", default=None, help="one entry's label (default: all)")
    parser.add_argument("--longest", type=int, default=12, help="longest segment tried")
    args = parser.parse_args()
    oracle = meet_table("qtm", 7)
    totals: dict[str, list[tuple[int, int, int]]] = {}
    for line in (args.run / "records.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record["status"] != "solved" or args.solver not in (None, record["solver"]):
            continue
        if record.get("metric") != "qtm":
            raise SystemExit(f"{args.run}: {record['solver']} searched {record.get('metric')}")
        moves = parse_moves(record["moves"])
        found, saved = segment_savings(moves, args.longest, oracle)
        totals.setdefault(record["solver"], []).append((len(moves), found, saved))
    print(
        f"| entry | solved | mean QTM | segments of 2..{args.longest} shortenable | "
        "mean QTM after polishing |"
    )
    print("|---|---|---|---|---|")
    for solver, rows in totals.items():
        a = np.array(rows)
        print(
            f"| {solver} | {len(a)} | {a[:, 0].mean():.2f} | {int(a[:, 1].sum())} | "
            f"{(a[:, 0] - a[:, 2]).mean():.2f} |"
        )


if __name__ == "__main__":
    main()
