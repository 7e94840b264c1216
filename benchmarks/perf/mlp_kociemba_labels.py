"""Kociemba label throughput and what every-prefix labelling does to the label distribution.

``python benchmarks/perf/mlp_kociemba_labels.py --count 3000 --workers 2`` makes a fresh label
set (not the cache) and prints labels per second; with ``--cached N`` it reads the cached
training set of N calls instead (``--bound-until 0``: the seed's unbounded labels) and
prints, for the seed's one label per call (``step 0``) and for every prefix, the share of
labels by moves remaining and by scramble length.
"""

from __future__ import annotations

import argparse

import numpy as np

from cubebench.harness.hardware import instruction_set
from cubebench.harness.records.provenance import machine_info
from cubebench.solvers.mlp_kociemba.labels import BOUND_UNTIL, LabelSet, generate, load_or_generate


def shares(values: np.ndarray, bins: list[tuple[int, int]]) -> str:
    return "  ".join(
        f"{lo}-{hi}: {np.mean((values >= lo) & (values <= hi)):6.1%}" for lo, hi in bins
    )


def describe(labels: LabelSet) -> None:
    first = labels.subset(labels.step == 0)
    bins = [(1, 4), (5, 8), (9, 12), (13, 16), (17, 20), (21, 25)]
    print(f"{len(first):,} calls, {len(labels):,} labels ({len(labels) / len(first):.2f} a call)")
    for name, part in (("one label a call (the seed's)", first), ("every prefix", labels)):
        print(f"{name}:")
        print(
            f"  moves remaining  mean {part.remaining.mean():5.2f}  {shares(part.remaining, bins)}"
        )
        moves = np.bincount(part.labels, minlength=18) / len(part)
        print(f"  move shares min {moves.min():.3f} max {moves.max():.3f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--cached", type=int, default=None, help="describe this cached set")
    parser.add_argument("--bound-until", type=int, default=BOUND_UNTIL, help="0: the seed's")
    args = parser.parse_args()
    if args.cached:
        describe(load_or_generate(args.cached, bound_until=args.bound_until))
        return
    labels, rate = generate(
        args.count, seed=12345, workers=args.workers, bound_until=args.bound_until
    )
    where = f"{machine_info()['cpu']} ({instruction_set()}, {args.workers or 'all'} workers)"
    print(f"{where}: {len(labels):,} labels from {args.count:,} calls, {rate:,.0f} labels/s")
    describe(labels)


if __name__ == "__main__":
    main()
