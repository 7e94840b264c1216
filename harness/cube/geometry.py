"""Where every sticker sits in space, and the move permutations derived from that.

Nothing here is typed in by hand: each sticker of the ``kociemba`` facelet layout gets a
3-D position and outward normal, and a face turn is the rotation of the stickers in that
face's layer. The gather tables follow from matching rotated stickers to their new places,
so the tables are right exactly when the geometry is (the interop tests against
``kociemba`` check that).

Axes: x points to R, y to U, z to F. Positions of cubies are in {-1, 0, 1}^3.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from .layers import NORMALS

FACES: Final = "URFDLB"
"""Face letters in the ``kociemba`` order; a colour id is an index into this string."""

NUM_STICKERS: Final = 54
NUM_FACES: Final = 6


def _sticker_cubie(face: str, row: int, col: int) -> tuple[int, int, int]:
    """Cubie position of the sticker at ``row, col`` of ``face`` as drawn in the kociemba net.

    The net is read from outside the cube with U above F and D below it; L, F, R, B run left
    to right in the middle band.
    """
    r, c = row - 1, col - 1  # -1, 0, 1 from the top-left
    if face == "U":
        return (c, 1, r)
    if face == "D":
        return (c, -1, -r)
    if face == "F":
        return (c, -r, 1)
    if face == "B":
        return (-c, -r, -1)
    if face == "R":
        return (1, -r, -c)
    if face == "L":
        return (-1, -r, c)
    raise ValueError(f"unknown face {face!r}")


def _build_geometry() -> tuple[np.ndarray, np.ndarray]:
    positions = np.zeros((NUM_STICKERS, 3), dtype=np.int64)
    normals = np.zeros((NUM_STICKERS, 3), dtype=np.int64)
    for f, face in enumerate(FACES):
        for k in range(9):
            idx = 9 * f + k
            positions[idx] = _sticker_cubie(face, k // 3, k % 3)
            normals[idx] = NORMALS[face]
    return positions, normals


STICKER_CUBIE, STICKER_NORMAL = _build_geometry()
"""(54, 3) int arrays: the cubie position and outward normal of each facelet index."""

STICKER_GRID: Final = STICKER_CUBIE + STICKER_NORMAL + 2
"""(54, 3) coordinates of each sticker in the 5x5x5 grid ``seq2seq-transformer``'s tokens
use (values 0..4)."""

CENTRES: Final = tuple(9 * f + 4 for f in range(NUM_FACES))
NON_CENTRES: Final = tuple(i for i in range(NUM_STICKERS) if i % 9 != 4)


def _quarter_turn_matrix(normal: tuple[int, int, int]) -> np.ndarray:
    """Rotation by -90 degrees about ``normal``: clockwise when looking at that face."""
    n = np.asarray(normal)
    # Rodrigues with cos = 0, sin = -1: R v = -(n x v) + n (n . v)
    cross = np.array([[0, -n[2], n[1]], [n[2], 0, -n[0]], [-n[1], n[0], 0]])
    return -cross + np.outer(n, n)


def quarter_turn_permutation(face: str) -> np.ndarray:
    """Gather table of the clockwise quarter turn of ``face``: ``new = old[perm]``.

    Returns:
        (54,) int array; sticker ``i`` after the turn shows what sticker ``perm[i]`` showed.
    """
    normal = NORMALS[face]
    rot = _quarter_turn_matrix(normal)
    places = zip(STICKER_CUBIE.tolist(), STICKER_NORMAL.tolist(), strict=True)
    index = {(tuple(p), tuple(n)): i for i, (p, n) in enumerate(places)}
    perm = np.arange(NUM_STICKERS)
    in_layer = STICKER_CUBIE @ np.asarray(normal) == 1
    for src in np.flatnonzero(in_layer):
        dest_key = (tuple(rot @ STICKER_CUBIE[src]), tuple(rot @ STICKER_NORMAL[src]))
        perm[index[dest_key]] = src
    return perm
