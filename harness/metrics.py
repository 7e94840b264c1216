"""Summary statistics of runs: solve rate with Wilson intervals, lengths, time, effort."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from harness.records.schema import Record


def wilson_interval(
    successes: int, trials: int, z: float = 1.959963984540054
) -> tuple[float, float]:
    """95% Wilson score interval for a proportion; (0, 1) when there are no trials."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Summary:
    solver: str
    suite: str
    n: int
    solved: int
    rate_low: float
    rate_high: float
    mean_htm: float | None
    mean_qtm: float | None
    mean_gap: float | None
    optimal_share: float | None
    median_s: float | None
    p90_s: float | None
    mean_nodes: float | None
    statuses: dict[str, int]

    @property
    def rate(self) -> float:
        return self.solved / self.n if self.n else 0.0


def summarize(records: Iterable[Record]) -> list[Summary]:
    """One summary per (solver, suite), in first-seen order."""
    groups: dict[tuple[str, str], list[Record]] = {}
    for r in records:
        groups.setdefault((r.solver, r.suite), []).append(r)
    out = []
    for (solver, suite), rows in groups.items():
        solved = [r for r in rows if r.status == "solved"]
        gaps = [r.gap_htm for r in solved if r.gap_htm is not None]
        times = [r.wall_s for r in rows if r.wall_s is not None]
        statuses: dict[str, int] = {}
        for r in rows:
            statuses[r.status] = statuses.get(r.status, 0) + 1
        out.append(
            Summary(
                solver,
                suite,
                len(rows),
                len(solved),
                *wilson_interval(len(solved), len(rows)),
                _mean([r.length_htm for r in solved]),
                _mean([r.length_qtm for r in solved]),
                _mean(gaps),
                (sum(g == 0 for g in gaps) / len(gaps)) if gaps else None,
                float(np.median(times)) if times else None,
                float(np.percentile(times, 90)) if times else None,
                _mean([r.nodes for r in rows]),
                statuses,
            )
        )
    return out


def _mean(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return float(np.mean(values)) if values else None
