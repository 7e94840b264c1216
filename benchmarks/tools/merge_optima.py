"""Merge the optima proved elsewhere (a copy of a suite file that ``bench suites annotate``
wrote on another machine) into this checkout's registered suite.

    python benchmarks/tools/merge_optima.py SUITE FILE

Only instances with the same cubes are merged; exact optima replace lower bounds, a lower
bound only raises the one known. The suite's cubes and states hash do not change.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cubebench.harness.suites.catalog import update_suite
from cubebench.harness.suites.model import Instance, parse_instances, with_proved


def merge(name: str, path: Path) -> int:
    theirs = {i.facelets: i for i in parse_instances(path.read_bytes(), str(path))}
    merged = 0

    def change(instances: list[Instance], meta: dict) -> tuple[list[Instance], dict]:
        nonlocal merged
        out = [with_proved(i, theirs[i.facelets]) if i.facelets in theirs else i for i in instances]
        merged = sum(a != b for a, b in zip(instances, out, strict=True))
        for metric in ("htm", "qtm"):
            meta[f"optimal_{metric}_proved"] = sum(
                getattr(i, f"optimal_{metric}") is not None for i in out
            )
        return out, meta

    update_suite(name, change, shipped=True)  # a checkout's shipped file, for a release
    return merged


if __name__ == "__main__":
    suite, file = sys.argv[1], Path(sys.argv[2])
    print(f"{suite}: {merge(suite, file)} instances gained optima or bounds from {file}")
