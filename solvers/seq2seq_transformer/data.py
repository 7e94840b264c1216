"""Training pairs streamed from the engine: a scrambled cube and the reversed scramble.

Three ways to scramble (``DataConfig.scramble``):

- ``uniform``, the seed's: each move drawn from the whole move set, so ``U U'`` and
  ``U U U U`` occur and the reversed scramble is a needlessly long "solution" (label noise
  the seed names itself);
- ``walk``: the move set's non-backtracking walks
  (:func:`cubebench.solvers.common.walks.random_walks`), so no label undoes itself, but
  commuting sequences (``R L`` and ``L R``) still give two labels for one cube;
- ``canonical``: the canonical sequences the depth suites are drawn from (no move followed
  by its inverse or a turn of the same face in HTM, opposite faces in one fixed order, in
  QTM never three equal quarter turns in a row), uniform over all of each length, so one
  cube reached in two commuting orders gets one label.

Lengths are drawn from ``min_length..max_length``, uniformly or weighted toward the longer
ones (``linear``: chance proportional to the length). Batches are made per step.
"""

from __future__ import annotations

import numpy as np

from ...harness import (
    MOVE_INVERSE,
    apply_moves,
    canonical_quarter_scrambles,
    canonical_scrambles,
    move_set,
    solved_batch,
)
from ..common.walks import random_walks
from .model import EOS, PAD, SOS, SPECIAL

SCRAMBLES = ("uniform", "walk", "canonical")
WEIGHTINGS = ("uniform", "linear")


def draw_lengths(
    n: int, rng: np.random.Generator, low: int, high: int, weighting: str = "uniform"
) -> np.ndarray:
    """(n,) scramble lengths in ``low..high``: uniform, or with chance proportional to length."""
    if not 1 <= low <= high:
        raise ValueError(f"scramble lengths {low}..{high}: need 1 <= low <= high")
    if weighting == "uniform":
        return rng.integers(low, high + 1, size=n)
    if weighting != "linear":
        raise ValueError(f"length weighting {weighting!r}: expected one of {WEIGHTINGS}")
    lengths = np.arange(low, high + 1)
    return rng.choice(lengths, size=n, p=lengths / lengths.sum())


def scrambles(
    lengths: np.ndarray, max_moves: int, rng: np.random.Generator, metric: str, scramble: str
) -> np.ndarray:
    """(n, max_moves) move ids; row j's first ``lengths[j]`` are its scramble."""
    n = len(lengths)
    if scramble == "walk":
        return random_walks(n, max_moves, rng, metric)
    out = np.zeros((n, max_moves), dtype=np.int64)
    if scramble == "uniform":
        moves = move_set(metric).moves
        out[:] = moves[rng.integers(0, moves.size, size=(n, max_moves))]
        return out
    if scramble != "canonical":
        raise ValueError(f"scramble {scramble!r}: expected one of {SCRAMBLES}")
    draw = canonical_quarter_scrambles if metric == "qtm" else canonical_scrambles
    for length in np.unique(lengths):
        rows = np.flatnonzero(lengths == length)
        out[rows, :length] = draw(rows.size, int(length), rng)
    return out


def pairs(
    n: int,
    max_moves: int,
    rng: np.random.Generator,
    metric: str = "htm",
    scramble: str = "walk",
    lengths: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` scrambles, of the given ``lengths`` (default: uniform in 1..max_moves).

    Returns:
        states (54, n) uint8; sequences (n, max_moves + 2) int64 tokens: SOS, the moves that
        undo the scramble (last scramble move inverted first), EOS, PAD...; lengths (n,).
    """
    moves = move_set(metric)
    if lengths is None and scramble == "walk":  # this order reproduces earlier walk runs
        walks = random_walks(n, max_moves, rng, metric)
        lengths = rng.integers(1, max_moves + 1, size=n)
    else:
        if lengths is None:
            lengths = rng.integers(1, max_moves + 1, size=n)
        if lengths.max(initial=0) > max_moves:
            raise ValueError(f"scramble length {lengths.max()} > max_moves {max_moves}")
        walks = scrambles(lengths, max_moves, rng, metric, scramble)  # (n, max_moves)
    states = solved_batch(n)
    for step in range(max_moves):
        active = np.flatnonzero(lengths > step)
        states[:, active] = apply_moves(states[:, active], walks[active, step])
    undo = moves.local[MOVE_INVERSE[walks]] + SPECIAL  # (n, max_moves) tokens
    seq = np.full((n, max_moves + 2), PAD, dtype=np.int64)
    seq[:, 0] = SOS
    steps = np.arange(max_moves)
    # solution position j (1-based in seq) holds the undo of scramble move L - j
    src = lengths[:, None] - 1 - steps[None, :]  # (n, max_moves); < 0 past the end
    inside = src >= 0
    rows = np.broadcast_to(np.arange(n)[:, None], src.shape)
    seq[:, 1:-1][inside] = undo[rows[inside], src[inside]]
    seq[np.arange(n), lengths + 1] = EOS
    return states, seq, lengths
