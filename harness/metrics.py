"""The statistical tools of the reports: Wilson intervals for a solve rate, bootstrap
intervals for a mean and a paired difference, McNemar's exact test. What a summary holds
and how each column aggregates is declared once, in :mod:`cubebench.harness.report.stats`."""

from __future__ import annotations

import math

import numpy as np


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
    # the bounds are exact at 0 and 1 (no successes, every one): rounding must not make
    # 1.0 read 0.9999999999999999 in a table or a file
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


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
