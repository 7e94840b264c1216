"""One cube, several equivalent starting points, the shortest answer kept.

A cube's inverse and its images under the 48 symmetries are exactly as far from solved as
the cube itself, and a solution of any of them maps back to one of the cube: an image's
through the symmetry's move table, the inverse's reversed and inverted. A learned model is
not exactly symmetric, so a search from each start takes its own path and finds its own
length; keeping the shortest is the oldest trick of cube solvers (Kociemba's solver
searches three axes and the inverse). Starts come in a fixed order: the cube, its inverse,
then the two rotations about the U-R-F corner's diagonal (which carry the U-D axis to the
other two), each with its inverse, then the remaining symmetries.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np

from ...harness import (
    NUM_SYMMETRIES,
    SYMMETRY_COLOURS,
    SYMMETRY_MOVES,
    conjugate,
    invert_sequence,
    invert_states,
)

_AXIS_CYCLES = ([1, 2, 0, 4, 5, 3], [2, 0, 1, 5, 3, 4])  # faces URFDLB: U->R->F, U->F->R


def _symmetry_order() -> list[int]:
    cycles = [k for k in range(NUM_SYMMETRIES) if SYMMETRY_COLOURS[k].tolist() in _AXIS_CYCLES]
    return [0, *cycles, *(k for k in range(1, NUM_SYMMETRIES) if k not in cycles)]


SYMMETRY_ORDER: Final = np.array(_symmetry_order())
"""The 48 symmetries, the identity and the two axis-cycling rotations first: the order in
which starts, and the images a value is averaged over, are taken."""


class Start(NamedTuple):
    """Symmetry ``symmetry`` applied to the cube, or to its inverse when ``inverse``."""

    symmetry: int
    inverse: bool


STARTS: Final[tuple[Start, ...]] = tuple(
    Start(int(k), inverse) for k in SYMMETRY_ORDER for inverse in (False, True)
)
"""Every start, in the order a search with ``starts=n`` takes the first ``n``."""

MAX_STARTS: Final = len(STARTS)

_UNDO_SYMMETRY: Final = np.argsort(SYMMETRY_MOVES, axis=1)  # (48, 18): image move -> move


def start_state(state: np.ndarray, start: Start) -> np.ndarray:
    """(54,) cube -> (54,) the state a search from ``start`` begins at."""
    base = invert_states(state[:, None])[:, 0] if start.inverse else state
    return conjugate(base, start.symmetry)


def map_back(moves: tuple[int, ...], start: Start) -> tuple[int, ...]:
    """A solution (ids into the 18) of ``start_state(cube, start)`` -> one of ``cube``."""
    undone = [int(m) for m in _UNDO_SYMMETRY[start.symmetry, list(moves)]] if moves else []
    return tuple(invert_sequence(undone) if start.inverse else undone)
