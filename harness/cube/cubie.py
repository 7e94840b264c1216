"""The cubie view of a state: which piece sits in each slot, and how it is turned.

Conventions are the ``kociemba`` package's (Kociemba's own): corner slots URF UFL ULB UBR
DFR DLF DBL DRB, edge slots UR UF UL UB DR DF DL DB FR FL BL BR. A corner's orientation is
the place of its U or D sticker among the slot's stickers (read U/D face first, then
clockwise); an edge's is 1 when its two stickers are the wrong way round. The facelet
indices of each slot are derived from the geometry, not typed in.

All functions work on batches: ``cp, co`` are (8, N) and ``ep, eo`` are (12, N) arrays.
"""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import Final

import numpy as np

from .geometry import FACES, NUM_STICKERS, STICKER_CUBIE, STICKER_NORMAL

CORNER_NAMES: Final = ("URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB")
EDGE_NAMES: Final = ("UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR")

_NORMAL_OF = {face: tuple(STICKER_NORMAL[9 * f + 4]) for f, face in enumerate(FACES)}


def _facelet(cubie: tuple[int, ...], face: str) -> int:
    match = np.flatnonzero(
        (np.asarray(cubie) == STICKER_CUBIE).all(axis=1)
        & (np.asarray(_NORMAL_OF[face]) == STICKER_NORMAL).all(axis=1)
    )
    return int(match[0])


def _slot_facelets(names: tuple[str, ...]) -> np.ndarray:
    rows = []
    for name in names:
        cubie = tuple(int(v) for v in np.sum([_NORMAL_OF[f] for f in name], axis=0))
        rows.append([_facelet(cubie, face) for face in name])
    return np.array(rows, dtype=np.intp)


CORNER_FACELETS: Final = _slot_facelets(CORNER_NAMES)
"""(8, 3) facelet indices of each corner slot, U/D sticker first, then clockwise."""
EDGE_FACELETS: Final = _slot_facelets(EDGE_NAMES)
"""(12, 2) facelet indices of each edge slot."""

CORNER_COLOURS: Final = np.array([[FACES.index(f) for f in n] for n in CORNER_NAMES], np.uint8)
EDGE_COLOURS: Final = np.array([[FACES.index(f) for f in n] for n in EDGE_NAMES], np.uint8)

_UNKNOWN: Final = 255


def _corner_lookup() -> np.ndarray:
    # colour triple read from the U/D sticker clockwise -> piece id
    table = np.full(6 * 6 * 6, _UNKNOWN, dtype=np.uint8)
    for piece, (a, b, c) in enumerate(CORNER_COLOURS.astype(int)):
        table[36 * a + 6 * b + c] = piece
    return table


def _edge_lookup() -> np.ndarray:
    # colour pair as read in the slot -> piece id * 2 + flip
    table = np.full(36, _UNKNOWN, dtype=np.uint8)
    for piece, (a, b) in enumerate(EDGE_COLOURS.astype(int)):
        table[6 * a + b] = 2 * piece
        table[6 * b + a] = 2 * piece + 1
    return table


_CORNER_LOOKUP: Final = _corner_lookup()
_EDGE_LOOKUP: Final = _edge_lookup()


def to_cubies(states: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(54, N) sticker batch -> ``cp, co`` (8, N) and ``ep, eo`` (12, N), all uint8.

    A slot whose stickers match no piece gets piece 255; :mod:`cubebench.harness.cube.validation`
    turns that into a readable error for states from outside.
    """
    states = states.reshape(NUM_STICKERS, -1)
    corner = states[CORNER_FACELETS].astype(np.intp)  # (8, 3, N)
    is_ud = (corner == 0) | (corner == 3)
    co = np.argmax(is_ud, axis=1).astype(np.uint8)  # (8, N); 0 where no U/D sticker
    twisted = np.take_along_axis(corner, (co[:, None, :] + np.arange(3)[None, :, None]) % 3, 1)
    code = 36 * twisted[:, 0] + 6 * twisted[:, 1] + twisted[:, 2]
    cp = _CORNER_LOOKUP[code]
    cp[~is_ud.any(axis=1)] = _UNKNOWN
    edge = states[EDGE_FACELETS].astype(np.intp)  # (12, 2, N)
    packed = _EDGE_LOOKUP[6 * edge[:, 0] + edge[:, 1]]
    ep = np.where(packed == _UNKNOWN, _UNKNOWN, packed >> 1).astype(np.uint8)
    eo = (packed & 1).astype(np.uint8)
    return cp, co, ep, eo


def one_to_cubies(state: np.ndarray) -> tuple[list[int], list[int], list[int], list[int]]:
    """:func:`to_cubies` of one (54,) state, as lists of ints: ``cp, co, ep, eo``.

    Checking a file's states one by one, numpy's cost per call is most of what
    :func:`to_cubies` takes; here each slot is one lookup in a table that :func:`to_cubies`
    itself filled, so the two agree on every sticker pattern, unknown pieces included."""
    stickers = np.asarray(state).reshape(NUM_STICKERS).tolist()
    corner_of, edge_of = _slot_tables()
    corners = [corner_of[36 * stickers[a] + 6 * stickers[b] + stickers[c]] for a, b, c in _CORNERS]
    edges = [edge_of[6 * stickers[a] + stickers[b]] for a, b in _EDGES]
    return (
        [x >> 2 for x in corners],
        [x & 3 for x in corners],
        [x >> 1 for x in edges],
        [x & 1 for x in edges],
    )


_CORNERS: Final = CORNER_FACELETS.tolist()
_EDGES: Final = EDGE_FACELETS.tolist()


@cache
def _slot_tables() -> tuple[list[int], list[int]]:
    """What :func:`to_cubies` reads in a corner slot for each of the 216 colour triples
    (``piece << 2 | twist``) and in an edge slot for each of the 36 pairs (``piece << 1 |
    flip``); every slot reads its stickers the same way, so slot 0's answers hold for all."""
    solved = np.repeat(np.arange(6, dtype=np.uint8), 9)
    triples = np.array(list(product(range(6), repeat=3)), dtype=np.uint8).T  # (3, 216)
    states = np.repeat(solved[:, None], triples.shape[1], axis=1)  # (54, 216)
    states[CORNER_FACELETS[0]] = triples
    cp, co, _, _ = to_cubies(states)
    pairs = np.array(list(product(range(6), repeat=2)), dtype=np.uint8).T  # (2, 36)
    states = np.repeat(solved[:, None], pairs.shape[1], axis=1)  # (54, 36)
    states[EDGE_FACELETS[0]] = pairs
    _, _, ep, eo = to_cubies(states)
    corner = (cp[0].astype(np.int64) << 2 | co[0]).tolist()
    edge = (ep[0].astype(np.int64) << 1 | eo[0]).tolist()
    return corner, edge


def from_cubies(cp: np.ndarray, co: np.ndarray, ep: np.ndarray, eo: np.ndarray) -> np.ndarray:
    """Cubie arrays (8, N) and (12, N) -> (54, N) uint8 sticker batch."""
    cp, co, ep, eo = (np.asarray(a).reshape(a.shape[0], -1) for a in (cp, co, ep, eo))
    n = cp.shape[1]
    states = np.repeat(np.repeat(np.arange(6, dtype=np.uint8), 9)[:, None], n, axis=1)
    for k in range(3):
        # sticker k of the piece lands on facelet (k + twist) of the slot
        targets = CORNER_FACELETS[np.arange(8)[:, None], (k + co.astype(np.intp)) % 3]
        states[targets, np.arange(n)[None, :]] = CORNER_COLOURS[cp, k]
    for k in range(2):
        targets = EDGE_FACELETS[np.arange(12)[:, None], (k + eo.astype(np.intp)) % 2]
        states[targets, np.arange(n)[None, :]] = EDGE_COLOURS[ep, k]
    return states


def invert_states(states: np.ndarray) -> np.ndarray:
    """(54, N) states -> (54, N) their inverses: the state a scramble's inverse makes.

    A state is a group element, the scramble that reaches it from solved; its inverse is as
    many moves from solved, and the reversed inverse of a solution of one solves the other
    (:func:`~cubebench.harness.cube.engine.invert_sequence`). On cubies: the piece in slot
    ``s`` is ``p`` with twist ``t`` exactly when the inverse puts piece ``s`` in slot ``p``
    with twist ``-t``.
    """
    cp, co, ep, eo = to_cubies(states)
    n = cp.shape[1]
    columns = np.arange(n)[None, :]
    icp, ico = np.empty_like(cp), np.empty_like(co)
    iep, ieo = np.empty_like(ep), np.empty_like(eo)
    icp[cp, columns] = np.arange(8, dtype=np.uint8)[:, None]
    ico[cp, columns] = (3 - co) % 3
    iep[ep, columns] = np.arange(12, dtype=np.uint8)[:, None]
    ieo[ep, columns] = eo
    return from_cubies(icp, ico, iep, ieo)


def permutation_parity(perm: np.ndarray) -> np.ndarray:
    """(K, N) permutations -> (N,) parity (0 even, 1 odd), by counting inversions."""
    k = perm.shape[0]
    i, j = np.triu_indices(k, 1)
    return (np.sum(perm[i] > perm[j], axis=0) % 2).astype(np.uint8)


def random_cubies(
    n: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Cubie arrays of ``n`` states drawn uniformly from the cube group.

    Permutations are uniform; when the edge parity differs from the corner parity the first
    two edges are swapped, a bijection between the two parity classes, so the result stays
    uniform. The last twist and flip are set by the sum constraints.
    """
    cp = rng.permuted(np.tile(np.arange(8, dtype=np.uint8)[:, None], (1, n)), axis=0)
    ep = rng.permuted(np.tile(np.arange(12, dtype=np.uint8)[:, None], (1, n)), axis=0)
    fix = permutation_parity(cp) != permutation_parity(ep)
    ep[0, fix], ep[1, fix] = ep[1, fix], ep[0, fix].copy()
    co = rng.integers(0, 3, size=(8, n), dtype=np.uint8)
    co[7] = (3 - co[:7].sum(axis=0) % 3) % 3
    eo = rng.integers(0, 2, size=(12, n), dtype=np.uint8)
    eo[11] = eo[:11].sum(axis=0) % 2
    return cp, co, ep, eo


def random_states(n: int, rng: np.random.Generator) -> np.ndarray:
    """(54, n) states drawn uniformly from the cube group."""
    return from_cubies(*random_cubies(n, rng))
