"""What fewer starts would have found, and taken, from one run with many.

Run: ``python benchmarks/starts_curve.py RUN [--solver LABEL] [--against RUN2]``. A search
with ``starts=K`` records, per cube, what each start found (``info.start_lengths``: none
where it found nothing shorter than the starts before it) and what each cost
(``info.start_seconds``). Since the starts run in a fixed order, the first k of them are
exactly a search with ``starts=k`` (where none ran out of time), so one run gives the whole
curve: for every k, the mean length of the best of the first k starts and the time they
took. Each k is paired with k = 2 (the two-start search) on the same cubes, with the
paired bootstrap 95% interval ``bench compare`` gives. ``--against`` pairs the run's solved cubes
with another run's (another width at equal time, say) for every k.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

import numpy as np

from cubebench.harness.metrics import paired_bootstrap_diff


def _records(run: Path, solver: str) -> dict[int, dict]:
    """Solved records of ``solver`` in ``run``, by instance."""
    out = {}
    for line in (run / "records.jsonl").read_text().splitlines():
        record = json.loads(line)
        if record["solver"] == solver and record["status"] == "solved":
            out[record["instance"]] = record
    return out


def best_of_first(record: dict, k: int) -> int:
    """The shortest length the first ``k`` starts found (the first start always answers in
    a solved record)."""
    return min(n for n in record["info"]["start_lengths"][:k] if n is not None)


def _paired(base: np.ndarray, new: np.ndarray) -> str:
    """``new - base`` per cube: the mean, its bootstrap interval (the one ``bench compare``
    gives) and how many cubes each way."""
    mean, low, high = paired_bootstrap_diff(base, new)
    diff = new - base
    shorter, longer = int((diff < 0).sum()), int((diff > 0).sum())
    return f"{mean:+.2f} [{low:+.2f}, {high:+.2f}], {shorter} shorter, {longer} longer"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--solver", default="cayley-mlp")
    parser.add_argument("--against", type=Path, help="another run of the same cubes")
    args = parser.parse_args()
    records = _records(args.run, args.solver)
    if not records:
        parser.error(f"{args.run}: no solved {args.solver!r} records")
    if any("start_seconds" not in r["info"] for r in records.values()):
        parser.error(f"{args.run}: its records do not give each start's seconds")
    other = _records(args.against, args.solver) if args.against else {}
    cubes = sorted(set(records) & set(other)) if other else sorted(records)
    starts = min(len(records[i]["info"]["start_lengths"]) for i in cubes)
    two = np.array([best_of_first(records[i], 2) for i in cubes], float)
    print(f"{len(cubes)} cubes solved; starts 1..{starts}")
    print("k | mean length | median s | p90 s | max s | against k = 2 (95% CI)")
    for k in range(1, starts + 1):
        lengths = np.array([best_of_first(records[i], k) for i in cubes], float)
        times = [sum(records[i]["info"]["start_seconds"][:k]) for i in cubes]
        versus = "" if k == 2 else _paired(two, lengths)
        print(
            f"{k} | {lengths.mean():.2f} | {statistics.median(times):.1f} | "
            f"{np.percentile(times, 90):.1f} | {max(times):.1f} | {versus}"
        )
    if other:
        theirs = np.array([other[i]["length_qtm"] for i in cubes], float)
        walls = [other[i]["wall_s"] for i in cubes]
        print(
            f"{args.against}: {theirs.mean():.2f}, median {statistics.median(walls):.1f} s; "
            "it minus k starts of the run:"
        )
        for k in range(1, starts + 1):
            lengths = np.array([best_of_first(records[i], k) for i in cubes], float)
            print(f"  k = {k}: {_paired(lengths, theirs)}")


if __name__ == "__main__":
    main()
