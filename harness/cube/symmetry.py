"""The 48 symmetries of the cube as sticker, colour and move tables.

A symmetry is an orthogonal map ``M`` of space that takes the cube to itself: the 24
rotations and their 24 mirror images (the group O_h). Conjugating a state by ``M`` moves the
sticker at position ``p`` with normal ``n`` to ``(M p, M n)`` and renames its colour to the
face whose centre ``M`` lands it on, so the solved cube stays solved and a state ``d`` moves
from solved stays ``d`` moves from solved. A move turns into the move of the image face, in
the opposite direction under a mirror. That is why symmetries are useful to learned solvers:
a labelled ``(state, move)`` pair is worth 48 (training augmentation), and a policy can be
asked about all 48 images of a state and its answers mapped back (test-time averaging).

Kociemba's two-phase algorithm singles out the U-D axis (its phase 2 is the group
``<U, D, R2, L2, F2, B2>``); the 16 symmetries that keep that axis (D_4h, the group the
algorithm itself reduces by) map two-phase routes to two-phase routes. ``GROUPS`` names both.

As in :mod:`cubebench.harness.cube.geometry`, nothing is typed in by hand: the tables
follow from the sticker geometry, and the move table from matching conjugated move permutations.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Final

import numpy as np

from .geometry import NUM_FACES, NUM_STICKERS, STICKER_CUBIE, STICKER_NORMAL
from .moves import MOVE_TABLES, NUM_MOVES


def _matrices() -> np.ndarray:
    """(48, 3, 3) signed permutation matrices, the identity first."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3), dtype=np.int64)
            m[np.arange(3), perm] = signs
            out.append(m)
    out.sort(key=lambda m: (not np.array_equal(m, np.eye(3)), m.tolist()))
    return np.stack(out)


def _build() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    mats = _matrices()
    places = zip(STICKER_CUBIE.tolist(), STICKER_NORMAL.tolist(), strict=True)
    index = {(tuple(p), tuple(n)): i for i, (p, n) in enumerate(places)}
    centre_normals = [tuple(STICKER_NORMAL[9 * f + 4]) for f in range(NUM_FACES)]
    stickers = np.empty((len(mats), NUM_STICKERS), dtype=np.intp)
    colours = np.empty((len(mats), NUM_FACES), dtype=np.uint8)
    moves = np.empty((len(mats), NUM_MOVES), dtype=np.intp)
    move_keys = {tuple(t): m for m, t in enumerate(MOVE_TABLES.tolist())}
    for k, m in enumerate(mats):
        for i in range(NUM_STICKERS):  # sticker i lands on j: new[j] = old[i]
            j = index[(tuple(m @ STICKER_CUBIE[i]), tuple(m @ STICKER_NORMAL[i]))]
            stickers[k, j] = i
        for f, normal in enumerate(centre_normals):
            colours[k, f] = centre_normals.index(tuple(m @ np.asarray(normal)))
        inverse = np.argsort(stickers[k])
        for move in range(NUM_MOVES):  # conj(T) = P^-1 . T . P as gather tables
            moves[k, move] = move_keys[tuple(inverse[MOVE_TABLES[move][stickers[k]]].tolist())]
    keeps_ud = np.abs(mats[:, 1, 1]) == 1  # y (the U-D axis) maps to +-y
    for table in (stickers, colours, moves):
        table.setflags(write=False)
    return stickers, colours, moves, keeps_ud


SYMMETRY_STICKERS, SYMMETRY_COLOURS, SYMMETRY_MOVES, _KEEPS_UD = _build()
"""(48, 54) gather tables, (48, 6) colour renaming and (48, 18) move images.

Symmetry ``k`` of a batch ``s`` (54, N) is ``SYMMETRY_COLOURS[k][s[SYMMETRY_STICKERS[k]]]``,
and ``conjugate(apply(s, m), k) == apply(conjugate(s, k), SYMMETRY_MOVES[k, m])``. Index 0 is
the identity."""

NUM_SYMMETRIES: Final = len(SYMMETRY_STICKERS)

GROUPS: Final[dict[str, np.ndarray]] = {
    "none": np.array([0]),
    "ud": np.flatnonzero(_KEEPS_UD),  # the 16 that keep kociemba's U-D axis
    "full": np.arange(NUM_SYMMETRIES),
}


def group(name: str) -> np.ndarray:
    """The symmetry indices of a named group; an unknown name is a ``ValueError``."""
    if name not in GROUPS:
        raise ValueError(f"symmetry group {name!r}: must be one of {', '.join(GROUPS)}")
    return GROUPS[name]


def conjugate(states: np.ndarray, k: int) -> np.ndarray:
    """(54, N) or (54,) states -> their images under symmetry ``k``, same shape."""
    return SYMMETRY_COLOURS[k][np.asarray(states)[SYMMETRY_STICKERS[k]]]


def conjugate_rows(states: np.ndarray, ks: np.ndarray) -> np.ndarray:
    """(N, 54) row-major states, (N,) symmetry per row -> (N, 54) images, row by row.

    The row-major form is the one training batches come in.
    """
    gathered = np.take_along_axis(np.asarray(states), SYMMETRY_STICKERS[ks], axis=1)
    return np.take_along_axis(SYMMETRY_COLOURS[ks], gathered.astype(np.intp), axis=1)


def symmetric_scores(
    states: np.ndarray, score: Callable[[np.ndarray], np.ndarray], ks: np.ndarray
) -> np.ndarray:
    """Average a per-move score over the images of each state under symmetries ``ks``.

    Args:
        states: (54, N) batch.
        score: function (54, M) states -> (M, 18) scores of each move (log-probabilities).
        ks: (K,) symmetry indices.

    Returns:
        (N, 18): for each state and move, the mean over ``k`` of the score the model gives
        the image move on the image state.
    """
    n = states.shape[1]
    images = np.concatenate([conjugate(states, int(k)) for k in ks], axis=1)  # (54, K*N)
    scores = np.asarray(score(images)).reshape(len(ks), n, NUM_MOVES)  # (K, N, 18)
    mapped = np.take_along_axis(scores, SYMMETRY_MOVES[ks][:, None, :], axis=2)
    return mapped.mean(axis=0)


def symmetric_values(
    states: np.ndarray, value: Callable[[np.ndarray], np.ndarray], ks: np.ndarray
) -> np.ndarray:
    """Average a per-state value (a distance estimate) over the images of each state under
    symmetries ``ks``: every image is exactly as far from solved, so the mean keeps what the
    model knows and averages out the errors it makes differently on each image.

    Args:
        states: (54, N) batch.
        value: function (54, M) states -> (M,) values.
        ks: (K,) symmetry indices.

    Returns:
        (N,) the mean over ``k`` of the value of each state's image.
    """
    n = states.shape[1]
    images = np.concatenate([conjugate(states, int(k)) for k in ks], axis=1)  # (54, K*N)
    return np.asarray(value(images), dtype=np.float32).reshape(len(ks), n).mean(axis=0)
