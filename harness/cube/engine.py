"""Batched cube states and the hot-path operations on them.

A batch is a sticker-major ``uint8`` array of shape ``(54, N)``: row ``i`` holds sticker
``i`` (kociemba facelet order) of every state, and values are colour ids (indices into
``"URFDLB"``). A single state is a ``(54,)`` array and works with every function here.

Why sticker-major: applying one move to a whole batch is then a gather of 54 contiguous rows
of N bytes, which runs near the speed of a plain copy (see ``benchmarks/perf/engine.py``), while a
row-major ``(N, 54)`` layout forces a strided gather per state. Applying a *different* move
to each state has no fast numpy form in either layout, so it is a small compiled kernel.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

import numba
import numpy as np

from .geometry import NON_CENTRES, NUM_STICKERS
from .moves import MOVE_INVERSE, MOVE_TABLES, NUM_MOVES

SOLVED: Final = np.repeat(np.arange(6, dtype=np.uint8), 9)
SOLVED.setflags(write=False)
"""(54,) the solved state."""

_TABLES_T: Final = np.ascontiguousarray(MOVE_TABLES.T.astype(np.int64))  # (54, 18)
_CHILD_TABLE: Final = np.ascontiguousarray(MOVE_TABLES.T)  # (54, 18) for expand()
_KEY_STICKERS: Final = np.asarray(NON_CENTRES, dtype=np.int64)  # (48,)
_GOLDEN: Final = np.uint64(0x9E3779B97F4A7C15)


def solved_batch(n: int) -> np.ndarray:
    """(54, n) batch of solved cubes."""
    return np.repeat(SOLVED[:, None], n, axis=1)


_ROW_COPY_MIN_BATCH: Final = 2048


def apply_move(states: np.ndarray, move: int, out: np.ndarray | None = None) -> np.ndarray:
    """Apply one move to every state: (54, N) -> (54, N), or (54,) -> (54,).

    Large batches copy row by row (54 contiguous copies run at ~70% of a plain copy here,
    ``np.take`` at ~20%); small ones use one fancy index, which has less fixed cost.
    """
    table = MOVE_TABLES[move]
    if states.ndim == 1 or states.shape[1] < _ROW_COPY_MIN_BATCH:
        if out is None:
            return states[table]
        out[...] = states[table]
        return out
    if out is None:
        out = np.empty_like(states)
    for dest, src in enumerate(table):
        out[dest] = states[src]
    return out


def apply_sequence(states: np.ndarray, moves: Iterable[int]) -> np.ndarray:
    """Apply the same move sequence to every state; returns a new array."""
    current = np.array(states, copy=True)
    spare = np.empty_like(current)
    for move in moves:
        apply_move(current, move, out=spare)
        current, spare = spare, current
    return current


@numba.njit(cache=True, nogil=True, boundscheck=False)
def _apply_per_column(states, moves, tables_t, out):  # pragma: no cover - compiled
    # flat indexing with per-sticker row offsets measured ~2x faster than 2-D indexing
    n = states.shape[1]
    flat_in = states.ravel()
    flat_out = out.ravel()
    offsets = np.empty(tables_t.shape[1], dtype=np.int64)
    for i in range(states.shape[0]):
        for m in range(offsets.shape[0]):
            offsets[m] = tables_t[i, m] * n
        base = i * n
        for j in range(n):
            flat_out[base + j] = flat_in[offsets[moves[j]] + j]


def apply_moves(states: np.ndarray, moves: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Apply a different move to each state: ``states[:, j]`` gets ``moves[j]``.

    Args:
        states: (54, N) uint8 batch.
        moves: (N,) integer move ids in ``0..17``.
        out: optional (54, N) uint8 array to write into; must not alias ``states``.

    Raises:
        ValueError: on a shape mismatch or a move id outside ``0..17`` (checked here because
            the compiled kernel does no bounds checks).
    """
    if states.ndim != 2 or states.shape[0] != NUM_STICKERS:
        raise ValueError(f"states must have shape (54, N), got {states.shape}")
    moves = np.asarray(moves)
    if moves.shape != (states.shape[1],):
        raise ValueError(f"need one move per state: {moves.shape} for {states.shape[1]} states")
    if moves.size and (moves.min() < 0 or moves.max() >= NUM_MOVES):
        raise ValueError(f"move ids must be in 0..17, got range {moves.min()}..{moves.max()}")
    # the kernel reads and writes flat C-order memory: a column selection such as
    # ``states[:, idx]`` comes back Fortran-ordered and must be laid out first
    states = np.ascontiguousarray(states, dtype=np.uint8)
    if out is None:
        out = np.empty(states.shape, np.uint8)
    elif (
        out.shape != states.shape
        or out.dtype != np.uint8
        or not out.flags.c_contiguous
        or np.shares_memory(out, states)
    ):
        raise ValueError("out must be a separate C-contiguous (54, N) uint8 array")
    _apply_per_column(states, moves.astype(np.uint8), _TABLES_T, out)
    return out


def scrambled_batch(scrambles: np.ndarray) -> np.ndarray:
    """Solved cubes, each turned by its own scramble: (N, L) move ids -> (54, N) uint8."""
    scrambles = np.asarray(scrambles)
    if scrambles.ndim != 2:
        raise ValueError(f"scrambles must have shape (N, L), got {scrambles.shape}")
    states = solved_batch(scrambles.shape[0])  # (54, N)
    spare = np.empty_like(states)
    for step in range(scrambles.shape[1]):
        apply_moves(states, scrambles[:, step], out=spare)
        states, spare = spare, states
    return states


def expand(states: np.ndarray) -> np.ndarray:
    """All 18 children of every state in one gather.

    Args:
        states: (54, N) batch.

    Returns:
        (54, 18 * N) batch; child ``m * N + j`` is move ``m`` applied to state ``j``.
    """
    n = states.shape[1]
    return states[_CHILD_TABLE].reshape(NUM_STICKERS, NUM_MOVES * n)


def children_of(states: np.ndarray, parents: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """Chosen children only: column ``k`` is ``moves[k]`` applied to ``states[:, parents[k]]``.

    A policy beam ranks all 18 N children by score before it needs any of them, so it
    builds only the few it keeps instead of all 18 N with :func:`expand`.

    Args:
        states: (54, N) uint8 batch.
        parents: (K,) column indices into ``states``.
        moves: (K,) move ids in ``0..17``.

    Returns:
        (54, K) uint8.

    Raises:
        ValueError: on mismatched lengths or an index out of range (a negative parent index
            would silently wrap around).
    """
    parents, moves = np.asarray(parents, np.int64), np.asarray(moves)
    if states.ndim != 2 or states.shape[0] != NUM_STICKERS:
        raise ValueError(f"states must have shape (54, N), got {states.shape}")
    if parents.shape != moves.shape or parents.ndim != 1:
        raise ValueError(f"parents {parents.shape} and moves {moves.shape} must be equal 1-D")
    if parents.size and not (parents.min() >= 0 and parents.max() < states.shape[1]):
        raise ValueError(f"parent indices must be in 0..{states.shape[1] - 1}")
    # np.take keeps C order (a fancy column index would not): as fast as a fused kernel here
    return apply_moves(np.take(states, parents, axis=1), moves)


def is_solved(states: np.ndarray) -> Any:
    """(54, N) -> (N,) bool; (54,) -> bool."""
    if states.ndim == 1:
        return bool(np.array_equal(states, SOLVED))
    # a cube is solved when every sticker matches its face's centre; comparing against
    # the constant solved state is the same test for legal states and cheaper
    return np.all(states == SOLVED[:, None], axis=0)


def invert_sequence(moves: Sequence[int]) -> list[int]:
    """The sequence that undoes ``moves``."""
    return [int(MOVE_INVERSE[m]) for m in reversed(moves)]


@numba.njit(cache=True, nogil=True, boundscheck=False)
def _keys(states, key_stickers, out):  # pragma: no cover - compiled
    n = states.shape[1]
    half = key_stickers.shape[0] // 2
    for w in range(2):
        for j in range(n):
            out[j, w] = 0
        for t in range(w * half, (w + 1) * half):
            row = key_stickers[t]
            for j in range(n):
                out[j, w] = out[j, w] * 6 + states[row, j]


def state_keys(states: np.ndarray) -> np.ndarray:
    """Exact keys: two uint64 words per state that differ whenever the states differ.

    The 48 non-centre stickers are read as two base-6 numbers of 24 digits (6**24 < 2**64).
    Use these where a false match would be a wrong answer (the optimal-distance oracle).

    Returns:
        (N, 2) uint64 for a (54, N) batch.
    """
    states = np.ascontiguousarray(states.reshape(NUM_STICKERS, -1), dtype=np.uint8)
    out = np.empty((states.shape[1], 2), dtype=np.uint64)
    _keys(states, _KEY_STICKERS, out)
    return out


def state_hash(states: np.ndarray) -> np.ndarray:
    """One uint64 per state for duplicate detection in search.

    Mixes the exact two-word key into 64 bits: two different states collide with
    probability about 2**-64 per pair, far below any search's chance of mattering.

    Returns:
        (N,) uint64 for a (54, N) batch.
    """
    return mix_keys(state_keys(states))


def mix_keys(keys: np.ndarray) -> np.ndarray:
    """(N, 2) exact keys -> (N,) uint64 hashes (see :func:`state_hash`)."""
    with np.errstate(over="ignore"):
        mixed = keys[:, 0] * _GOLDEN
        mixed ^= keys[:, 1] + (mixed >> np.uint64(29))
        mixed *= np.uint64(0xBF58476D1CE4E5B9)
        mixed ^= mixed >> np.uint64(32)
    return mixed
