"""Merge the optima proved elsewhere (a copy of a suite file that ``bench suites annotate``
wrote on another machine) into this checkout's registered suite.

    python benchmarks/merge_optima.py SUITE FILE

Only instances with the same cubes are merged; exact optima replace lower bounds, a lower
bound only raises the one known. The suite's cubes and states hash do not change.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from cubebench.harness.suites.model import Instance, parse_instances
from cubebench.harness.suites.registry import update_suite


def merge(name: str, path: Path) -> int:
    theirs = {i.id: i for i in parse_instances(path.read_bytes(), str(path))}
    merged = 0

    def change(instances: list[Instance], meta: dict) -> tuple[list[Instance], dict]:
        nonlocal merged
        out = []
        for mine in instances:
            other = theirs.get(mine.id)
            if other is None or other.facelets != mine.facelets:
                out.append(mine)
                continue
            for metric in ("htm", "qtm"):
                exact, low = f"optimal_{metric}", f"optimal_{metric}_min"
                if getattr(mine, exact) is None and getattr(other, exact) is not None:
                    changes: dict[str, Any] = {exact: getattr(other, exact), low: None}
                    mine = replace(mine, **changes)
                    merged += 1
                elif getattr(mine, exact) is None and getattr(other, low) is not None:
                    best = max(getattr(mine, low) or 0, getattr(other, low))
                    mine = replace(mine, **{low: best})  # type: ignore[arg-type]
            out.append(mine)
        for metric in ("htm", "qtm"):
            meta[f"optimal_{metric}_proved"] = sum(
                getattr(i, f"optimal_{metric}") is not None for i in out
            )
        return out, meta

    update_suite(name, change)
    return merged


if __name__ == "__main__":
    suite, file = sys.argv[1], Path(sys.argv[2])
    print(f"{suite}: {merge(suite, file)} exact optima merged from {file}")
