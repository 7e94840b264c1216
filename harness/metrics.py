"""Summary statistics of runs: solve rate with Wilson intervals, lengths, time, effort."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .records.schema import Record


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
        # the gap in the metric the solver searched: a QTM search against the QTM optimum
        gaps = [r.gap_qtm if r.metric == "qtm" else r.gap_htm for r in solved]
        gaps = [g for g in gaps if g is not None]
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


def bootstrap_mean_ci(
    values: np.ndarray, *, samples: int = 2000, seed: int = 0, level: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean; (nan, nan) for no values."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return (math.nan, math.nan)
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, values.size, size=(samples, values.size))].mean(axis=1)
    tail = (1 - level) / 2 * 100
    return (float(np.percentile(means, tail)), float(np.percentile(means, 100 - tail)))


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value from the discordant pairs.

    ``only_a``: instances A solved and B did not; ``only_b``: the reverse. Under the null
    hypothesis each discordant pair is a fair coin, so the p-value is a binomial tail.
    """
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def paired_bootstrap_diff(
    a: np.ndarray, b: np.ndarray, *, samples: int = 2000, seed: int = 0, level: float = 0.95
) -> tuple[float, float, float]:
    """Mean of ``b - a`` over paired values, with a percentile bootstrap interval."""
    diff = np.asarray(b, float) - np.asarray(a, float)
    if diff.size == 0:
        return (math.nan, math.nan, math.nan)
    low, high = bootstrap_mean_ci(diff, samples=samples, seed=seed, level=level)
    return (float(diff.mean()), low, high)
