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

from .moves import CANONICAL_FOLLOW, NUM_MOVES


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


@lru_cache(maxsize=1)
def _quarter_automaton() -> tuple[np.ndarray, np.ndarray]:
    """The canonical quarter-turn rule as an automaton over (last move, how many times).

    A canonical quarter-turn sequence never follows a move with its inverse, writes opposite
    faces in one order (the move set's rule), and never turns one face the same way three
    times in a row (``U U U`` is ``U'``). The last rule needs the run length, so states are
    0 (start) and ``1 + 2 i + (r - 1)`` for local move i just made r = 1 or 2 times.

    Returns:
        (S, 12) int next state for each local move (-1: not allowed); (12,) move ids.
    """
    from .movesets import move_set  # movesets imports this module's kin

    qtm = move_set("qtm")
    k = qtm.size
    step = np.full((1 + 2 * k, k), -1, dtype=np.int64)
    step[0] = 1 + 2 * np.arange(k)
    for i in range(k):
        for run in (1, 2):
            for j in np.flatnonzero(qtm.follow[i]):
                if j != i:
                    step[1 + 2 * i + run - 1, j] = 1 + 2 * j
                elif run == 1:
                    step[1 + 2 * i, j] = 1 + 2 * i + 1
    return step, qtm.moves


@lru_cache(maxsize=64)
def _quarter_completions(length: int) -> np.ndarray:
    """(length + 1, S) float: canonical ways to add ``r`` more quarter turns from each state."""
    step, _ = _quarter_automaton()
    counts = np.ones((length + 1, step.shape[0]))
    for r in range(1, length + 1):
        counts[r] = np.where(step >= 0, counts[r - 1][np.maximum(step, 0)], 0.0).sum(1)
    return counts


def count_canonical_quarter(length: int) -> int:
    """Number of canonical quarter-turn sequences of exactly ``length`` moves."""
    return round(_quarter_completions(max(length, 0))[length, 0]) if length >= 0 else 0


def canonical_quarter_scrambles(n: int, depth: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` canonical quarter-turn sequences of exactly ``depth`` moves, uniform over all.

    Returns:
        (n, depth) int64 move ids (into the 18; only quarter turns).
    """
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    step, moves = _quarter_automaton()
    counts = _quarter_completions(depth)
    state = np.zeros(n, dtype=np.int64)
    out = np.empty((n, depth), dtype=np.int64)
    for position in range(depth):
        nxt = step[state]  # (n, 12)
        w = np.where(nxt >= 0, counts[depth - 1 - position][np.maximum(nxt, 0)], 0.0)
        cdf = np.cumsum(w, axis=1)
        u = rng.random(n)[:, None] * cdf[:, -1:]
        local = np.argmax(cdf > u, axis=1)
        out[:, position] = moves[local]
        state = nxt[np.arange(n), local]
    return out
