"""Metrics against values computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cubebench.harness.metrics import (
    bootstrap_mean_ci,
    mcnemar_exact,
    paired_bootstrap_diff,
    wilson_interval,
)


def test_wilson_interval_known_values():
    # 8 of 10: centre (0.8 + 1.92/10) / 1.384 = 0.7168, half-width 0.2264 (hand computed)
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    low, high = wilson_interval(100, 100)
    assert high == 1.0 and low == pytest.approx(0.9630, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 50)[0] == pytest.approx(0.0, abs=1e-12)


def test_mcnemar_exact_by_hand():
    # 1 vs 9 discordant: 2 * (C(10,0) + C(10,1)) / 2**10 = 22 / 1024
    assert mcnemar_exact(1, 9) == pytest.approx(22 / 1024)
    assert mcnemar_exact(9, 1) == pytest.approx(22 / 1024)
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(5, 5) == 1.0


def test_bootstrap_intervals_cover_and_shrink():
    rng = np.random.default_rng(0)
    small = rng.normal(20, 2, size=30)
    big = rng.normal(20, 2, size=3000)
    lo_s, hi_s = bootstrap_mean_ci(small)
    lo_b, hi_b = bootstrap_mean_ci(big)
    assert lo_s < small.mean() < hi_s and lo_b < big.mean() < hi_b
    assert (hi_b - lo_b) < (hi_s - lo_s) / 5
    assert all(math.isnan(v) for v in bootstrap_mean_ci(np.array([])))
    mean, low, high = paired_bootstrap_diff(np.array([20, 21, 22]), np.array([19, 20, 21]))
    assert mean == -1.0 and low == high == -1.0
