"""Canonical scrambles: move sequences with no redundant face pairs, drawn uniformly.

A canonical sequence never turns the same face twice in a row and writes the two faces of
an opposite pair in one order (U before D, R before L, F before B), since such pairs
commute. Every state within k moves of solved has a canonical sequence of length <= k, and
a canonical scramble of k moves leaves the cube *at most* k moves from solved: depth and
distance are different things.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cubebench.harness.cube.moves import CANONICAL_FOLLOW, NUM_MOVES


@lru_cache(maxsize=64)
def _completions(length: int) -> np.ndarray:
    """(length + 1, 18) float: canonical ways to add ``r`` more moves after each move."""
    counts = np.ones((length + 1, NUM_MOVES))
    follow = CANONICAL_FOLLOW.astype(float)
    for r in range(1, length + 1):
        counts[r] = follow @ counts[r - 1]
    return counts


def count_canonical(length: int) -> int:
    """Number of canonical sequences of exactly ``length`` moves."""
    if length == 0:
        return 1
    return round(_completions(length - 1)[length - 1].sum())


def canonical_scrambles(n: int, depth: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` canonical sequences of exactly ``depth`` moves, uniform over all such sequences.

    Returns:
        (n, depth) int64 move ids.
    """
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    out = np.empty((n, depth), dtype=np.int64)
    if depth == 0:
        return out
    weights = _completions(depth - 1)
    prob = weights[depth - 1] / weights[depth - 1].sum()
    out[:, 0] = rng.choice(NUM_MOVES, size=n, p=prob)
    for step in range(1, depth):
        remaining = depth - 1 - step
        w = CANONICAL_FOLLOW[out[:, step - 1]] * weights[remaining][None, :]  # (n, 18)
        cdf = np.cumsum(w, axis=1)
        u = rng.random(n)[:, None] * cdf[:, -1:]
        out[:, step] = np.argmax(cdf > u, axis=1)
    return out

