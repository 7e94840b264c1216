"""Training pairs streamed from the engine: a scrambled cube and the reversed scramble.

Seed 000 scrambles with 1..20 uniformly random quarter turns, so ``U U'`` and ``U U U U``
occur and the reversed scramble is then a needlessly long "solution" (label noise the seed
names itself). Here scrambles are the move set's non-backtracking walks
(:func:`cubebench.solvers.common.walks.random_walks`: a half-turn walk never turns one face twice in
a row; a quarter-turn walk never undoes its last move), so no label cancels itself.
Commuting sequences such as ``R L R`` still give non-optimal labels; that residue is in
the README. Batches are made per step, nothing is held in memory.
"""

from __future__ import annotations

import numpy as np

from cubebench.harness.cube import MOVE_INVERSE, apply_moves, solved_batch
from cubebench.harness.cube.movesets import move_set
from cubebench.solvers.common.walks import random_walks
from cubebench.solvers.seq2seq_transformer.model import EOS, PAD, SOS, SPECIAL


def pairs(
    n: int, max_moves: int, rng: np.random.Generator, metric: str = "htm"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` scrambles of a uniform length in 1..max_moves.

    Returns:
        states (54, n) uint8; sequences (n, max_moves + 2) int64 tokens: SOS, the moves that
        undo the scramble (last scramble move inverted first), EOS, PAD...; lengths (n,).
    """
    moves = move_set(metric)
    walks = random_walks(n, max_moves, rng, metric)  # (n, max_moves) ids into the 18
    lengths = rng.integers(1, max_moves + 1, size=n)
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
