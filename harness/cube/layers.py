"""The N×N×N cube's stickers in space, and every layer turn as a gather table.

The 3×3×3's :mod:`~cubebench.harness.cube.geometry` generalised: each sticker of the
facelet layout (faces U R F D L B, ``N × N`` stickers each, rows as ``kociemba`` draws them)
gets a position and an outward normal, and a turn of any set of layers is the rotation of
the stickers in them. Coordinates are doubled so that they stay integers for every N: a
cubie of the N×N×N sits at odd or even values in ``{-(N-1), …, N-1}`` on each axis, and the
outer layer of face ``f`` is the one at ``N-1`` along ``f``'s normal. Nothing is typed in by
hand, so the tables are right exactly when the geometry is (the tests check the 3×3×3's
against the engine's and every size against ``magiccube``).
"""

from __future__ import annotations

from functools import cache
from typing import Final

import numpy as np

FACES: Final = "URFDLB"
NORMALS: Final = {
    "U": (0, 1, 0),
    "R": (1, 0, 0),
    "F": (0, 0, 1),
    "D": (0, -1, 0),
    "L": (-1, 0, 0),
    "B": (0, 0, -1),
}


def _place(face: str, row: int, col: int, n: int) -> tuple[int, int, int]:
    """Doubled cubie position of the sticker at ``row, col`` of ``face`` in the net."""
    r, c, out = 2 * row - (n - 1), 2 * col - (n - 1), n - 1
    return {
        "U": (c, out, r),
        "D": (c, -out, -r),
        "F": (c, -r, out),
        "B": (-c, -r, -out),
        "R": (out, -r, -c),
        "L": (-out, -r, c),
    }[face]


@cache
def sticker_geometry(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(6 n², 3) doubled cubie positions and (6 n², 3) outward normals, in facelet order."""
    positions, normals = [], []
    for face in FACES:
        for k in range(n * n):
            positions.append(_place(face, k // n, k % n, n))
            normals.append(NORMALS[face])
    pos, nor = np.array(positions, dtype=np.int64), np.array(normals, dtype=np.int64)
    pos.setflags(write=False)
    nor.setflags(write=False)
    return pos, nor


def _rotation(axis: tuple[int, int, int]) -> np.ndarray:
    """Rotation by -90 degrees about ``axis``: clockwise looking at the face it points to."""
    a = np.asarray(axis)
    cross = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return -cross + np.outer(a, a)


def turn_permutation(n: int, face: str, layers: tuple[int, ...]) -> np.ndarray:
    """Gather table of the clockwise quarter turn (seen from ``face``) of ``layers``.

    Layers count from ``face`` inwards, 1 being its outer layer; ``(1, 2)`` on a 4×4×4 is
    the wide turn ``Fw``, ``(2,)`` the inner slice ``2F``, and ``range(1, n + 1)`` turns the
    whole cube. Returns (6 n²,) ints: sticker ``i`` after the turn shows what ``perm[i]``
    showed.
    """
    positions, normals = sticker_geometry(n)
    normal = np.asarray(NORMALS[face])
    rot = _rotation(NORMALS[face])
    places = zip(positions.tolist(), normals.tolist(), strict=True)
    index = {(tuple(p), tuple(q)): i for i, (p, q) in enumerate(places)}
    depth = positions @ normal  # n-1 on the outer layer, then n-3, ...
    chosen = np.isin(depth, [n + 1 - 2 * layer for layer in layers])
    perm = np.arange(positions.shape[0])
    for src in np.flatnonzero(chosen):
        perm[index[(tuple(rot @ positions[src]), tuple(rot @ normals[src]))]] = src
    return perm


@cache
def corner_stickers(n: int) -> np.ndarray:
    """(8, 3) sticker indices of each corner, U or D sticker first, then clockwise.

    Corners are the cubies with every coordinate at ±(n-1); the order of the slots follows
    the first sticker's facelet index, so U's corners come first (the 3×3×3's URF … order
    differs; only the sizes' own validation uses these). Computed once a size and read-only:
    every state a suite loads is checked against it.
    """
    positions, normals = sticker_geometry(n)
    corner = (np.abs(positions) == n - 1).all(axis=1)
    slots: dict[tuple[int, ...], list[int]] = {}
    for i in np.flatnonzero(corner):
        slots.setdefault(tuple(positions[i]), []).append(int(i))
    rows = []
    for stickers in slots.values():
        ud = next(s for s in stickers if normals[s][1] != 0)
        a, b = (s for s in stickers if s != ud)
        # clockwise seen from outside: the three normals in left-handed order
        if np.linalg.det(np.array([normals[ud], normals[a], normals[b]])) > 0:
            a, b = b, a
        rows.append([ud, a, b])
    rows.sort()
    slots_array = np.array(rows, dtype=np.int64)
    slots_array.flags.writeable = False
    return slots_array
