"""Development scrambles: choose a setting without looking at a benchmark suite.

``python benchmarks/tools/dev_suite.py --depth 7 --count 1000 --out FILE.jsonl`` writes canonical
depth-k scrambles drawn exactly as the built-in ``depth-k-v1`` suites are (uniform over
canonical sequences) but from a separate seed stream, ``default_rng([DEV_SEED, k])``, so
that no instance is chosen from, or shares a stream with, the suites a run is reported on.
``--random-state`` writes uniformly random cubes as ``random-state-v1``'s are, from
``default_rng([DEV_SEED, 0])``: the development set for full-depth settings (beam widths,
meet in the middle), never the DeepCubeA set.
``bench run --suite FILE.jsonl`` takes the file by path. A setting picked on these and then
measured once on the suite is not tuned on the suite.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cubebench.harness.suites.generate import DEV_SEED, depth_instances, random_state_instances
from cubebench.harness.suites.model import write_suite_file


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    kind = parser.add_mutually_exclusive_group(required=True)
    kind.add_argument("--depth", type=int, help="scramble length, 1..20")
    kind.add_argument("--random-state", action="store_true", help="uniformly random cubes")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--out", type=Path, required=True, help="JSONL file to write")
    args = parser.parse_args()
    if args.depth is not None and not 1 <= args.depth <= 20:
        parser.error(f"--depth {args.depth}: must be in 1..20")
    if args.count < 1:
        parser.error(f"--count {args.count}: must be >= 1")
    if args.random_state:
        instances, what = random_state_instances(args.count, seed=DEV_SEED), "random cubes"
    else:
        instances = depth_instances(args.depth, args.count, seed=DEV_SEED)
        what = f"depth-{args.depth} scrambles"
    digest = write_suite_file(args.out, instances)
    print(f"{args.out}: {args.count} {what}, sha256 {digest[:12]}…")


if __name__ == "__main__":
    main()
