"""Kociemba's coordinates of a cube and their move tables, derived from the harness's engine.

A coordinate is a small integer that captures one aspect of a state:

- ``twist`` (0..2186): the orientations of the corners (the eighth follows from the others);
- ``flip`` (0..2047): the orientations of the edges;
- ``slice`` (0..494): which four of the twelve edge slots hold the U-D slice's edges
  (FR, FL, BL, BR), in any order;
- ``sorted`` (0..11879): ``slice * 24`` plus the order of those four edges in their slots
  (Kociemba's sorted slice coordinate), so ``sorted // 24 == slice``;
- ``cperm`` (0..40319): the permutation of the corners.

``twist``, ``flip`` and ``slice`` together locate a state relative to Kociemba's subgroup
``H = <U, D, R2, L2, F2, B2>``: they are all zero exactly on the states of ``H``. Every
table here is computed by applying the engine's own moves to states built from the cubie
view, so the coordinates cannot drift from the engine's conventions.

Three axes: a state conjugated by a rotation that takes the R-L (or F-B) axis to U-D has
coordinates of its own, and a move on the state is a (different) move on its image
(:data:`~cubebench.harness.cube.symmetry.SYMMETRY_MOVES`). A search keeps the coordinates of
all three images, so one table bounds the distance three ways.
"""

from __future__ import annotations

import itertools
import math
from functools import cache
from typing import Final

import numpy as np

from ...harness import (
    MOVE_FACE,
    NUM_MOVES,
    NUM_SYMMETRIES,
    SOLVED,
    SYMMETRY_MOVES,
    apply_move,
    apply_sequence,
    conjugate,
    from_cubies,
    invert_sequence,
    invert_states,
    to_cubies,
)

N_TWIST: Final = 2187
N_FLIP: Final = 2048
N_SLICE: Final = 495
N_SORTED: Final = 11880
N_CPERM: Final = 40320
SLICE_EDGES: Final = (8, 9, 10, 11)  # FR FL BL BR: the U-D slice
_COMBOS: Final = list(itertools.combinations(range(12), 4))  # slice index -> slots
SOLVED_SLICE: Final = _COMBOS.index(SLICE_EDGES)
SOLVED_SORTED: Final = SOLVED_SLICE * 24
_ORDERS: Final = list(itertools.permutations(range(4)))  # rank -> order of the slice edges
_ORDER_INDEX: Final = {o: i for i, o in enumerate(_ORDERS)}


def twist_of(co: np.ndarray) -> np.ndarray:
    """(8, N) corner orientations -> (N,) twist."""
    return (co[:7].astype(np.int64) * (3 ** np.arange(6, -1, -1))[:, None]).sum(axis=0)


def flip_of(eo: np.ndarray) -> np.ndarray:
    """(12, N) edge orientations -> (N,) flip."""
    return (eo[:11].astype(np.int64) * (2 ** np.arange(10, -1, -1))[:, None]).sum(axis=0)


_COMBO_INDEX: Final = {c: i for i, c in enumerate(_COMBOS)}


def slice_of(ep: np.ndarray) -> np.ndarray:
    """(12, N) edge permutation -> (N,) slice: the index of the slots holding E-slice edges."""
    return sorted_of(ep) // 24


def sorted_of(ep: np.ndarray) -> np.ndarray:
    """(12, N) edge permutation -> (N,) sorted slice: ``slice * 24`` plus the rank of the
    order in which the four slice edges stand in their slots."""
    out = np.empty(ep.shape[1], np.int64)
    for n, col in enumerate(ep.T):
        slots = tuple(int(i) for i in np.flatnonzero(col >= SLICE_EDGES[0]))
        order = tuple(int(col[i]) - SLICE_EDGES[0] for i in slots)
        out[n] = _COMBO_INDEX[slots] * 24 + _ORDER_INDEX[order]
    return out


def cperm_of(cp: np.ndarray) -> np.ndarray:
    """(8, N) corner permutation -> (N,) its rank among the 8! orders (Lehmer code)."""
    cp = cp.astype(np.int64)
    rank = np.zeros(cp.shape[1], np.int64)
    for i in range(8):
        smaller = (cp[i + 1 :] < cp[i]).sum(axis=0)
        rank = rank * (8 - i) + smaller
    return rank


def _twist_states() -> np.ndarray:
    twist = np.arange(N_TWIST)
    digits = (twist[None, :] // (3 ** np.arange(6, -1, -1))[:, None]) % 3  # (7, N)
    co = np.vstack([digits, (-digits.sum(axis=0)) % 3]).astype(np.uint8)
    return _cubies(co=co)


def _flip_states() -> np.ndarray:
    flip = np.arange(N_FLIP)
    digits = (flip[None, :] // (2 ** np.arange(10, -1, -1))[:, None]) % 2  # (11, N)
    eo = np.vstack([digits, digits.sum(axis=0) % 2]).astype(np.uint8)
    return _cubies(eo=eo)


def _sorted_states() -> np.ndarray:
    ep = np.empty((12, N_SORTED), np.uint8)
    others = [e for e in range(12) if e not in SLICE_EDGES]
    for i, slots in enumerate(_COMBOS):
        rest = [s for s in range(12) if s not in slots]
        for r, order in enumerate(_ORDERS):
            ep[list(slots), i * 24 + r] = [SLICE_EDGES[o] for o in order]
            ep[rest, i * 24 + r] = others
    return _cubies(ep=ep)


def _slice_states() -> np.ndarray:
    return _sorted_states()[:, ::24]  # the slice edges in their own order: slice 0..494


def _cperm_states() -> np.ndarray:
    perms = np.array(list(itertools.permutations(range(8))), np.uint8).T  # (8, 40320), rank order
    return _cubies(cp=perms)


def _cubies(
    cp: np.ndarray | None = None,
    co: np.ndarray | None = None,
    ep: np.ndarray | None = None,
    eo: np.ndarray | None = None,
) -> np.ndarray:
    n = next(a.shape[1] for a in (cp, co, ep, eo) if a is not None)
    ident8 = np.repeat(np.arange(8, dtype=np.uint8)[:, None], n, axis=1)
    ident12 = np.repeat(np.arange(12, dtype=np.uint8)[:, None], n, axis=1)
    return from_cubies(
        ident8 if cp is None else cp,
        np.zeros((8, n), np.uint8) if co is None else co,
        ident12 if ep is None else ep,
        np.zeros((12, n), np.uint8) if eo is None else eo,
    )


def _move_table(states: np.ndarray, coordinate: str) -> np.ndarray:
    """(54, N) states whose coordinate is 0..N-1 -> (N, 18) int32 coordinate after each move."""
    table = np.empty((states.shape[1], NUM_MOVES), np.int32)
    for m in range(NUM_MOVES):
        table[:, m] = coordinates(apply_move(states, m), (coordinate,))[coordinate]
    return table


_OF: Final = {
    "twist": (1, twist_of),
    "flip": (3, flip_of),
    "slice": (2, slice_of),
    "sorted": (2, sorted_of),
    "cperm": (0, cperm_of),
}
"""Coordinate -> (which of ``to_cubies``' cp, co, ep, eo it reads, how)."""


def coordinates(
    states: np.ndarray, names: tuple[str, ...] = ("twist", "flip", "slice", "sorted", "cperm")
) -> dict[str, np.ndarray]:
    """(54, N) states -> each named coordinate as an (N,) int64 array."""
    cubies = to_cubies(states)
    return {name: _OF[name][1](cubies[_OF[name][0]]) for name in names}


@cache
def move_tables() -> dict[str, np.ndarray]:
    """The (N, 18) int32 move table of each coordinate (about a second to build)."""
    return {
        "twist": _move_table(_twist_states(), "twist"),
        "flip": _move_table(_flip_states(), "flip"),
        "slice": _move_table(_slice_states(), "slice"),
        "sorted": _move_table(_sorted_states(), "sorted"),
        "cperm": _move_table(_cperm_states(), "cperm"),
    }


def _axis_symmetry(face: int) -> int:
    """A symmetry whose image of a turn of ``face`` is a U or D turn."""
    for k in range(NUM_SYMMETRIES):
        if MOVE_FACE[SYMMETRY_MOVES[k, 3 * face]] in (0, 3):
            return k
    raise AssertionError(f"no symmetry takes face {face} to the U-D axis")


AXIS_SYMMETRIES: Final = (0, _axis_symmetry(1), _axis_symmetry(2))
"""The symmetry that takes the U-D, R-L and F-B axis (in that order) to U-D."""
AXIS_MOVES: Final = np.ascontiguousarray(SYMMETRY_MOVES[list(AXIS_SYMMETRIES)]).astype(np.int32)
"""(3, 18): move ``m`` on a state is move ``AXIS_MOVES[a, m]`` on its image for axis ``a``."""


def axis_coordinates(state: np.ndarray) -> np.ndarray:
    """(54,) state -> (3, 3) int64: ``twist, flip, sorted`` of its image on each axis."""
    out = np.empty((3, 3), np.int64)
    for a, k in enumerate(AXIS_SYMMETRIES):
        c = coordinates(conjugate(state, k).reshape(54, 1), ("twist", "flip", "sorted"))
        out[a] = (c["twist"][0], c["flip"][0], c["sorted"][0])
    return out


def corner_index(state: np.ndarray) -> int:
    """(54,) state -> its index in the corner table: ``cperm * 2187 + twist``."""
    c = coordinates(state.reshape(54, 1))
    return int(c["cperm"][0] * N_TWIST + c["twist"][0])


def corner_parity(state: np.ndarray) -> int:
    """(54,) state -> 0 or 1, the parity of its corner permutation (every quarter turn
    changes it, so a state's quarter-turn distance has this parity)."""
    cp = to_cubies(state.reshape(54, 1))[0][:, 0].astype(int)
    inversions = sum(cp[i] > cp[j] for i in range(8) for j in range(i + 1, 8))
    return inversions % 2


assert math.comb(12, 4) == N_SLICE and math.factorial(8) == N_CPERM


# The inverse of a state is as far from solved as the state, so the tables bound it too. Its
# coordinates are not functions of the state's (a move acts on the inverse from the other
# side: ``inverse(x m) = m^-1 inverse(x)``, which relabels pieces rather than moving slots),
# so a search carries the inverse's cubies on each axis and reads its coordinates from them.
INVERSE_WIDTH: Final = 40
"""A cubie row: corner permutation (8), twist (8), edge permutation (12), flip (12)."""


def _cubie_row(state: np.ndarray) -> np.ndarray:
    cp, co, ep, eo = to_cubies(state.reshape(54, 1))
    return np.concatenate([cp[:, 0], co[:, 0], ep[:, 0], eo[:, 0]]).astype(np.uint8)


def inverse_cubies(state: np.ndarray) -> np.ndarray:
    """(54,) state -> (3, 40) uint8: the cubie row of the inverse of its image on each axis."""
    rows = [_cubie_row(invert_states(conjugate(state, k).reshape(54, 1))) for k in AXIS_SYMMETRIES]
    return np.stack(rows)


@cache
def premove_table() -> np.ndarray:
    """(18, 40) uint8: row ``m`` is the cubie row of ``m``'s inverse, which a cubie row of an
    inverse takes in from the left (its pieces relabelled) when ``m`` is played on the state."""
    return np.stack(
        [_cubie_row(apply_sequence(SOLVED, invert_sequence([m]))) for m in range(NUM_MOVES)]
    )


@cache
def sorted_lookup() -> tuple[np.ndarray, np.ndarray]:
    """``slice`` of each 12-bit mask of the slots holding slice edges (-1 where not four),
    and the rank of each order of the four, coded base 4 in slot order (first digit high)."""
    by_mask = np.full(1 << 12, -1, np.int32)
    for i, slots in enumerate(_COMBOS):
        by_mask[sum(1 << s for s in slots)] = i
    by_order = np.full(4**4, -1, np.int32)
    for r, order in enumerate(_ORDERS):
        by_order[sum(o * 4 ** (3 - k) for k, o in enumerate(order))] = r
    return by_mask, by_order


@cache
def cperm_parity() -> np.ndarray:
    """(40320,) uint8: the parity of each corner permutation coordinate, spread from the solved
    one by the move table (a quarter turn is a 4-cycle of corners and changes it, a half turn
    keeps it)."""
    cperm_mv = move_tables()["cperm"]
    parity = np.full(N_CPERM, 2, np.uint8)
    parity[0] = 0
    frontier = [0]
    while frontier:
        nxt = []
        for c in frontier:
            for m in range(NUM_MOVES):
                d = int(cperm_mv[c, m])
                if parity[d] == 2:
                    parity[d] = parity[c] ^ (m % 3 != 1)
                    nxt.append(d)
        frontier = nxt
    return parity


def with_parity(twist_mv: np.ndarray, twist_conj: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The move and conjugation tables of ``twist * 2 + corner parity`` (4374 values): the
    coordinate the ``xlarge`` table puts beside a flip x sorted-slice class. A quarter turn
    changes the parity; a symmetry's conjugation keeps it (conjugation keeps a permutation's
    cycles)."""
    flips = np.array([m % 3 != 1 for m in range(NUM_MOVES)], np.int32)
    n = twist_mv.shape[0]
    moves = (twist_mv.repeat(2, axis=0) * 2) | (np.arange(2 * n)[:, None] % 2 ^ flips[None, :])
    conj = twist_conj.repeat(2, axis=0) * 2 + (np.arange(2 * n)[:, None] % 2)
    return moves.astype(np.int32), conj.astype(np.int32)
